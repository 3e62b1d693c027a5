"""Settings an AgentSession runs with, and the model/auth access it needs (pi-reference §3.2, §3.16).

:class:`SessionSettings` groups the ``compaction.*``, ``retry.*``, queue-mode and bash settings with pi's
defaults. :class:`ModelAccess` is the small interface the session uses for models and keys; the factory
(factory.py) builds one from the model registry, auth storage and environment.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from pi_tui.agent.tool_loop_guard import DEFAULT_MAX_REPEATED_TOOL_FAILURES
from pi_tui.ai.types import Model
from pi_tui.coding.compaction.prepare import CompactionSettings
from pi_tui.coding.retry import RetrySettings


@dataclass
class SessionSettings:
    """Behaviour settings with pi 0.73 defaults.

    ``default_thinking_level`` is used when neither the caller nor the session chose one ("medium").
    ``block_images`` replaces image blocks sent to the LLM. ``shell_command_prefix`` prefixes user bash.
    ``turn_boundary_compaction`` (beyond pi, §5 item 4) also checks the threshold after each tool turn.
    ``max_repeated_tool_failures`` (beyond pi, issue 10 class 5; 0 = no limit) ends a run whose model repeats
    the same failing tool call that many times.
    """

    compaction: CompactionSettings = field(default_factory=CompactionSettings)
    retry: RetrySettings = field(default_factory=RetrySettings)
    steering_mode: str = "one-at-a-time"
    follow_up_mode: str = "one-at-a-time"
    default_thinking_level: str = "medium"
    block_images: bool = False
    shell_command_prefix: str | None = None
    turn_boundary_compaction: bool = True
    max_repeated_tool_failures: int = DEFAULT_MAX_REPEATED_TOOL_FAILURES
    provider_timeout_ms: int | None = None
    """``retry.provider.timeoutMs``: the HTTP timeout of every provider request (None = the default, 10 min;
    pi-tui's is a per-read idle timeout, so a long stream that keeps sending never hits it)."""
    provider_max_retries: int | None = None
    """``retry.provider.maxRetries``: the provider-level retries of 429/5xx (None = the default, 2)."""


class ModelAccess(Protocol):
    """Models and credentials as the session sees them."""

    def get_api_key(self, model: Model) -> str | None:
        """The key to use for ``model`` now (None when none is configured)."""
        ...

    def has_auth(self, model: Model) -> bool:
        """True when ``model`` can be used (a key, or a provider that needs none)."""
        ...

    def available_models(self) -> list[Model]:
        """Models with configured auth, in the registry's order."""
        ...

    def find(self, provider: str, model_id: str) -> Model | None:
        """A known model by provider and id."""
        ...


def login_help(agent_dir: Path | None = None) -> str:
    """How to configure a model, naming the real ``auth.json`` and ``models.json`` (``$PI_TUI_DIR`` honoured;
    pi's wording with pi-tui's paths)."""
    from pi_tui.coding.config.paths import display_agent_path

    return ("Set an API key in the environment (for example ANTHROPIC_API_KEY or OPENAI_API_KEY), store one in "
            f"{display_agent_path('auth.json', agent_dir)}, or configure a provider in "
            f"{display_agent_path('models.json', agent_dir)}.")


def no_model_message(problems: list[str] | None = None, offline_offered: bool = False,
                     agent_dir: Path | None = None) -> str:
    """pi's "No model selected" text. ``problems``: the configuration errors that left no model (each names its
    file), repeated so the user sees why; ``offline_offered``: /model lists the built-in offline demo model,
    which is said as the way to go on (issue 9: with a broken models.json there was no way forward)."""
    parts = ["No model selected."]
    if problems:
        parts.append("\n".join(problems))
    parts.append(login_help(agent_dir))
    if offline_offered:
        parts.append(("Then fix the file and run /reload, or" if problems else "Then use /model to select a "
                      "model, or") + " pick the built-in offline demo model (offline-demo) in /model to go on.")
    else:
        parts.append("Then use /model to select a model.")
    return "\n\n".join(parts)
