"""What to do with a session another pi-tui is writing (issue 9 item 5): read-only, fork, or take over.

Shown before the session is opened. Dismisses with ``"read-only"``, ``"fork"`` or ``"take-over"`` (the
``if_locked`` values of ``create_agent_session``); Escape is the safe choice, read-only.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

CHOICES = (
    ("read-only", "Open read-only", "see the conversation; nothing you do here is saved"),
    ("fork", "Fork to a new session", "a copy you can continue; the other window keeps the original"),
    ("take-over", "Take over", "continue here; the other window stops saving"),
)


class LockChoice(ModalScreen[str]):
    """Modal with the three choices; ``message`` says which session and which process holds it."""

    DEFAULT_CSS = """
    LockChoice { align: center middle; }
    LockChoice > Vertical {
        width: 80%; max-width: 96; height: auto; border: round $warning; background: $surface; padding: 0 1;
    }
    LockChoice #lock-title { text-style: bold; }
    LockChoice #lock-message { margin-bottom: 1; }
    LockChoice OptionList, LockChoice OptionList:focus { height: auto; border: none; }
    LockChoice #lock-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "read_only", "Open read-only", show=False)]

    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("This session is open in another pi-tui", id="lock-title")
            yield Static(self.message, id="lock-message")
            yield OptionList(*(Option(f"{label} — {detail}", id=value) for value, label, detail in CHOICES))
            yield Static("↑/↓ choose · Enter confirm · Esc read-only", id="lock-hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(str(event.option.id))

    def action_read_only(self) -> None:
        """Escape: the choice that can lose nothing."""
        self.dismiss("read-only")
