"""``ctx.ui.custom(factory, overlay=...)`` in the TUI (pi 0.73 docs/extensions.md "Custom Components"): an
extension's component shown as a modal screen until it calls ``done(value)``; the call returns ``value``.

Without ``overlay`` the component takes the bottom of the screen, where the editor is (pi shows it in place of
the editor); with ``overlay=True`` it floats in the middle over the transcript. Every key goes to the
component's ``handle_input(key)`` (or pi's ``on_key``), as a Textual key name (a printable key as its
character); a component with neither closes on Escape with None, so no screen traps the user. ``tui.
request_render()`` draws it again; ``keybindings.matches(key, action)`` reads the app's keymap.

A factory, render or key handler that raises (or a render that returns no lines) is reported once, naming the
extension (``SlotSpec.fail``: ``ui.custom``); the screen closes with None and the editor is back.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import ModalScreen
from textual.widget import Widget

from pi_tui.coding.extensions.ui_slots import SlotSpec, dispose, render_lines
from pi_tui.tui.keymap import Keymap
from pi_tui.tui.modals import arrival_guard
from pi_tui.tui.widgets.extension_slot import ExtensionTheme


class KeybindingsView:
    """The ``keybindings`` a component gets (pi's ``KeybindingsManager``): ``matches(key, action)`` and
    ``keys(action)`` over the app's keymap (remapped keys included)."""

    def __init__(self, keymap: Keymap) -> None:
        self._keymap = keymap

    def matches(self, key: str, action: str) -> bool:
        """True when ``key`` (a Textual key name) is bound to ``action`` (e.g. ``"tui.input.submit"``)."""
        return key in self.keys(action)

    def keys(self, action: str) -> list[str]:
        """The keys bound to ``action`` (``[]`` for an unknown action)."""
        keys = self._keymap.keys.get(action) or self._keymap.screen_keys.get(action) or []
        return list(keys)


class ScreenHandle:
    """The ``tui`` of a custom component: ``request_render()``, ``width``, ``height``."""

    def __init__(self, view: ComponentView) -> None:
        self._view = view

    def request_render(self) -> None:
        """Draw the component again."""
        self._view.refresh(layout=True)

    @property
    def width(self) -> int:
        """The terminal's width in cells."""
        return int(self._view.app.size.width) if self._view.is_attached else 80

    @property
    def height(self) -> int:
        """The terminal's height in rows."""
        return int(self._view.app.size.height) if self._view.is_attached else 24


class ComponentView(Widget, can_focus=True):
    """Draws a component's ``render(width)`` lines (ANSI colours kept, each cut to the width)."""

    DEFAULT_CSS = "ComponentView { height: auto; width: 100%; }"

    def __init__(self, screen: CustomComponentScreen, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.owner = screen

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        """One row per line."""
        return max(1, len(self.owner.lines(width)))

    def render(self) -> Text:
        width = max(1, self.content_size.width)
        out = []
        for line in self.owner.lines(width):
            text = Text.from_ansi(line.replace("\t", "    "))
            text.no_wrap = True
            text.truncate(width, overflow="ellipsis")
            out.append(text)
        return Text("\n").join(out)


class CustomComponentScreen(ModalScreen[Any]):
    """The modal of one ``ctx.ui.custom`` call (module docstring); dismissed with the ``done`` value."""

    DEFAULT_CSS = """
    CustomComponentScreen { align: center bottom; }
    CustomComponentScreen.-overlay { align: center middle; }
    CustomComponentScreen > ComponentView {
        width: 100%; max-height: 80%; border: round $accent; background: $surface; padding: 0 1;
    }
    CustomComponentScreen.-overlay > ComponentView { width: 80%; }
    """

    def __init__(self, spec: SlotSpec, theme: ExtensionTheme, keymap: Keymap, *, overlay: bool = False) -> None:
        super().__init__(classes="-overlay" if overlay else "")
        self.spec = spec
        self.theme_view = theme
        self.keybindings = KeybindingsView(keymap)
        self.view = ComponentView(self)
        self.component: Any = None
        self._closed = False

    def compose(self) -> ComposeResult:
        yield self.view

    def on_mount(self) -> None:
        try:
            self.component = self.spec.factory(ScreenHandle(self.view), self.theme_view, self.keybindings,
                                               self._done)
            if self.component is None:
                raise TypeError("the factory returned None, not a component")
        except Exception as exc:
            self._fail(exc)
            return
        self.view.focus()
        arrival_guard.painted(self)  # keys typed before it was shown are the editor's (TextualExtensionUI._show)

    def _done(self, value: Any = None) -> None:
        """The component's ``done(value)``: close with ``value`` (once; later calls are ignored)."""
        if self._closed:
            return
        self._closed = True
        dispose(self.component)
        if self.is_attached and self in self.app.screen_stack:
            self.dismiss(value)

    def _fail(self, exc: BaseException) -> None:
        self.spec.fail(exc)  # one error naming the extension
        self._done(None)

    def lines(self, width: int) -> list[str]:
        """The component's lines at ``width`` ([] before it exists or after a failure)."""
        if self.component is None or self._closed:
            return []
        try:
            return render_lines(self.component, width)
        except Exception as exc:
            self.call_later(self._fail, exc)  # not while Textual lays out or paints
            return []

    async def on_key(self, event: events.Key) -> None:
        """Every key goes to the component (module docstring)."""
        event.stop()
        event.prevent_default()
        component = self.component
        if component is None or self._closed:
            return
        handler = getattr(component, "handle_input", None) or getattr(component, "on_key", None)
        key = event.character if event.is_printable and event.character else event.key
        if not callable(handler):
            if event.key == "escape":
                self._done(None)
            return
        try:
            handler(key)
        except Exception as exc:
            self._fail(exc)
            return
        if not self._closed:
            self.view.refresh(layout=True)

    def on_paste(self, event: events.Paste) -> None:
        """A paste goes to the component as text, like typing it."""
        event.stop()
        handler = getattr(self.component, "handle_input", None) or getattr(self.component, "on_key", None)
        if callable(handler) and not self._closed:
            try:
                handler(event.text)
            except Exception as exc:
                self._fail(exc)
                return
            self.view.refresh(layout=True)
