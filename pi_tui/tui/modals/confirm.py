"""A small yes/no modal (``/new`` while the agent works: abort and start new, or cancel).

Dismissed with ``True`` for the confirming button and ``False`` for cancel (the cancel button, Escape, ``n``);
the cancel button has focus first, so a stray Enter never discards a run. The focused button is the one drawn
highlighted, and the hint line names what Enter does (new-user run: a bright "Yes" next to a focused grey "No"
looked like the default, so Enter silently cancelled a rollback three times).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from pi_tui.tui.modals import arrival_guard


class ConfirmModal(ModalScreen[bool]):
    """``question`` with a confirming button (``confirm`` label) and a cancel button."""

    DEFAULT_CSS = """
    ConfirmModal { align: center middle; }
    ConfirmModal > Vertical {
        width: 64; max-width: 100%; height: auto; border: round $warning; background: $surface; padding: 0 1;
    }
    ConfirmModal #confirm-question { width: 100%; margin: 0 0 1 0; }
    ConfirmModal Horizontal { width: auto; height: auto; }
    ConfirmModal Button { margin: 0 1 0 0; min-width: 10; }
    ConfirmModal Button:focus { background: $accent; color: $text; text-style: bold; }
    ConfirmModal #confirm-hint { color: $text-muted; margin: 1 0 0 0; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("n", "cancel", "Cancel", show=False),
        Binding("y", "confirm", "Confirm", show=False),
        Binding("left,right", "switch", "Switch", show=False),
    ]

    def __init__(self, question: str, confirm: str = "OK", cancel: str = "Cancel") -> None:
        super().__init__()
        self.question = question
        self.confirm_label = confirm
        self.cancel_label = cancel

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, id="confirm-question", markup=False)
            with Horizontal():
                yield Button(self.confirm_label, id="confirm-yes")
                yield Button(self.cancel_label, id="confirm-no")
            yield Static("", id="confirm-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()
        arrival_guard.painted(self)  # keys typed before it was shown are the editor's
        self._show_hint()

    def on_descendant_focus(self, event: Any) -> None:
        self._show_hint()

    def _show_hint(self) -> None:
        focused = self.focused.label if isinstance(self.focused, Button) else self.cancel_label
        self.query_one("#confirm-hint", Static).update(
            f"Enter: {focused} · y: {self.confirm_label} · n/Esc: {self.cancel_label} · ←/→ switch"
        )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_cancel(self) -> None:
        self.dismiss(False)

    def action_confirm(self) -> None:
        self.dismiss(True)

    def action_switch(self) -> None:
        self.focus_next()
