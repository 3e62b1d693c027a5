"""``ExtensionsController``: the session's extensions in the TUI (issue 11).

When a session with extensions is attached: the TUI's :class:`~pi_tui.tui.extension_ui.TextualExtensionUI`
becomes their UI (modal dialogs, toasts, footer status segments, widgets above and below the editor, the
terminal title, the editor's text, a custom header/footer and working row: ``custom_parts.py``),
their shortcuts are added to the keymap as ``ext.shortcut:<key>`` actions with their description and
extension name (/hotkeys and the F1 palette list them from there; a key the app already uses is refused with
one warning, as pi refuses built-in keys), their tool renderers reach the transcript
through the render context, and they are loaded and started (``session_start``).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from pi_tui.tui.custom_parts import CustomParts
from pi_tui.tui.extension_components import ExtensionComponents
from pi_tui.tui.extension_ui import TextualExtensionUI
from pi_tui.tui.widgets.extension_widgets import ExtensionWidgetArea

if TYPE_CHECKING:
    from pi_tui.tui.controllers.host import AppHost

SHORTCUT_PREFIX = "ext.shortcut:"
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super")


def key_variants(key: str) -> list[str]:
    """``key`` in every modifier order (pi writes ``ctrl+shift+p``, Textual ``shift+ctrl+p``)."""
    parts = [p for p in key.strip().lower().split("+") if p]
    if not parts:
        return []
    mods, base = [p for p in parts[:-1] if p in MODIFIERS], parts[-1]
    return ["+".join([*order, base]) for order in itertools.permutations(mods)] or [base]


class ExtensionsController:
    """Binds the session's extension runtime to the app (module docstring)."""

    def __init__(self, host: AppHost) -> None:
        self.host = host
        self.statuses: dict[str, str] = {}
        self.parts = CustomParts(host, lambda: self.statuses)
        """Custom header/footer slots (the app composes ``parts.header_slot``/``footer_slot``) and the rest."""
        self.components = ExtensionComponents(host)
        """``ctx.ui.custom``, the editor component, autocomplete providers and themes."""
        self.ui = TextualExtensionUI(
            host,  # type: ignore[arg-type]
            on_status=self._statuses_changed,
            get_editor_text=lambda: host.prompt_input.text,
            set_editor_text=lambda text: host.prompt_input.set_text(text),
            on_widget=self._widget_changed,
            parts=self.parts,
            components=self.components,
        )
        self._bound: list[str] = []
        theme = host.pi_theme
        self.widgets_above = ExtensionWidgetArea(theme, "aboveEditor", id="ext-widgets-above")
        self.widgets_below = ExtensionWidgetArea(theme, "belowEditor", id="ext-widgets-below")
        """The app composes these around the editor (pi's ``setWidget`` placements)."""

    @staticmethod
    def hooks_of(session: Any) -> Any:
        """The session's ``SessionExtensions`` or None."""
        return getattr(session, "extensions", None)

    def _statuses_changed(self, statuses: dict[str, str]) -> None:
        self.statuses = statuses
        self.host.refresh_footer()

    def _widget_changed(self, key: str, lines: list[str] | None, placement: str) -> None:
        """A widget moves between placements as in pi: the key is taken out of both, then set in one."""
        other, target = ((self.widgets_above, self.widgets_below) if placement == "belowEditor"
                         else (self.widgets_below, self.widgets_above))
        if key in other.blocks:
            other.set_block(key, None)
        target.set_block(key, lines)

    async def start(self, session: Any) -> None:
        """Bind the UI, load and start the extensions of ``session``, then bind their shortcuts."""
        hooks = self.hooks_of(session)
        if hooks is None:
            return
        from pi_tui.coding.extensions.modes import start_mode_extensions

        hooks.runtime.set_ui(self.ui)
        hooks.runtime.on_slow_load = self._slow_load  # "Loading extension NAME… (N s)" above the editor
        hooks.runtime.reload_listeners.append(lambda: self.bind_shortcuts(hooks.runtime))
        self.host.ctx.tool_renderers = hooks.runtime.renderers
        await start_mode_extensions(session)
        self.bind_shortcuts(hooks.runtime)
        self.host.update_offline_notice()  # a --model of an extension's provider is resolved by now
        self.host.refresh_footer()
        if not hooks.runtime.renderers.is_empty():  # none registered: every row is drawn as it was (issue 15)
            self.host.ctx.generation += 1  # tool rows drawn before the renderers existed are drawn again
            self.host.transcript.invalidate_all()

    def _slow_load(self, text: str | None) -> None:
        """An extension takes long to load: say which in the status line (tester2 #11); None: it is over."""
        if text:
            self.host.show_status(text)
        else:
            self.host.clear_status()

    def bind_shortcuts(self, runtime: Any) -> None:
        """Put the runtime's shortcuts into the keymap (replacing the ones bound before)."""
        from pathlib import Path

        from pi_tui.coding.extensions.loader import extension_name

        keymap = self.host.keymap
        for action in self._bound:
            keymap.remove_action(action)
        self._bound = []
        for spec in runtime.shortcuts.all():
            variants = key_variants(spec.key)
            taken = next((keymap.action_for(v) for v in variants if keymap.action_for(v)), None)
            if taken is not None:
                self.host.add_notice(
                    "warning", f"Extension shortcut {spec.key} ignored: the key is already {taken}")
                continue
            action = SHORTCUT_PREFIX + spec.key.strip().lower()
            owner = extension_name(Path(spec.owner)) if spec.owner else "extension"
            keymap.add_action(action, variants, f"{spec.description or 'Extension shortcut'} ({owner})")
            self._bound.append(action)

    def run_shortcut(self, action: str) -> bool:
        """Run the extension shortcut of ``action``; False when ``action`` is not one."""
        if not action.startswith(SHORTCUT_PREFIX):
            return False
        hooks = self.hooks_of(self.host.session)
        spec = hooks.runtime.shortcuts.get(action[len(SHORTCUT_PREFIX):]) if hooks is not None else None
        if spec is not None:
            self.host.run_worker(spec.handler(None), name="extension-shortcut", group="extensions")
        return True
