"""AgentSession model and thinking-level management (pi-reference §3.7).

``set_model`` requires auth, records a ``model_change`` entry, re-clamps the thinking level and emits
``model_changed`` (pi-tui) plus a notification. ``set_thinking_level`` clamps, records
``thinking_level_change`` and emits ``thinking_level_changed`` when the level changed.

As in pi's AgentSession, a model the user picks becomes ``defaultProvider``/``defaultModel`` and a thinking level
the user sets becomes ``defaultThinkingLevel`` in the global settings.json, when the session has a
``settings_manager`` (the CLI's sessions do; tests' and SDK sessions without one persist nothing). A restored
session model is never written, nor is the built-in offline model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict

from pi_tui.agent import Agent
from pi_tui.ai.models import clamp_thinking_level, get_supported_thinking_levels, models_are_equal
from pi_tui.ai.types import Model
from pi_tui.coding.agent_session.events import ModelChangedEvent, ThinkingLevelChangedEvent
from pi_tui.coding.agent_session.hooks import SessionHooks, fire_and_forget
from pi_tui.coding.agent_session.settings import ModelAccess
from pi_tui.coding.offline_model import OFFLINE_PROVIDER
from pi_tui.coding.session.session_manager import SessionManager

if TYPE_CHECKING:
    from pi_tui.coding.config.model_resolver import ScopedModel
    from pi_tui.coding.config.settings import SettingsManager


class ModelCycleResult(TypedDict):
    """What ``cycle_model`` returns (pi's ``ModelCycleResult``, snake_case keys): the model switched to, the
    thinking level now in force, and whether the cycle ran over a scoped model list."""

    model: Model
    thinking_level: str
    is_scoped: bool


class ModelSwitcher:
    """The session's model and thinking level.

    ``agent``: holds the active model and level; ``session_manager()``: the current SessionManager (records
    ``model_change``/``thinking_level_change``); ``models``: auth and lookup; ``default_thinking_level()``:
    the level used when the previous model had no reasoning (settings, read per switch); ``settings_manager()``:
    where picks are saved (None: nowhere; read per save); ``emit``/``notify``: the session's fan-out and UI-only
    notifications; ``hooks``: the ``model_select``/``thinking_level_select`` seams.
    """

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: Callable[[], SessionManager],
        models: ModelAccess,
        default_thinking_level: Callable[[], str],
        settings_manager: Callable[[], SettingsManager | None],
        emit: Callable[[Any], None],
        notify: Callable[[str, str], Any],
        hooks: SessionHooks,
    ) -> None:
        self._agent = agent
        self._manager = session_manager
        self._models = models
        self._default_level = default_thinking_level
        self._settings_manager = settings_manager
        self._emit = emit
        self._notify = notify
        self._hooks = hooks
        self.scoped_models: list[ScopedModel] = []
        """The models Ctrl+P cycles through (pi's ``scopedModels``: ``--models`` or ``enabledModels``); empty:
        every available model."""

    @property
    def model(self) -> Model | None:
        """The active model (None when none is selected)."""
        model = self._agent.state.model
        return None if model is None or model.provider == "unknown" else model

    @property
    def thinking_level(self) -> str:
        """The active thinking level (off|minimal|low|medium|high|xhigh)."""
        return str(self._agent.state.thinking_level)

    def available_models(self) -> list[Model]:
        """Models with configured auth (the offline demo model included when it is active)."""
        models = list(self._models.available_models())
        current = self.model
        if current is not None and not any(models_are_equal(current, m) for m in models):
            models.insert(0, current)
        return models

    def record_initial_settings(self) -> None:
        """A new session starts with its ``model_change`` and ``thinking_level_change`` entries."""
        model = self.model
        if model is not None:
            self._manager().append_model_change(model.provider, model.id)
        self._manager().append_thinking_level_change(self.thinking_level)

    def set_model(self, model: Model, *, reason: str = "set", announce: bool = True) -> None:
        """Switch to ``model``. Raises ``ValueError("No API key for <provider>/<id>")`` without auth.
        ``announce=False``: no ``Model: …`` notification (the TUI announces the switch itself, once)."""
        if not self._models.has_auth(model):
            raise ValueError(f"No API key for {model.provider}/{model.id}")
        previous = self.model
        self._agent.state.model = model
        self._manager().append_model_change(model.provider, model.id)
        if model.provider != OFFLINE_PROVIDER:
            self.save_preference("set_default_model_and_provider", model.provider, model.id)
        self._apply_thinking_level(self.thinking_level, previous_model=previous, switching=True)
        self._selected(model, previous, reason)
        if announce and not models_are_equal(previous, model):
            self._notify("info", f"Model: {model.provider}/{model.id}")

    def cycle_model(self, direction: str = "forward", *, announce: bool = True) -> ModelCycleResult | None:
        """Next (or previous) model, wrapping; None when there is only one (``announce`` as in ``set_model``).
        With a scope (``scoped_models``) only its models that have auth, in the scope's order, and a model's
        own ``:level`` is applied (pi's ``_cycleScopedModel``); else every available model."""
        scoped = [s for s in self.scoped_models if self._models.has_auth(s.model)]
        if self.scoped_models:
            if len(scoped) <= 1:
                return None
            current_model = self.model
            at = next((i for i, s in enumerate(scoped) if models_are_equal(s.model, current_model)), 0)
            chosen = scoped[(at + (-1 if direction == "backward" else 1)) % len(scoped)]
            self.set_model(chosen.model, reason="cycle", announce=announce)
            if chosen.thinking_level:
                self._apply_thinking_level(chosen.thinking_level)
            return ModelCycleResult(model=chosen.model, thinking_level=self.thinking_level, is_scoped=True)
        models = self.available_models()
        if len(models) <= 1:
            return None
        current = self.model
        index = next((i for i, m in enumerate(models) if models_are_equal(m, current)), 0)
        step = -1 if direction == "backward" else 1
        target = models[(index + step) % len(models)]
        self.set_model(target, reason="cycle", announce=announce)
        return ModelCycleResult(model=target, thinking_level=self.thinking_level, is_scoped=False)

    def _apply_thinking_level(
        self, level: str, previous_model: Model | None = None, switching: bool = False
    ) -> None:
        model = self.model
        if switching and (previous_model is None or not previous_model.reasoning):
            level = self._default_level()  # the old level meant nothing for that model
        clamped = clamp_thinking_level(model, level) if model is not None else "off"
        previous = self.thinking_level
        if clamped != previous:
            self._agent.state.thinking_level = clamped  # type: ignore[assignment]
            self._manager().append_thinking_level_change(clamped)
            if (model is not None and model.reasoning) or clamped != "off":  # pi: a forced "off" is not a choice
                self.save_preference("set_default_thinking_level", clamped)
            self._level_changed(clamped, previous)

    def save_preference(self, setter: str, *args: Any) -> None:
        """Call ``settings_manager.<setter>(*args)`` (saved at once); a failed save becomes a warning notice."""
        manager = self._settings_manager()
        if manager is None:
            return
        getattr(manager, setter)(*args)
        for error in manager.drain_errors():
            self._notify("warning", error)

    def set_thinking_level(self, level: str) -> None:
        """Set the thinking level (clamped to the model); records and emits only when it changed."""
        self._apply_thinking_level(level)

    def cycle_thinking_level(self) -> str | None:
        """Next supported level (wrapping, ``off`` included); None when the model has no reasoning."""
        model = self.model
        if model is None or not model.reasoning:
            return None
        levels = get_supported_thinking_levels(model)
        current = self.thinking_level
        index = levels.index(current) if current in levels else -1
        self._apply_thinking_level(levels[(index + 1) % len(levels)])
        return self.thinking_level

    def _selected(self, model: Model, previous: Model | None, source: str) -> None:
        """The model changed: ``model_changed`` to the listeners, then the ``model_select`` seam."""
        self._emit(ModelChangedEvent(provider=model.provider, model_id=model.id, reason=source))
        fire_and_forget(self._hooks.model_select, model, previous, source)

    def _level_changed(self, level: str, previous: str) -> None:
        """The thinking level changed: ``thinking_level_changed``, then the ``thinking_level_select`` seam."""
        self._emit(ThinkingLevelChangedEvent(level=level))
        fire_and_forget(self._hooks.thinking_level_select, level, previous)

    def restore_from_context(self, context: Any) -> None:
        """Take the model and thinking level recorded in a session being loaded (a warning when the model
        cannot be used here)."""
        recorded = getattr(context, "model", None)
        if isinstance(recorded, dict) and recorded.get("provider"):
            found = self._models.find(str(recorded["provider"]), str(recorded.get("modelId", "")))
            if found is not None and self._models.has_auth(found):
                previous = self.model
                self._agent.state.model = found
                self._selected(found, previous, "restore")
            else:
                self._notify("warning", f"Could not restore model {recorded['provider']}/{recorded.get('modelId')}")
        level = getattr(context, "thinking_level", None)
        if isinstance(level, str):
            model = self.model
            clamped = clamp_thinking_level(model, level) if model is not None else "off"
            previous_level = self.thinking_level
            if clamped != previous_level:
                self._agent.state.thinking_level = clamped  # type: ignore[assignment]
                self._level_changed(clamped, previous_level)
