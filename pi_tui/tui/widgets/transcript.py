"""The transcript: ONE virtualised line-based widget (Textual Line API) holding every transcript item.

Each item renders once to a list of strips cached per width (``transcript_items``); only the lines in view
are drawn (``render_line``). Items not yet rendered at the current width use an estimated height until they
come into view, so opening a 2,000-message session renders only the last screenful.

Streaming: callers mutate an item and call ``item_changed(item)``; changes are coalesced and flushed at most
every ``FLUSH_INTERVAL`` seconds by a one-shot timer (no timer runs while idle). While the user is at the bottom
the view follows the tail; after scrolling up, off-screen changed items are not re-rendered until they come
back into view, and following resumes when the user returns to the bottom.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterable

from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from pi_tui.tui.widgets.message_render import RenderContext, blank_strip
from pi_tui.tui.widgets.transcript_items import NoticeItem, TranscriptItem

FLUSH_INTERVAL = 0.04  # seconds; the tail of a streaming message re-renders at most ~25 times a second
MAX_CACHED_ITEMS = 300  # rendered items kept in memory; older off-screen renders are dropped (re-rendered on view)


class Transcript(ScrollView, can_focus=False):
    """Virtualised transcript. ``ctx`` supplies the theme and display flags shared by all items."""

    DEFAULT_CSS = """
    Transcript {
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
    }
    """

    class ItemToggled(Message):
        """Posted after a click toggled an item (tool line, artifact card...)."""

        def __init__(self, item: TranscriptItem) -> None:
            super().__init__()
            self.item = item

    def __init__(self, ctx: RenderContext, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.ctx = ctx
        self.items: list[TranscriptItem] = []
        self._heights: list[int] = []
        self._offsets: list[int] = [0]  # _offsets[i] = first line of item i; last entry = total height
        self._offsets_valid = 0  # offsets are valid for indices <= this
        self._width = 0
        self._dirty: set[int] = set()
        self._index: dict[int, int] = {}  # id(item) -> index
        self._flush_timer: Timer | None = None
        self._cached: OrderedDict[int, TranscriptItem] = OrderedDict()
        self.following = True
        self._laid_out = False
        self._rescroll_pending = False
        self.render_count = 0  # items rendered (for tests and benchmarks)

    # ----------------------------------------------------------------- geometry
    @property
    def content_width(self) -> int:
        """Width the items are rendered at (the region minus the scrollbar)."""
        return max(10, (self.size.width or 81) - self.styles.scrollbar_size_vertical)

    def _offsets_upto(self, i: int) -> None:
        offs = self._offsets
        start = self._offsets_valid
        if start >= i:
            return
        for k in range(start, i):
            offs[k + 1] = offs[k] + self._heights[k]
        self._offsets_valid = i

    @property
    def total_height(self) -> int:
        """Lines of the whole transcript (some heights may be estimates)."""
        self._offsets_upto(len(self.items))
        return self._offsets[len(self.items)]

    def _set_height(self, i: int, h: int) -> None:
        if self._heights[i] != h:
            self._heights[i] = h
            self._offsets_valid = min(self._offsets_valid, i)

    def item_at_line(self, y: int) -> tuple[int, int] | None:
        """``(item index, line within item)`` for transcript line ``y``, or ``None``."""
        if not self.items or y < 0:
            return None
        n = len(self.items)
        self._offsets_upto(n)
        if y >= self._offsets[n]:
            return None
        i = bisect_right(self._offsets, y, 0, n + 1) - 1
        i = min(i, n - 1)
        return i, y - self._offsets[i]

    def item_top(self, item: TranscriptItem) -> int | None:
        """First transcript line of ``item`` (or ``None`` if absent)."""
        i = self._index.get(id(item))
        if i is None:
            return None
        self._offsets_upto(i)
        return self._offsets[i]

    def _sync_virtual_size(self) -> None:
        size = Size(self._width or self.content_width, self.total_height)
        if size == self.virtual_size:
            return
        viewport = self.scrollable_content_region.height
        crosses = (self.virtual_size.height > viewport) != (size.height > viewport)
        if self._laid_out and not crosses:
            # A changed height must not re-run the whole screen's layout (Widget.virtual_size is a layout
            # reactive): while the scrollbar's visibility stays the same only the scroll range changes.
            self.set_reactive(Widget.virtual_size, size)
            self._scroll_update(size)
            self.refresh()
        else:
            self.virtual_size = size

    # ----------------------------------------------------------------- items
    def add(self, item: TranscriptItem) -> TranscriptItem:
        """Append an item (a ``status`` notice right after another replaces it, as in pi)."""
        if (isinstance(item, NoticeItem) and item.level == "status" and self.items
                and isinstance(self.items[-1], NoticeItem) and self.items[-1].level == "status"):
            last = self.items[-1]
            assert isinstance(last, NoticeItem)
            last.text = item.text
            last.changed()
            self.item_changed(last)
            return last
        self.items.append(item)
        self._index[id(item)] = len(self.items) - 1
        self._heights.append(item.estimate_height(self._width or 80))
        self._offsets.append(0)
        self._dirty.add(len(self.items) - 1)
        self._schedule_flush()
        return item

    def extend(self, items: Iterable[TranscriptItem]) -> None:
        """Append many items at once (loading a session): only heights are estimated now."""
        width = self._width or 80
        for item in items:
            self.items.append(item)
            self._index[id(item)] = len(self.items) - 1
            self._heights.append(item.estimate_height(width))
            self._offsets.append(0)
        self._after_change(scroll=True)

    def clear(self) -> None:
        """Remove every item."""
        self.items.clear()
        self._heights.clear()
        self._offsets = [0]
        self._offsets_valid = 0
        self._dirty.clear()
        self._index.clear()
        self._cached.clear()
        self.following = True
        self._after_change(scroll=True)

    def remove_item(self, item: TranscriptItem) -> None:
        """Remove one item (e.g. an unfinished streaming message)."""
        i = self._index.get(id(item))
        if i is None:
            return
        del self.items[i]
        del self._heights[i]
        del self._offsets[i + 1]
        self._index = {id(it): k for k, it in enumerate(self.items)}
        self._cached.pop(id(item), None)
        self._dirty = {d if d < i else d - 1 for d in self._dirty if d != i}
        self._offsets_valid = min(self._offsets_valid, i)
        self._after_change(scroll=self.following)

    def item_changed(self, item: TranscriptItem, immediate: bool = False) -> None:
        """``item``'s data changed; it re-renders on the next flush (or now with ``immediate``)."""
        i = self._index.get(id(item))
        if i is None:
            return
        self._dirty.add(i)
        if immediate:
            self.flush()
        else:
            self._schedule_flush()

    def invalidate_all(self) -> None:
        """Theme or display flags changed: everything re-renders lazily (visible items now)."""
        self._dirty.update(range(len(self.items)))
        self.flush()

    def _schedule_flush(self) -> None:
        if self._flush_timer is None and self.is_mounted:
            self._flush_timer = self.set_timer(FLUSH_INTERVAL, self._timer_flush)

    def _timer_flush(self) -> None:
        self._flush_timer = None
        self.flush()

    # ----------------------------------------------------------------- rendering
    def _visible_range(self, margin: int) -> tuple[int, int]:
        top = int(self.scroll_y)
        height = self.scrollable_content_region.height or self.size.height or 24
        first = self.item_at_line(max(0, top - margin))
        last = self.item_at_line(top + height + margin)
        lo = first[0] if first else max(0, len(self.items) - 1)
        hi = last[0] if last else len(self.items) - 1
        return lo, hi

    def flush(self) -> None:
        """Render dirty items that are on screen (or all dirty ones while following the tail)."""
        if not self.is_mounted or not self.items:
            self._after_change(scroll=self.following)
            return
        if not self._dirty:
            self._ensure_visible_rendered()
            return
        width = self._width or self.content_width
        lo, hi = self._visible_range(margin=self.size.height)
        anchor_shift = 0
        top = int(self.scroll_y)
        for i in sorted(self._dirty):
            if i >= len(self.items):
                continue
            if not (lo <= i <= hi) and not (self.following and i >= lo):
                # Off-screen and not following: leave it stale; it renders when scrolled into view.
                self._set_height(i, self._heights[i])
                continue
            item = self.items[i]
            before_top = self._top_of(i)
            old = self._heights[i]
            new = len(item.strips(self.ctx, width))
            self._note_rendered(item)
            self._set_height(i, new)
            if before_top < top and not self.following:
                anchor_shift += new - old
        self._dirty = {i for i in self._dirty if not self.items[i].is_cached(self.ctx, width)} if self.items else set()
        self._after_change(scroll=self.following, shift=anchor_shift)
        self._ensure_visible_rendered()

    def _note_rendered(self, item: TranscriptItem) -> None:
        """Count a render and evict the least recently rendered off-screen items past the cap."""
        self.render_count += 1
        key = id(item)
        self._cached[key] = item
        self._cached.move_to_end(key)
        if len(self._cached) > MAX_CACHED_ITEMS:
            lo, hi = self._visible_range(margin=self.size.height)
            for old_key in list(self._cached)[: len(self._cached) - MAX_CACHED_ITEMS]:
                old = self._cached[old_key]
                idx = self._index.get(old_key)
                if idx is not None and lo <= idx <= hi:
                    continue
                del self._cached[old_key]
                old.evict()

    def _top_of(self, i: int) -> int:
        self._offsets_upto(i)
        return self._offsets[i]

    def _after_change(self, scroll: bool, shift: int = 0) -> None:
        self._sync_virtual_size()
        if scroll:
            self.scroll_to(y=max(0, self.total_height - self.scrollable_content_region.height),
                           animate=False, immediate=True)
            if not self._rescroll_pending:
                # The scroll above is clamped by the container size, which is stale until a pending layout
                # (e.g. the scrollbar appearing) has run: scroll again after the next refresh.
                self._rescroll_pending = True
                self.call_after_refresh(self._rescroll)
        elif shift:
            self.scroll_to(y=self.scroll_y + shift, animate=False, immediate=True)
        self.refresh()

    def _rescroll(self) -> None:
        self._rescroll_pending = False
        if self.following and self.scroll_y < self.max_scroll_y:
            self.scroll_to(y=self.max_scroll_y, animate=False, immediate=True)
            self._ensure_visible_rendered()

    def _ensure_visible_rendered(self) -> None:
        """Render items in (and one page around) the viewport at the current width; fix heights and scroll."""
        if not self.items or not self.is_mounted:
            return
        width = self._width or self.content_width
        for _ in range(4):
            lo, hi = self._visible_range(margin=self.size.height)
            top = int(self.scroll_y)
            shift = 0
            changed = False
            for i in range(lo, hi + 1):
                item = self.items[i]
                if item.is_cached(self.ctx, width):
                    continue
                old = self._heights[i]
                item_top = self._top_of(i)
                new = len(item.strips(self.ctx, width))
                self._note_rendered(item)
                self._dirty.discard(i)
                if new != old:
                    changed = True
                    self._set_height(i, new)
                    if item_top < top and not self.following:
                        shift += new - old
            if not changed:
                break
            self._after_change(scroll=self.following, shift=shift)

    def on_resize(self, event: events.Resize) -> None:
        self._laid_out = True
        width = self.content_width
        if width != self._width:
            old = self._width
            self._width = width
            for i, item in enumerate(self.items):
                hint = item.height_hint
                if hint is not None and old:
                    self._heights[i] = max(1, hint * old // width)
                else:
                    self._heights[i] = item.estimate_height(width)
            self._offsets_valid = 0
        self._after_change(scroll=self.following)
        self._ensure_visible_rendered()

    def on_mount(self) -> None:
        self._width = self.content_width

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.following = new_value >= self.max_scroll_y - 1
        if round(old_value) != round(new_value):
            self.call_later(self._ensure_visible_rendered)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width or self.size.width
        line = int(self.scroll_y) + y
        found = self.item_at_line(line)
        if found is None:
            return blank_strip(width)
        i, row = found
        item = self.items[i]
        if not item.is_cached(self.ctx, self._width or width):
            # Rendered lazily here only if the pre-render pass missed it; geometry is fixed next refresh.
            self.call_later(self._ensure_visible_rendered)
            if item.height_hint is None:
                return blank_strip(width)
            strips = item._strips
        else:
            strips = item.strips(self.ctx, self._width or width)
        if row >= len(strips):
            return blank_strip(width)
        # Hand Textual a fresh Strip: it caches crop/extend results on the strip itself (often the strip itself, a
        # reference cycle), which would leave every cached line to the full garbage collector (bench: 58 gen-2
        # collections of ~75 ms while paging through 2,000 messages).
        cached = strips[row]
        return Strip(list(cached), cached.cell_length).crop_extend(0, width, None)

    # ----------------------------------------------------------------- input
    def on_click(self, event: events.Click) -> None:
        found = self.item_at_line(int(self.scroll_y) + event.y)
        if found is None:
            return
        item = self.items[found[0]]
        if item.clickable and item.toggle():
            self.item_changed(item, immediate=True)
            self.post_message(self.ItemToggled(item))

    def scroll_page(self, pages: float) -> None:
        """Scroll by ``pages`` screens (negative: up). Used by PageUp/PageDown from the prompt."""
        height = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=self.scroll_y + pages * height, animate=False, immediate=True)
        self.following = self.scroll_y >= self.max_scroll_y - 1

    def scroll_home_now(self) -> None:
        """Jump to the first line (stops following the tail unless everything fits)."""
        self.scroll_to(y=0, animate=False, immediate=True)
        self.following = self.max_scroll_y <= 1

    def scroll_end_now(self) -> None:
        """Jump to the last line and follow the tail again."""
        self.following = True
        self._after_change(scroll=True)
        self._ensure_visible_rendered()

    def visible_text(self) -> str:
        """Plain text of the lines currently on screen (tests and debugging)."""
        height = self.scrollable_content_region.height or self.size.height
        return "\n".join(self.render_line(y).text.rstrip() for y in range(height))
