"""The transcript's vertical scrollbar: repainted only when what it shows changes (issue 15).

Textual's ``ScrollBar`` repaints whenever its position or the virtual size changes. While a reply streams and the
view follows it, both change on every frame, but the thumb (drawn in eighths of a cell) moves only every few
lines: repainting it each frame cost about a tenth of the app's CPU. ``TranscriptScrollBar`` computes the thumb's
extent in eighths of a cell the way Textual's ``ScrollBarRender.render_bar`` does and skips a plain repaint that
would draw the same thing; a change of size, colours, hover or grab repaints as before.

A repaint that does happen (the thumb moved by an eighth of a cell) styles no row again either: each row of the bar
is one segment of ``ScrollBarRender.render_bar`` (track above, thumb, its two end glyphs, track below), and the
finished strip of a row depends only on that segment and the widget's look (``painted_lines.line_environment``),
so ``render_lines`` keeps the finished strip per segment and asks Textual only for a segment it has not drawn yet
(every row went through Textual's whole styling chain on each thumb move: a third of a streaming frame's compositor
time at 40 KB).
"""

from __future__ import annotations

from math import ceil
from typing import Any, Self

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget

from pi_tui.tui.widgets.painted_lines import line_environment

MAX_ROW_STRIPS = 64  # finished rows kept (a bar draws ~20 distinct segments: track, thumb, 2 x 8 end glyphs)


class TranscriptScrollBar(ScrollBar):
    """A ``ScrollBar`` whose plain repaints are skipped while the drawn thumb stays the same."""

    _drawn: tuple[Any, ...] | None = None
    _row_env: tuple[Any, ...] | None = None
    _row_strips: dict[Segment, Strip] | None = None
    rows_styled = 0  # rows Textual styled (tests, benchmarks)

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


    def _bar_rows(self) -> list[Segment] | None:
        """The segment Textual's ``ScrollBarRender`` draws on each row, computed as it does (``None`` for anything
        but the plain vertical bar: a custom renderer draws as Textual does)."""
        if not self.vertical:
            return None
        renderable = self.render()
        style = getattr(renderable, "style", None)
        if type(renderable) is not ScrollBarRender or not isinstance(style, Style):
            return None
        width, height = self.size
        if style.bgcolor is None or style.color is None:
            return None
        bar = ScrollBarRender.render_bar(
            size=height, virtual_size=renderable.virtual_size, window_size=renderable.window_size,
            position=renderable.position, thickness=width, vertical=True, back_color=style.bgcolor,
            bar_color=style.color)
        return list(bar.segments)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Textual's rendering of rows ``crop.y`` .. ``crop.bottom - 1``, each row's finished strip reused from any
        earlier row that showed the same segment (module docstring)."""
        env = line_environment(self, crop)
        rows = self._bar_rows() if env is not None else None
        if rows is None or len(rows) != self.size.height:
            return super().render_lines(crop)
        if env != self._row_env or self._row_strips is None or len(self._row_strips) > MAX_ROW_STRIPS:
            self._row_env, self._row_strips = env, {}
        cache = self._row_strips
        out: list[Strip] = []
        for y in crop.line_range:
            segment = rows[y]
            strip = cache.get(segment)
            if strip is None:
                strip = cache[segment] = super().render_lines(Region(crop.x, y, crop.width, 1))[0]
                self.rows_styled += 1
            out.append(strip)
        return out


def vertical_bar(widget: Widget) -> TranscriptScrollBar:
    """A hidden vertical ``TranscriptScrollBar`` started as a child of ``widget``, the way
    ``Widget.vertical_scrollbar`` makes its plain ``ScrollBar``."""
    bar = TranscriptScrollBar(vertical=True, name="vertical", thickness=widget.scrollbar_size_vertical)
    bar.display = False
    widget.app._start_widget(widget, bar)
    return bar
