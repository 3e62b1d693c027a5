"""A modal asking for text (an extension's ``ctx.ui.input`` / ``ctx.ui.editor``).

One line (Enter submits) or several (``multiline``: a TextArea; Ctrl+S submits). Escape dismisses with
``None``; submitting dismisses with the text.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static, TextArea

from pi_tui.tui.modals import arrival_guard
from pi_tui.tui.widgets.ordered_input import OrderedInput, OrderedTextArea


class TextPromptModal(ModalScreen[str | None]):
    """``title`` above an input (``placeholder``) or a text area prefilled with ``prefill``."""

    DEFAULT_CSS = """
    TextPromptModal { align: center middle; }
    TextPromptModal > Vertical {
        width: 80; max-width: 100%; height: auto; border: round $accent; background: $surface; padding: 0 1;
    }
    TextPromptModal #prompt-title { width: 100%; text-style: bold; }
    TextPromptModal Input, TextPromptModal Input:focus { border: none; height: 1; padding: 0 1; }
    TextPromptModal TextArea { height: 12; }
    TextPromptModal #prompt-hint { height: 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("ctrl+s", "submit", "Submit", show=False),
    ]

    def __init__(self, title: str, *, placeholder: str = "", prefill: str = "", multiline: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder
        self.prefill = prefill
        self.multiline = multiline

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="prompt-title", markup=False)
            if self.multiline:
                yield OrderedTextArea(self.prefill, id="prompt-area")  # keys in typing order
                yield Static("Ctrl+S submit · Esc cancel", id="prompt-hint")
            else:
                yield OrderedInput(value=self.prefill, placeholder=self.placeholder,
                                   id="prompt-input")  # keys in typing order (new-user run #24)
                yield Static("Enter submit · Esc cancel", id="prompt-hint")

    def on_mount(self) -> None:
        arrival_guard.painted(self)  # keys typed before it was shown are the editor's
        if self.multiline:
            area = self.query_one(TextArea)
            area.focus()
            area.move_cursor(area.document.end)  # typing appends to the prefill, as pi's editor dialog (tester3 #17)
        else:
            self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_submit(self) -> None:
        self.dismiss(self.query_one(TextArea).text if self.multiline else self.query_one(Input).value)

    def action_cancel(self) -> None:
        self.dismiss(None)
