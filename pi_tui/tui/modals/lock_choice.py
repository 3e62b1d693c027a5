"""What to do with a session another pi-tui is writing (issue 9 item 5): read-only, fork, or take over.

Shown before the session is opened. Dismisses with ``"read-only"``, ``"fork"`` or ``"take-over"`` (the
``if_locked`` values of ``create_agent_session``); Escape is the safe choice, read-only.
"""

from __future__ import annotations

from textual.binding import Binding

from pi_tui.tui.modals.choice_dialog import ChoiceDialog

CHOICES = (
    ("read-only", "Open read-only", "see the conversation; nothing you do here is saved"),
    ("fork", "Fork to a new session", "a copy you can continue; the other window keeps the original"),
    ("take-over", "Take over", "continue here; the other window stops saving"),
)


class LockChoice(ChoiceDialog):
    """Modal with the three choices; ``message`` says which session and which process holds it."""

    BINDINGS = [Binding("escape", "read_only", "Open read-only", show=False)]

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(
            name="lock",
            title="This session is open in another pi-tui",
            body=[("message", message)],
            choices=CHOICES,
            hint="↑/↓ choose · Enter confirm · Esc read-only",
        )

    def action_read_only(self) -> None:
        """Escape: the choice that can lose nothing."""
        self.dismiss("read-only")
