"""The lines above the editor listing the images that go with the next message (issue 12).

``AttachmentBar.show(items, busy)`` lists ``[1] shot.png 800x600 · 12.3 KB ✕`` per pending image (``busy``: how
many are still being read and resized); a click on an entry removes it (``on_remove``), Backspace on an empty
editor removes the last one (``ImageAttachments.remove_last``). Hidden while nothing is pending.

Entries are laid out for the bar's width and never split across lines (a narrow terminal put ``5.5`` and ``KB``
on two lines, seen in tmux at 60 columns); at most :data:`MAX_LINES` lines, the rest summed up as ``+N more``;
the removal hint follows on the last line only when it fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.events import Click
from textual.geometry import Size
from textual.widgets import Static

from pi_tui.coding.images import ImageAttachment, format_bytes
from pi_tui.tui.theme_loader import PiTheme

MAX_LINES = 3
HINT = "click to remove · Backspace on an empty editor removes the last"
GAP = "  "


@dataclass(frozen=True)
class _Span:
    """Where entry ``index`` is drawn: line ``line``, cells ``start`` to ``end`` (content coordinates)."""

    index: int
    line: int
    start: int
    end: int


class AttachmentBar(Static):
    """Pending image attachments (module docstring)."""

    DEFAULT_CSS = """
    AttachmentBar { height: auto; max-height: 3; padding: 0 1; display: none; }
    """

    def __init__(self, pi_theme: PiTheme, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.pi_theme = pi_theme
        self._spans: list[_Span] = []  # laid out by the last render
        self.items: list[ImageAttachment] = []
        self.busy = 0
        self.on_remove: Callable[[int], object] | None = None  # a click on entry ``index`` (0-based)

    def show(self, items: Sequence[ImageAttachment], busy: int = 0) -> None:
        """List ``items`` (and ``busy`` images still loading); hidden when both are empty."""
        self.items = list(items)
        self.busy = busy
        self.display = bool(items) or busy > 0
        self.refresh(layout=True)

    def _entry(self, n: int, item: ImageAttachment) -> Text:
        t = self.pi_theme
        entry = Text()
        entry.append(f"[{n}] ", style=t.fg("muted"))
        entry.append(item.name, style=t.fg("accent"))
        entry.append(f" {item.width}x{item.height} · {format_bytes(item.encoded_bytes)} ✕", style=t.fg("muted"))
        return entry

    def lay_out(self, width: int) -> Text:
        """The bar's text for ``width`` cells (module docstring); records where each entry is for clicks."""
        t = self.pi_theme
        width = max(1, width)
        pieces = [self._entry(n, item) for n, item in enumerate(self.items, 1)]
        if self.busy:
            pieces.append(Text(f"reading {self.busy} image{'s' if self.busy > 1 else ''}…", style=t.fg("muted")))
        lines: list[Text] = [Text()]
        spans: list[_Span] = []
        for index, piece in enumerate(pieces):
            line = lines[-1]
            gap = GAP if line.cell_len else ""
            if line.cell_len and line.cell_len + len(gap) + piece.cell_len > width:
                if len(lines) == MAX_LINES:
                    more = Text(f"{GAP}+{len(pieces) - index} more", style=t.fg("muted"))
                    if line.cell_len + more.cell_len > width:
                        line.truncate(max(0, width - more.cell_len))
                        spans = [s for s in spans if s.line != len(lines) - 1 or s.end <= line.cell_len]
                    line.append_text(more)
                    break
                lines.append(Text())
                line, gap = lines[-1], ""
            line.append(gap)
            start = line.cell_len
            line.append_text(piece)
            line.truncate(width)  # an entry wider than the bar is cut, never wrapped
            if index < len(self.items):
                spans.append(_Span(index, len(lines) - 1, start, min(line.cell_len, width)))
        if self.items and lines[-1].cell_len + 3 + len(HINT) <= width:
            lines[-1].append(f"   {HINT}", style=t.fg("dim"))
        self._spans = spans
        return Text("\n").join(lines)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as :meth:`lay_out` makes for ``width``."""
        return len(self.lay_out(width).split("\n")) if self.display else 0

    def render(self) -> Text:
        """The bar laid out for the current width (:meth:`lay_out`)."""
        return self.lay_out(self.content_region.width or self.size.width or 80)

    def on_click(self, event: Click) -> None:
        """A click on an entry removes it."""
        x, y = event.x - 1, event.y  # padding: one cell left
        for span in self._spans:
            if span.line == y and span.start <= x < span.end:
                event.stop()
                if self.on_remove is not None:
                    self.on_remove(span.index)
                return
