"""``ctx.ui.set_editor_component`` in the TUI (pi 0.73 docs/extensions.md "Custom Editor"): an extension's
editor component in front of the built-in editor, e.g. a vim mode.

pi's custom editors extend its ``Editor`` and call ``super.handleInput`` for keys they leave alone; here the
component (``pi_tui.coding.extensions.ui_components.CustomEditor``) sees every key the editor gets first
(``handle_input(key) -> bool``; a printable key as its character, others as Textual key names) and edits
through ``component.editor`` (:class:`EditorControls`: text, cursor moves, inserts, deletes, submit); a key it
does not take goes on to the built-in editor and the app's keys (Enter sends, Esc aborts). Its ``label()`` is
shown on the editor's bottom border (a mode indicator) and read again after every key.

A factory that raises or returns None, or a ``handle_input``/``label`` that raises, is reported once naming the
extension (``SlotSpec.fail``: ``ui.editor``) and the built-in editor alone is back (the key that failed goes to
it). ``set_editor_component(None)`` and unloading the extension (``/reload``) put it back too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events

from pi_tui.coding.extensions.ui_slots import SlotSpec, dispose
from pi_tui.tui.extension_custom import KeybindingsView
from pi_tui.tui.widgets.extension_slot import ExtensionTheme

if TYPE_CHECKING:
    from pi_tui.tui.widgets.prompt_input import PromptInput

MOVES = {
    "left": "cursor_left", "right": "cursor_right", "up": "cursor_up", "down": "cursor_down",
    "line_start": "cursor_line_start", "line_end": "cursor_line_end",
    "word_left": "cursor_word_left", "word_right": "cursor_word_right",
}
DELETES = {"right": "delete_right", "left": "delete_left", "line": "delete_line"}


class EditorControls:
    """The built-in editor as an editor component drives it (``ui_components.EditorHandle``)."""

    def __init__(self, editor: PromptInput) -> None:
        self._editor = editor

    @property
    def text(self) -> str:
        """The editor's text."""
        return str(self._editor.text)

    def set_text(self, text: str) -> None:
        """Replace the text (cursor at the end)."""
        self._editor.set_text(str(text))

    @property
    def cursor(self) -> tuple[int, int]:
        """``(row, column)`` of the cursor."""
        row, col = self._editor.cursor_location
        return int(row), int(col)

    def set_cursor(self, row: int, col: int) -> None:
        """Put the cursor at ``(row, col)`` (clamped to the text)."""
        self._editor.move_cursor((max(0, int(row)), max(0, int(col))))

    def move(self, direction: str) -> None:
        """Move the cursor (``left``, ``right``, ``up``, ``down``, ``line_start``, ``line_end``, ``word_left``,
        ``word_right``); raises ``ValueError`` for another direction."""
        if direction not in MOVES:
            raise ValueError(f"unknown cursor move {direction!r} (one of {', '.join(MOVES)})")
        getattr(self._editor, "action_" + MOVES[direction])()

    def insert(self, text: str) -> None:
        """Insert ``text`` at the cursor."""
        self._editor.insert(str(text))

    def delete(self, direction: str = "right") -> None:
        """Delete right or left of the cursor, or the cursor's line; raises ``ValueError`` otherwise."""
        if direction not in DELETES:
            raise ValueError(f"unknown delete {direction!r} (one of {', '.join(DELETES)})")
        getattr(self._editor, "action_" + DELETES[direction])()

    def submit(self) -> None:
        """Send the text, as the submit key does."""
        self._editor.post_message(self._editor.ActionRequested("tui.input.submit"))


class EditorTui:
    """The ``tui`` an editor factory gets: ``request_render()`` (shows the label again), ``width``, ``height``."""

    def __init__(self, host: EditorComponentHost) -> None:
        self._host = host

    def request_render(self) -> None:
        """Read the component's label again and redraw the editor."""
        self._host.show_label()

    @property
    def width(self) -> int:
        """The terminal's width in cells."""
        return int(self._host.editor.app.size.width) if self._host.editor.is_attached else 80

    @property
    def height(self) -> int:
        """The terminal's height in rows."""
        return int(self._host.editor.app.size.height) if self._host.editor.is_attached else 24


class EditorComponentHost:
    """Puts an editor component in front of ``editor`` (module docstring). ``theme``: the ``theme`` factories
    get; ``keymap``: the app's keymap."""

    def __init__(self, editor: Callable[[], PromptInput], theme: ExtensionTheme, keymap: Callable[[], Any]) -> None:
        self._editor = editor
        self.theme = theme
        self._keymap = keymap
        self.spec: SlotSpec | None = None
        self.component: Any = None

    @property
    def editor(self) -> PromptInput:
        """The app's editor."""
        return self._editor()

    @property
    def active(self) -> bool:
        """An extension's component is in front of the editor."""
        return self.component is not None

    def set_spec(self, spec: SlotSpec | None) -> None:
        """Use ``spec``'s component (built now) or, with None, the built-in editor alone."""
        self._drop()
        if spec is None:
            return
        try:
            component = spec.factory(EditorTui(self), self.theme, KeybindingsView(self._keymap()))
            if component is None:
                raise TypeError("the factory returned None, not an editor component")
            try:
                component.editor = EditorControls(self.editor)
            except AttributeError:
                pass  # a component with __slots__ or read-only attributes edits nothing itself
        except Exception as exc:
            spec.fail(exc)
            return
        self.spec, self.component = spec, component
        self.editor.key_filter = self._filter
        self.show_label()

    def _drop(self) -> None:
        if self.component is not None:
            dispose(self.component)
        self.spec = self.component = None
        editor = self.editor
        if editor.key_filter == self._filter:
            editor.key_filter = None
        editor.border_subtitle = None

    def _failed(self, exc: BaseException) -> None:
        spec = self.spec
        self._drop()
        if spec is not None:
            spec.fail(exc)

    def show_label(self) -> None:
        """Show the component's ``label()`` on the editor's bottom border."""
        if self.component is None:
            return
        method = getattr(self.component, "label", None)
        try:
            label = method() if callable(method) else None
        except Exception as exc:
            self._failed(exc)
            return
        self.editor.border_subtitle = Text.from_ansi(str(label)) if label else None

    def _filter(self, key: str, event: events.Key) -> bool:
        component = self.component
        handler = getattr(component, "handle_input", None)
        if component is None or not callable(handler):
            return False
        name = event.character if event.is_printable and event.character else key
        try:
            taken = bool(handler(name))
        except Exception as exc:
            self._failed(exc)
            return False  # the built-in editor handles the key
        self.show_label()
        return taken
