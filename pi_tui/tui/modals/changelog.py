"""``/changelog``: pi-tui's changelog in a scrollable screen (pi's "What's New" block, pi docs/usage.md).

The Markdown of :func:`pi_tui.coding.changelog.changelog_markdown` (oldest entry first, newest last, as pi
prints it) in Textual's ``Markdown`` widget inside a ``VerticalScroll``; the view opens at the end, on the
newest entry. Up/Down, PageUp/PageDown, Home/End scroll (the scroll view's own keys); Escape closes. Text typed
into it is refused on the hint line (``typing_refusal``; q no longer closes it: it began many a typed word).
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown, Static

from pi_tui.tui.modals.typing_refusal import refuse_typing


class ChangelogScreen(ModalScreen[None]):
    """Modal, scrollable changelog (``markdown``: the text to show)."""

    DEFAULT_CSS = """
    ChangelogScreen { align: center middle; }
    ChangelogScreen > Vertical {
        width: 90%; max-width: 110; height: 85%; border: round $border; background: $surface; padding: 0 1;
    }
    ChangelogScreen #changelog-title { height: 1; text-style: bold; color: $secondary; }
    ChangelogScreen VerticalScroll { height: 1fr; }
    ChangelogScreen #changelog-hint { height: 1; color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "close", "Close", show=False)]
    HINT = "↑/↓ PgUp/PgDn Home/End scroll · Esc close"

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("What's New", id="changelog-title")
            with VerticalScroll(id="changelog-scroll"):
                yield Markdown(self.markdown, id="changelog-body")
            yield Static(self.HINT, id="changelog-hint")

    def on_mount(self) -> None:
        scroll = self.query_one(VerticalScroll)
        scroll.focus()
        self.call_after_refresh(scroll.scroll_end, animate=False)

    def on_key(self, event: events.Key) -> None:
        refuse_typing(self, event, self.query_one("#changelog-hint", Static), self.HINT)

    def action_close(self) -> None:
        """Close the screen."""
        self.dismiss(None)
