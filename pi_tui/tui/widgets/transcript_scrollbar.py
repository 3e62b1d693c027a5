"""The transcript's vertical scrollbar: repainted only when what it shows changes (issue 15).

Textual's ``ScrollBar`` repaints whenever its position or the virtual size changes. While a reply streams and the
view follows it, both change on every frame, but the thumb (drawn in eighths of a cell) moves only every few
lines: repainting it each frame cost about a tenth of the app's CPU. ``TranscriptScrollBar`` computes the thumb's
extent in eighths of a cell the way Textual's ``ScrollBarRender.render_bar`` does and skips a plain repaint that
would draw the same thing; a change of size, colours, hover or grab repaints as before.
"""

from __future__ import annotations

from math import ceil
from typing import Any, Self

from textual.geometry import Region
from textual.scrollbar import ScrollBar
from textual.widget import Widget


class TranscriptScrollBar(ScrollBar):
    """A ``ScrollBar`` whose plain repaints are skipped while the drawn thumb stays the same."""

    _drawn: tuple[Any, ...] | None = None

    def _visual_key(self) -> tuple[Any, ...]:
        """Everything the bar's rendering depends on, with the thumb as (start, end) in eighths of a cell."""
        size = self.size.height if self.vertical else self.size.width
        virtual = ceil(self.window_virtual_size)
        window = ceil(self.window_size if self.window_size < self.window_virtual_size else 0)
        thumb: tuple[int, int] | None = None
        if window and size and virtual and size != virtual:
            thumb_size = max(1.0, window / (virtual / size))
            span = virtual - window
            position = (size - thumb_size) * (self.position / span) if span else 0.0
            start = int(position * 8)
            thumb = (start, start + ceil(thumb_size * 8))
        parent = self.parent
        styles = getattr(parent, "styles", None)
        colours = None if styles is None else (styles.scrollbar_color, styles.scrollbar_background,
                                               styles.scrollbar_color_hover, styles.scrollbar_background_hover,
                                               styles.scrollbar_color_active, styles.scrollbar_background_active)
        return (self.size, thumb, self.mouse_over, self.grabbed, colours, self.thickness)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,  # type: ignore[override]
                recompose: bool = False) -> Self:
        """Repaint, unless this is a plain repaint and the bar would be drawn exactly as it is now."""
        if not (regions or layout or recompose) and repaint and self.is_mounted:
            key = self._visual_key()
            if key == self._drawn:
                return self
            self._drawn = key
        else:
            self._drawn = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)


def vertical_bar(widget: Widget) -> TranscriptScrollBar:
    """A hidden vertical ``TranscriptScrollBar`` started as a child of ``widget``, the way
    ``Widget.vertical_scrollbar`` makes its plain ``ScrollBar``."""
    bar = TranscriptScrollBar(vertical=True, name="vertical", thickness=widget.scrollbar_size_vertical)
    bar.display = False
    widget.app._start_widget(widget, bar)
    return bar
