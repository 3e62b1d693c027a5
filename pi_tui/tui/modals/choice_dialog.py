"""A bordered question with a few choices that fits any terminal (the lock and trust questions use it).

Layout: a bold title, a body (one or more text blocks, scrollable), an option list of ``(value, label,
detail)`` choices shown as ``label — detail``, and a one-line key hint. On a short terminal (fewer than
:data:`COMPACT_ROWS` rows) the choices show their labels only and the body gets what is left, so the
choices and the hint are always on screen: at 60x16 the trust question ran off the bottom edge and
hid its key hint (new-user run, issue 9).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from pi_tui.tui.modals import arrival_guard

COMPACT_ROWS = 22
"""Below this many terminal rows the choices show their labels only."""

Choice = tuple[str, str, str]
"""``(value, label, detail)``: the dismiss value, the short label, what it does."""


class ChoiceDialog(ModalScreen[str | None]):
    """``title``, ``body`` blocks (plain text, no markup), ``choices`` and ``hint``; dismisses with the chosen
    value (subclasses bind Escape to their own safe choice). ``name`` prefixes the widget ids
    (``<name>-title``, ``<name>-message``…) so each dialog keeps its own ids for styling and tests."""

    DEFAULT_CSS = """
    ChoiceDialog { align: center middle; }
    ChoiceDialog > Vertical {
        width: 80%; max-width: 100; height: auto; max-height: 100%; border: round $warning;
        background: $surface; padding: 0 1;
    }
    ChoiceDialog .dialog-title { text-style: bold; }
    ChoiceDialog .dialog-body { height: auto; }
    ChoiceDialog .dialog-block { margin-bottom: 1; }
    ChoiceDialog .dialog-muted { color: $text-muted; }
    ChoiceDialog OptionList, ChoiceDialog OptionList:focus { height: auto; border: none; }
    ChoiceDialog .dialog-hint { color: $text-muted; }
    """

    def __init__(
        self,
        *,
        name: str,
        title: str,
        body: Sequence[tuple[str, str]],
        choices: Sequence[Choice],
        hint: str,
    ) -> None:
        """``body``: ``(id_suffix, text)`` blocks; a suffix ending in ``-muted`` is dimmed."""
        super().__init__()
        self._prefix = name
        self._title = title
        self._body = list(body)
        self._choices = list(choices)
        self._hint = hint
        self._compact: bool | None = None

    def compose(self) -> ComposeResult:
        p = self._prefix
        with Vertical():
            yield Static(self._title, id=f"{p}-title", classes="dialog-title", markup=False)
            with VerticalScroll(id=f"{p}-body", classes="dialog-body"):
                for suffix, text in self._body:
                    classes = "dialog-block dialog-muted" if suffix.endswith("-muted") else "dialog-block"
                    yield Static(text, id=f"{p}-{suffix.removesuffix('-muted')}", classes=classes, markup=False)
            yield OptionList(*(Option(self._prompt(c, compact=False), id=c[0]) for c in self._choices))
            yield Static(self._hint, id=f"{p}-hint", classes="dialog-hint", markup=False)

    @staticmethod
    def _prompt(choice: Choice, *, compact: bool) -> str:
        _, label, detail = choice
        return label if compact or not detail else f"{label} — {detail}"

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        arrival_guard.painted(self)  # keys typed before it was shown are the editor's
        self._fit(self.app.size)
        self.call_after_refresh(lambda: self._fit(self.app.size))  # again with the laid-out width

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _hint_rows(self, size: Size) -> int:
        width = self.query_one(Vertical).content_region.width or int(size.width * 0.8) - 4
        return max(1, -(-cell_len(self._hint) // max(1, width)))

    def _fit(self, size: Size) -> None:
        """Labels only below :data:`COMPACT_ROWS`; the body gets the rows the rest leaves (at least 1)."""
        rows = size.height
        compact = rows < COMPACT_ROWS
        options = self.query_one(OptionList)
        if compact != self._compact:
            self._compact = compact
            for choice in self._choices:
                options.replace_option_prompt(choice[0], self._prompt(choice, compact=compact))
        body = self.query_one(f"#{self._prefix}-body", VerticalScroll)
        # border 2 + title 1 + the hint's rows + one row per choice (compact labels fit one line)
        fixed = 3 + self._hint_rows(size) + len(self._choices)
        body.styles.max_height = max(1, rows - fixed) if compact else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(str(event.option.id))
