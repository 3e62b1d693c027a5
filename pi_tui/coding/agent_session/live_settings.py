"""Settings a running AgentSession acts on, read from a ``SettingsManager`` (pi-reference §3.16).

:func:`session_settings_from` builds the :class:`SessionSettings` a new session starts with (the factory);
:func:`apply_settings` copies a manager's current values into a running session in place, so its compactor,
retry controller and queues act on them from the next check on (``/settings``, ``/reload``: pi's
``AgentSession.reload`` re-reads the settings files and rebuilds the runtime the same way).
"""

from __future__ import annotations

from typing import Any

from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction.prepare import CompactionSettings
from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.retry import RetrySettings


def session_settings_from(manager: SettingsManager) -> SessionSettings:
    """The ``compaction.*``, ``retry.*``, queue-mode, image and bash settings of ``manager`` (pi defaults)."""
    compaction = manager.get_compaction_settings()
    retry = manager.get_retry_settings()
    provider_retry = manager.get_provider_retry_settings()
    return SessionSettings(
        compaction=CompactionSettings(
            enabled=bool(compaction["enabled"]),
            reserve_tokens=int(compaction["reserveTokens"]),
            keep_recent_tokens=int(compaction["keepRecentTokens"]),
        ),
        retry=RetrySettings(
            enabled=bool(retry["enabled"]),
            max_retries=int(retry["maxRetries"] if retry["maxRetries"] is not None else 3),
            base_delay_ms=int(retry["baseDelayMs"] if retry["baseDelayMs"] is not None else 2000),
            max_delay_ms=int(provider_retry.get("maxRetryDelayMs") or 60000),
        ),
        steering_mode=manager.steering_mode,
        follow_up_mode=manager.follow_up_mode,
        default_thinking_level=manager.default_thinking_level or "medium",
        block_images=manager.block_images,
        shell_command_prefix=manager.shell_command_prefix,
        max_repeated_tool_failures=manager.max_repeated_tool_failures,
        provider_timeout_ms=_positive(provider_retry.get("timeoutMs")),
        provider_max_retries=_non_negative(provider_retry.get("maxRetries")),
    )


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _non_negative(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def apply_settings(session: Any, manager: SettingsManager) -> None:
    """Make ``session`` (an AgentSession) act on ``manager``'s effective settings now: compaction, retry,
    queue modes, default thinking level, image blocking, the bash prefix. The objects the session's parts hold
    (``session.settings.compaction``/``.retry``) are updated in place, never replaced."""
    fresh = session_settings_from(manager)
    current: SessionSettings = session.settings
    for name in ("enabled", "reserve_tokens", "keep_recent_tokens"):
        setattr(current.compaction, name, getattr(fresh.compaction, name))
    for name in ("enabled", "max_retries", "base_delay_ms", "max_delay_ms"):
        setattr(current.retry, name, getattr(fresh.retry, name))
    for name in ("steering_mode", "follow_up_mode", "default_thinking_level", "block_images",
                 "shell_command_prefix", "max_repeated_tool_failures", "provider_timeout_ms",
                 "provider_max_retries"):
        setattr(current, name, getattr(fresh, name))
    agent = getattr(session, "agent", None)
    if agent is not None:
        agent.steering_mode = fresh.steering_mode
        agent.follow_up_mode = fresh.follow_up_mode


def reload_settings_and_models(session: Any, manager: SettingsManager) -> list[str]:
    """``/reload`` for settings and models.json (pi's ``AgentSession.reload``: the settings files are read
    again, the providers rebuilt; ``models.json error: …`` when that file is bad). The running session then
    uses the new settings (:func:`apply_settings`); its model and the cycling scope are swapped for the
    freshly loaded models of the same provider and id (a changed ``baseUrl`` or ``contextWindow`` applies at
    once). Returns the warnings to show."""
    manager.reload()
    apply_settings(session, manager)
    warnings = [str(error) for error in manager.drain_errors()]
    access = session.models
    registry = getattr(access, "registry", None)
    if registry is None:
        return warnings
    registry.refresh()
    if registry.error:
        warnings.append(f"models.json error: {registry.error}")
    current = session.agent.state.model
    if current is not None:
        fresh = access.find(current.provider, current.id)
        if fresh is not None:
            session.agent.state.model = fresh
    scope = []
    for scoped in session.scoped_models:
        fresh = access.find(scoped.model.provider, scoped.model.id)
        if fresh is not None:
            scope.append(type(scoped)(fresh, scoped.thinking_level))
    session.set_scoped_models(scope)
    return warnings


def reload_hook(session: Any, manager: SettingsManager) -> Any:
    """A hook for the extension runtime's ``reload_hooks``: :func:`reload_settings_and_models`, each warning
    shown with ``session.notify("warning", ..., persist=False)``."""

    def hook() -> None:
        for warning in reload_settings_and_models(session, manager):
            session.notify("warning", warning, persist=False)  # about this run's files, not the conversation

    return hook
