"""``/settings``, ``/scoped-models`` and what ``/reload`` does to the app (issue 12; pi 0.73.1
``showSettingsSelector``, ``showModelsSelector``, ``handleReloadCommand``).

:class:`SettingsCommands` opens the two screens and applies their changes: a value is written to the global
settings.json at once (``settings_schema.save_setting``, under the settings file's lock), then the running app
and session act on it: the theme and thinking visibility repaint, the thinking level is set on the session,
queue modes, compaction thresholds, retry and image blocking go to the session (``live_settings.
apply_settings``, which reads the effective values, so a project override stays in force). ``/scoped-models``
changes the session's cycling scope at once (pi: session-only) and saves ``enabledModels`` on Ctrl+S.

:meth:`SettingsCommands.after_reload` is the app's part of ``/reload``: keybindings.json is read again (the keys
change in place, so every part holding the keymap sees them), the theme is re-read from its file (or the one
settings.json names now), and thinking visibility follows ``hideThinkingBlock``. The session's part (settings,
models.json, context files) runs in the coding layer's reload hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.config.settings_schema import SettingSpec, save_setting
from pi_tui.tui.controllers.host import need_session
from pi_tui.tui.keymap import load_keymap
from pi_tui.tui.log_setup import log
from pi_tui.tui.theme_loader import ThemeError, available_themes

if TYPE_CHECKING:
    from pi_tui.tui.controllers.host import AppHost


class SettingsCommands:
    """The two commands' handlers and the app's reload step.

    Given: the ``host``; ``settings_manager()`` (the app's settings, None in tests that pass none: the
    session's own is used then); ``set_hide_thinking(hidden)`` (Ctrl+T's effect, without its toggle)."""

    def __init__(self, host: AppHost, *, settings_manager: Callable[[], SettingsManager | None],
                 set_hide_thinking: Callable[[bool], None]) -> None:
        self.host = host
        self._settings_manager = settings_manager
        self._set_hide_thinking = set_hide_thinking
        self._saved_theme: str | None = None

    def manager(self) -> SettingsManager | None:
        """The settings the screens edit: the app's, else the session's (settings_manager or its resources')."""
        manager = self._settings_manager()
        if manager is not None:
            return manager
        session: Any = self.host.session
        found = getattr(session, "settings_manager", None) or getattr(getattr(session, "resources", None),
                                                                      "settings", None)
        return found if isinstance(found, SettingsManager) else None

    # ------------------------------------------------------------------ /settings
    async def settings(self, arg: str, context: Any = None) -> None:
        """``/settings``: the settings screen (``tui/modals/settings_screen.py``)."""
        from pi_tui.tui.modals.settings_screen import SettingsEditor, SettingsScreen

        manager = self.manager()
        if manager is None:
            self.host.add_notice("error", "No settings: the session is still starting; try again in a moment.")
            return
        manager.reload()  # what other windows and the session saved meanwhile (a model picked, ...)
        manager.drain_errors()
        self._saved_theme = self.host.pi_theme.name
        editor = SettingsEditor(manager, self.choices, lambda spec, value: self.save(manager, spec, value),
                                self.preview_theme)
        self.host.push_screen(SettingsScreen(editor, self.host.keymap))

    def choices(self, spec: SettingSpec) -> tuple[str, ...]:
        """The theme names found, or ``provider/id`` of every model with auth, for a list row."""
        if spec.kind == "theme":
            return tuple(available_themes(Path(self.host.cwd)))
        if spec.kind == "model":
            session = self.host.session
            models = session.available_models() if session is not None else []
            return tuple(f"{m.provider}/{m.id}" for m in models)
        return spec.choices

    def preview_theme(self, name: str | None) -> None:
        """Show theme ``name`` without saving it; ``None``: back to the theme in force before the preview."""
        target = name if name is not None else self._saved_theme
        if not target or target == self.host.pi_theme.name:
            return
        try:
            self.host.set_pi_theme(target, save=False)
        except ThemeError as exc:
            log.info("theme preview failed: %s", exc)

    def save(self, manager: SettingsManager, spec: SettingSpec, value: Any) -> list[str]:
        """Write ``value`` of ``spec`` to settings.json, then apply it to the app and the session; returns the
        error texts (a failed save or a theme that cannot be loaded)."""
        errors = save_setting(spec, manager, value)
        host = self.host
        session = host.session
        try:
            if spec.path == "theme":
                host.set_pi_theme(str(value), save=False)
                self._saved_theme = str(value)
            elif spec.path == "hideThinkingBlock":
                self._set_hide_thinking(bool(value))
            elif spec.path == "defaultThinkingLevel" and session is not None:
                session.set_thinking_level(str(value))
            if session is not None:
                from pi_tui.coding.agent_session.live_settings import apply_settings  # after the first paint

                apply_settings(session, manager)
        except ThemeError as exc:
            errors.append(str(exc))
        host.refresh_footer()
        host.update_prompt_mode()
        return errors

    # ------------------------------------------------------------------ /scoped-models
    async def scoped_models(self, arg: str, context: Any = None) -> None:
        """``/scoped-models``: pick the models Ctrl+P cycles through (``tui/modals/scoped_models.py``)."""
        from pi_tui.tui.modals.scoped_models import ScopedModelsScreen

        session = need_session(self.host)
        if session is None:
            return
        models = list(session.available_models())
        if not models:
            self.host.add_notice("status", "No models available")
            return
        scope = getattr(session, "scoped_models", [])
        enabled = [f"{s.model.provider}/{s.model.id}" for s in scope] or None
        self.host.push_screen(ScopedModelsScreen(models, enabled, self.host.keymap, on_change=self.set_scope,
                                                 on_save=self.save_scope))

    def set_scope(self, enabled: list[str] | None) -> None:
        """The screen's selection for this session (pi: session-only until saved); all or none: no scope."""
        from pi_tui.coding.config.model_resolver import resolve_model_scope

        session: Any = self.host.session
        if session is None or not hasattr(session, "set_scoped_models"):
            return
        models = list(session.available_models())
        if enabled and len(enabled) < len(models):
            scope, _ = resolve_model_scope(enabled, models)
            session.set_scoped_models(scope)
        else:
            session.set_scoped_models([])

    def save_scope(self, enabled: list[str] | None) -> None:
        """Ctrl+S: ``enabledModels`` in the global settings.json (removed when every model is enabled)."""
        manager = self.manager()
        if manager is None:
            return
        session = self.host.session
        total = len(session.available_models()) if session is not None else 0
        patterns = None if enabled is None or len(enabled) == total else list(enabled)
        manager.set_enabled_models(patterns)
        errors = manager.drain_errors()
        for error in errors:
            self.host.add_notice("warning", str(error))
        if not errors:
            self.host.add_notice("status", "Model selection saved to settings")

    # ------------------------------------------------------------------ /reload
    def after_reload(self) -> None:
        """The app's part of ``/reload`` (module docstring); each failure is one warning, the rest goes on."""
        host = self.host
        fresh = load_keymap()
        for action in [a for a in host.keymap.keys if not a.startswith("ext.")]:
            del host.keymap.keys[action]
        host.keymap.keys.update(fresh.keys)  # extension shortcuts are bound again by their own listener
        host.ctx.expand_key = host.keymap.first("app.tools.expand")
        host.ctx.interrupt_key = host.keymap.first("app.interrupt")
        host.refresh_key_hints()  # new-user run #27: the header kept naming the old keys
        for warning in fresh.warnings:
            host.add_notice("warning", warning)
        manager = self.manager()
        if manager is not None and manager is not getattr(host.session, "settings_manager", None):
            manager.reload()
        for error in manager.drain_errors() if manager is not None else []:
            host.add_notice("warning", str(error))
        name = manager.theme if manager is not None else host.pi_theme.name
        try:
            host.set_pi_theme(name, save=False)  # read from its file again
        except ThemeError as exc:
            host.add_notice("warning", str(exc))
        if manager is not None and manager.hide_thinking_block != host.ctx.hide_thinking:
            self._set_hide_thinking(manager.hide_thinking_block)
        host.refresh_footer()
        host.update_prompt_mode()
        host.add_notice("status", "Reloaded keybindings, theme, settings and models.json")

    def attach(self, session: Any) -> None:
        """Run :meth:`after_reload` after each ``/reload`` of ``session`` (its extension runtime's listeners)."""
        runtime = getattr(getattr(session, "extensions", None), "runtime", None)
        listeners = getattr(runtime, "reload_listeners", None)
        if isinstance(listeners, list) and self.after_reload not in listeners:
            listeners.append(self.after_reload)
