"""The line above the editor listing the images that go with the next message (issue 12).

``AttachmentBar.show(items, busy)`` lists ``[1] shot.png 800x600 · 12.3 KB ✕`` per pending image (``busy``: how
many are still being read and resized); a click on an entry removes it (``on_remove``), Backspace on an empty
editor removes the last one (``ImageAttachments.remove_last``). Hidden while nothing is pending.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual.events import Click
from textual.widgets import Static

from pi_tui.coding.images import ImageAttachment, format_bytes
from pi_tui.tui.theme_loader import PiTheme


class AttachmentBar(Static):
    """Pending image attachments, one line (wraps when many)."""

    DEFAULT_CSS = """
    AttachmentBar { height: auto; max-height: 3; padding: 0 1; display: none; }
    """

    def __init__(self, pi_theme: PiTheme, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.pi_theme = pi_theme
        self._spans: list[tuple[int, int]] = []  # (start, end) cell offsets of each entry on a one-line bar
        self.items: list[ImageAttachment] = []
        self.on_remove: Callable[[int], object] | None = None  # a click on entry ``index`` (0-based)

    def show(self, items: Sequence[ImageAttachment], busy: int = 0) -> None:
        """List ``items`` (and ``busy`` images still loading); hidden when both are empty."""
        t = self.pi_theme
        self.items = list(items)
        text = Text()
        self._spans = []
        for n, item in enumerate(items, 1):
            if n > 1:
                text.append("  ")
            start = text.cell_len
            text.append(f"[{n}] ", style=t.fg("muted"))
            text.append(item.name, style=t.fg("accent"))
            text.append(f" {item.width}x{item.height} · {format_bytes(item.encoded_bytes)} ✕", style=t.fg("muted"))
            self._spans.append((start, text.cell_len))
        if busy:
            text.append(("  " if items else "") + f"reading {busy} image{'s' if busy > 1 else ''}…",
                        style=t.fg("muted"))
        if items:
            text.append("   click to remove · Backspace on an empty editor removes the last", style=t.fg("dim"))
        self.display = bool(items) or busy > 0
        self.update(text)

    def on_click(self, event: Click) -> None:
        """A click on an entry removes it (only a one-line bar maps clicks to entries)."""
        if event.y != 0:
            return
        x = event.x - 1  # padding
        for index, (start, end) in enumerate(self._spans):
            if start <= x < end:
                event.stop()
                if self.on_remove is not None:
                    self.on_remove(index)
                return
