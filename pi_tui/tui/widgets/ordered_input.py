"""A one-line ``Input`` (and a ``TextArea``) that apply every key in the order it was typed.

Textual's ``Input`` inserts a printable key in its own key handler, but runs Backspace, Delete, the arrows,
Home/End, Enter and its other bindings only once the unhandled key has bubbled up to the app, behind every key
already queued for the input. While a picker re-filters its list, keys queue up, and Backspace then deleted the
keys typed after it (new-user run #24: ``abc`` Backspace×3 ``xyz`` read ``abx`` in the ``/resume`` filter). This
input runs its own bindings at once, in key order, as the main editor does (``PromptInput._edit_key``).

A screen that handles some keys itself while the input has focus (the pickers' ↑/↓, the ``/resume`` keymap
actions) passes ``key_handler``: it is asked first, in key order too, and a key it takes goes no further.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events
from textual.widget import Widget
from textual.widgets import Input, TextArea
from textual.widgets.text_area import Location

KeyHandler = Callable[[events.Key], bool]


async def run_own_binding(widget: Widget, event: events.Key) -> None:
    """Run ``widget``'s own (non-priority) binding for ``event`` now and stop the key, instead of after it has
    bubbled up to the app behind the keys queued after it. Nothing happens for a key it does not bind."""
    if event._stop_propagation:
        return
    for binding in widget._bindings.key_to_bindings.get(event.key, ()):
        if not binding.priority and await widget.app.run_action(binding.action, widget):
            event.stop()
            event.prevent_default()
            return


class OrderedInput(Input):
    """``Input`` whose keys all take effect in typing order.

    ``key_handler(event) -> bool``: called first for every key; True means the key was handled (it is
    stopped); False lets the input handle it (a printable key inserts, a bound key runs its action now).
    Other arguments are ``Input``'s.
    """

    def __init__(self, *args: Any, key_handler: KeyHandler | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key_handler = key_handler

    async def _on_key(self, event: events.Key) -> None:
        if self.key_handler is not None and self.key_handler(event):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)
        await run_own_binding(self, event)


class OrderedTextArea(TextArea):
    """``TextArea`` whose keys all take effect in typing order (Backspace, Delete, arrows in a burst act where
    they were typed); Home/End/Ctrl+U/Ctrl+K act on the logical line, as in the main editor (new-user run #23).
    Arguments are ``TextArea``'s."""

    def get_cursor_line_start_location(self, smart_home: bool = False) -> Location:
        """Column 0 of the cursor's logical line (not the wrapped screen row)."""
        return self.cursor_location[0], 0

    def get_cursor_line_end_location(self) -> Location:
        """The end of the cursor's logical line (not the wrapped screen row)."""
        row = self.cursor_location[0]
        return row, len(self.document[row])

    async def _on_key(self, event: events.Key) -> None:
        await super()._on_key(event)
        await run_own_binding(self, event)
