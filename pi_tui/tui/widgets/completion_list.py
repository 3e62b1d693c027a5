"""The editor's completion list: commands after ``/``, their arguments, files after ``@`` (pi-tui's
``SelectList`` as its editor shows it, 0.73.1).

Up to ``max_visible`` rows (settings.json ``autocompleteMaxVisible``, 3..20, pi's default 5; read at each
layout, so ``/settings`` changes it at once) around the selected item, which is marked ``→`` and drawn in the accent
colour; each row is the item's label in a first column (as wide as the widest label + 2, between 12 and 32
cells for commands, 32 otherwise; pi's layout) and its description dimmed after it when the list is wider than
40 cells; a label or description cut to the width ends with ``…``. ``  (3/17)`` below the rows when not every item is shown. A message row (``Indexing files…``) can
stand in for the items. Hidden when closed. Control characters in labels and descriptions (a file named
``evil ESC ]0;title BEL``) are shown as placeholders (``terminal_guard.show_controls``; tester2 #25). What it lists and when is ``controllers.editor_completion``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len, set_cell_size
from rich.text import Text
from textual.widget import Widget

from pi_tui.coding.autocomplete import CompletionItem
from pi_tui.tui.terminal_guard import show_controls
from pi_tui.tui.theme_loader import PiTheme

MAX_VISIBLE = 5
COMMAND_COLUMN = (12, 32)  # pi's SLASH_COMMAND_SELECT_LIST_LAYOUT
DEFAULT_COLUMN = (32, 32)
GAP = 2
MIN_DESCRIPTION = 10


ELLIPSIS = "…"


def _fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells (never padded); a cut text ends with ``…`` so the user sees that more
    followed (pi cuts without a mark; DIFFERENCES.md ED6)."""
    if cell_len(text) <= width:
        return text
    if width <= 0:
        return ""
    return set_cell_size(text, width - 1) + ELLIPSIS


def list_rows(items: Sequence[CompletionItem], selected: int, width: int, commands: bool,
              max_visible: int = MAX_VISIBLE) -> list[tuple[str, str, str]]:
    """The rows to draw, ``(label part, description part, kind)`` with kind ``"selected"``, ``"item"`` or
    ``"scroll"`` (the ``  (i/n)`` line, last, when not every item is shown); ``width`` in cells (module docstring; pi's ``SelectList.render``)."""
    if not items:
        return []
    start = max(0, min(selected - max_visible // 2, len(items) - max_visible))
    end = min(start + max_visible, len(items))
    low, high = COMMAND_COLUMN if commands else DEFAULT_COLUMN
    column = max(low, min(high, max(cell_len(show_controls(i.shown)) for i in items) + GAP))
    rows = []
    for index in range(start, end):
        item = items[index]
        prefix = "→ " if index == selected else "  "
        kind = "selected" if index == selected else "item"
        shown = show_controls(item.shown)  # a file name may hold ESC ]0;… (tester2 #25): shown as ␛]0;…
        description = show_controls(" ".join(item.description.split()))
        if description and width > 40:
            effective = max(1, min(column, width - 2 - 4))
            label = _fit(shown, max(1, effective - GAP))
            spacing = " " * max(1, effective - cell_len(label))
            remaining = width - 2 - cell_len(label) - len(spacing) - 2
            if remaining > MIN_DESCRIPTION:
                rows.append((prefix + label, spacing + _fit(description, remaining), kind))
                continue
        rows.append((prefix + _fit(shown, width - 4), "", kind))
    if start > 0 or end < len(items):
        rows.append((_fit(f"  ({selected + 1}/{len(items)})", width - 2), "", "scroll"))
    return rows


class CompletionList(Widget):
    """The list under the editor (module docstring). ``theme()`` gives the current theme (read at each
    paint, so ``/theme`` needs no call here)."""

    DEFAULT_CSS = """
    CompletionList { height: auto; max-height: 21; padding: 0 1; display: none; }
    """

    def __init__(self, theme: Callable[[], PiTheme], max_visible: Callable[[], int] | int = MAX_VISIBLE,
                 **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._theme = theme
        self._max_visible = max_visible
        self.items: list[CompletionItem] = []
        self.selected = 0
        self.commands = False  # command names: pi's narrower first column
        self.message = ""

    @property
    def max_visible(self) -> int:
        """Rows shown at most: the setting (or the number given), kept to pi's 3..20; 5 when it fails."""
        try:
            value = self._max_visible() if callable(self._max_visible) else self._max_visible
            return max(3, min(20, int(value)))
        except (TypeError, ValueError):
            return MAX_VISIBLE

    @property
    def is_open(self) -> bool:
        """True while the list (or its message) is shown."""
        return bool(self.display)

    @property
    def selected_item(self) -> CompletionItem | None:
        """The highlighted item, None when there are none."""
        return self.items[self.selected] if 0 <= self.selected < len(self.items) else None

    def show_items(self, items: Sequence[CompletionItem], selected: int = 0, commands: bool = False) -> None:
        """Show ``items`` with ``selected`` highlighted."""
        self.items = list(items)
        self.selected = max(0, min(selected, len(self.items) - 1))
        self.commands = commands
        self.message = ""
        self._show()

    def show_message(self, text: str) -> None:
        """Show one dimmed line instead of items (``Indexing files…``)."""
        self.items = []
        self.selected = 0
        self.message = text
        self._show()

    def _show(self) -> None:
        self.display = True
        self.refresh(layout=True)

    def close(self) -> None:
        """Hide the list and forget its items."""
        self.items = []
        self.message = ""
        self.display = False

    def move(self, delta: int) -> None:
        """Move the highlight by ``delta``, wrapping at both ends (pi)."""
        if self.items:
            self.selected = (self.selected + delta) % len(self.items)
            self.refresh()

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        """One row per visible item (+ the scroll line), or one for a message."""
        if self.message:
            return 1
        return len(list_rows(self.items, self.selected, max(1, width), self.commands, self.max_visible))

    def render(self) -> Text:
        theme = self._theme()
        width = max(1, self.content_size.width)
        if self.message:
            return Text(_fit("  " + self.message, width), style=theme.fg("muted"), no_wrap=True)
        text = Text(no_wrap=True, overflow="crop")
        for n, (label, description, kind) in enumerate(
                list_rows(self.items, self.selected, width, self.commands, self.max_visible)):
            if n:
                text.append("\n")
            if kind == "selected":
                text.append(label + description, style=theme.fg("accent"))
            elif kind == "scroll":
                text.append(label, style=theme.fg("muted"))
            else:
                text.append(label)
                text.append(description, style=theme.fg("muted"))
        return text
