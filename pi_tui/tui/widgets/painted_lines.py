"""Finished screen lines of the transcript, kept per item line so a frame that only moves lines re-styles none
(issue 15).

Textual turns each line a widget's ``render_line`` returns into the line the compositor paints: it pads it to the
content width, applies the widget's background, tint and opacity, then the app's line filters (``ANSIToTruecolor``),
and the compositor divides it at the cuts of the other widgets and serialises it to terminal codes. ``Strip``
caches each of those steps on the strip object, but the styles cache keys lines by their row in the widget
(``StylesCache``) and a refresh forgets them all. While a reply streams and the view follows it, every frame scrolls
the view, so every row holds a different line than the frame before and all of them went through the whole chain
again: about two thirds of a frame's cost, for lines that were painted the frame before one row higher.

``PaintedLines.render`` keeps the finished strip of each item line it painted, keyed by that line's strip object
(an item's strips stay the same objects until the item renders again), and asks Textual (``fallback``) only for
the rows whose line it has not painted yet; the strips it hands back are the same objects every frame, so the
compositor's own per-strip caches (divide, terminal codes) apply too. A finished line depends only on the item
line, the crop's columns and the widget's look (``_environment``); any change there starts afresh. Widgets with a
border, padding or outline (a finished line depends on its row there) always use ``fallback``. The cache holds a
few screenfuls of lines (``capacity``): finished strips refer to themselves through their caches, so they must stay
few for the garbage collector (see ``Transcript.render_line``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


def line_environment(widget: Widget, crop: Region) -> tuple[Any, ...] | None:
    """What a finished line of ``widget`` (Textual's styling of one content line, cropped to ``crop``'s columns)
    depends on besides the content line itself; ``None`` when it depends on its row too (border, padding,
    outline, a hovered link)."""
    styles = widget.styles
    gutter = styles.gutter
    if gutter.top or gutter.right or gutter.bottom or gutter.left or any(edge for edge, _ in styles.outline):
        return None
    if widget.auto_links and widget.hover_style._link_id:
        return None
    app = widget.app
    return (widget.size, crop.x, crop.width, widget.background_colors, styles.tint, styles.text_opacity,
            widget.opacity, tuple(widget.get_line_filters()), app.ansi_theme, app.native_ansi_color)


class PaintedLines:
    """Finished strips of a line widget's rows, keyed by the strip each row shows (see the module docstring)."""

    def __init__(self, screens: int = 3) -> None:
        self.screens = screens  # capacity in screenfuls of the widget's height
        self._env: tuple[Any, ...] | None = None
        self._lines: OrderedDict[int, tuple[Strip, Strip]] = OrderedDict()  # id(source) -> (source, finished)
        self.hits = 0  # rows served from the cache (tests, benchmarks)
        self.misses = 0  # rows Textual rendered

    def clear(self) -> None:
        """Forget every finished line."""
        self._lines.clear()
        self._env = None

    @staticmethod
    def _environment(widget: Widget, crop: Region) -> tuple[Any, ...] | None:
        return line_environment(widget, crop)

    def render(self, widget: Widget, crop: Region, source: Callable[[int], Strip | None],
               fallback: Callable[[Region], list[Strip]]) -> list[Strip]:
        """The finished strips of rows ``crop.y`` .. ``crop.bottom - 1`` of ``widget``.

        ``source(y)``: the strip row ``y`` shows, when it is a long-lived item line (``None``: anything else, such as
        a blank or a notice line made for this paint); ``fallback(region)``: Textual's own rendering of a region
        (``Widget.render_lines``), used for every row not found here.
        """
        env = self._environment(widget, crop)
        if env is None:
            return fallback(crop)
        lines = self._lines
        if env != self._env:
            lines.clear()
            self._env = env
        rows = list(crop.line_range)
        out: list[Strip | None] = []
        sources: list[Strip | None] = []
        for y in rows:
            src = source(y)
            sources.append(src)
            found = lines.get(id(src)) if src is not None else None
            if found is not None and found[0] is src:
                lines.move_to_end(id(src))
                out.append(found[1])
            else:
                out.append(None)
        k = 0
        n = len(rows)
        while k < n:
            if out[k] is not None:
                self.hits += 1
                k += 1
                continue
            end = k
            while end < n and out[end] is None:
                end += 1
            rendered = fallback(Region(crop.x, rows[k], crop.width, end - k))
            for j, strip in enumerate(rendered[: end - k]):
                out[k + j] = strip
                src = sources[k + j]
                if src is not None:
                    lines[id(src)] = (src, strip)
                    lines.move_to_end(id(src))
            self.misses += end - k
            k = end
        capacity = max(1, self.screens * max(1, widget.size.height))
        while len(lines) > capacity:
            lines.popitem(last=False)
        return [strip if strip is not None else Strip.blank(crop.width) for strip in out]
