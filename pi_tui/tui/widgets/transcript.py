"""The transcript: ONE virtualised line-based widget (Textual Line API) holding every transcript item.

Each item renders once to a list of strips cached per width (``transcript_items``); only the lines in view
are drawn (``render_line``). Items not yet rendered at the current width use an estimated height until they
come into view, so opening a 2,000-message session renders only the last screenful.

Streaming: callers mutate an item and call ``item_changed(item)``; changes are coalesced and flushed at most
every ``FLUSH_INTERVAL`` seconds by a one-shot timer (no timer runs while idle); text arriving in a streaming
reply waits ``STREAM_FLUSH_INTERVAL`` (issue 15: each frame repaints the whole view and costs the same whatever
text it adds, so ten frames a second show a 2,000 chars/s reply at a fraction of the CPU of 25). While the user is at the bottom
the view follows the tail; after scrolling up, off-screen changed items are not re-rendered until they come
back into view, and following resumes when the user returns to the bottom.

Geometry invariants (issue 9): an item whose render at the current width is known has exactly that height in
the height table (an estimate only stands for an item never rendered in this state at this width), so the end
of the transcript is always reachable. While scrolled up, the view is anchored to the item at its top line
(``ViewAnchor``): changed heights above it, appends, expand/collapse and resizes keep that item at the top
(after a width change at the same relative row). New output arriving below a scrolled-up view shows a
"new output below" line, with the key of ``app.scroll.bottom``, until the view is back at the bottom.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable
from itertools import zip_longest

from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from pi_tui.tui.widgets.message_render import RenderContext, blank_strip
from pi_tui.tui.widgets.painted_lines import PaintedLines
from pi_tui.tui.widgets.transcript_anchor import ViewAnchor, find_anchor
from pi_tui.tui.widgets.transcript_geometry import HeightTable
from pi_tui.tui.widgets.transcript_items import AssistantItem, NoticeItem, TranscriptItem
from pi_tui.tui.widgets.transcript_rewrap import (
    BIG_RENDER_LINES,
    BackgroundRenders,
    Reflow,
    fresh_strip,
    new_output_strip,
    stand_in_line,
)
from pi_tui.tui.widgets.transcript_scrollbar import vertical_bar

FLUSH_INTERVAL = 0.04  # seconds; changed items re-render at most ~25 times a second
STREAM_FLUSH_INTERVAL = 0.1  # seconds; a streaming reply's new text shows at most 10 times a second
MAX_CACHED_ITEMS = 120  # rendered items kept in memory (the view and a page around it need ~20-60); older off-screen renders are dropped (re-rendered on view)
NEW_OUTPUT_LABEL = "↓ new output below ({key})"


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

    def __init__(self, ctx: RenderContext, bottom_key: str = "Ctrl+End", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.ctx = ctx
        self.bottom_key = bottom_key  # shown in the "new output below" line (the app passes its keymap's key)
        self.unseen_below = False  # output arrived below the view since the user scrolled up
        self._following = True
        self._view_anchor: ViewAnchor | None = None
        self._quiet = 0  # > 0 while the widget moves its own scroll position (no anchor re-capture)
        self.items: list[TranscriptItem] = []
        self._table = HeightTable()
        self._width = 0
        self._dirty: set[int] = set()
        self._index: dict[int, int] = {}  # id(item) -> index
        self._flush_timer: Timer | None = None
        self._cached: OrderedDict[int, TranscriptItem] = OrderedDict()
        self._laid_out = False
        self._rescroll_pending = False
        self._repaint_pending = False  # render_line painted a stale render; a repaint follows its new render
        self._margin_pending = False  # the page around the view is rendered after the next refresh
        self.render_count = 0  # items rendered (for tests and benchmarks)
        self._painted = PaintedLines()  # finished lines of item lines, reused while they stay the same
        self.on_flush: Callable[[], None] | None = None  # called after each coalesced (timer) flush
        # After a width change the estimates away from the view are redone between events; long items re-render
        # in a worker thread while their old render stays painted (transcript_rewrap; tester finding #12).
        self._reflow = Reflow(self._table, lambda: len(self.items),
                              lambda i, width: self.items[i].guess_height(self.ctx, width))
        self._reflow_scheduled = False
        self._background = BackgroundRenders(lambda: self.ctx, self._background_done)

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """The vertical scrollbar: a ``TranscriptScrollBar`` (repainted only when its thumb is drawn differently)."""
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = vertical_bar(self)
        return self._vertical_scrollbar

    # ----------------------------------------------------------------- geometry
    @property
    def content_width(self) -> int:
        """Width the items are rendered at (the region minus the scrollbar)."""
        return max(10, (self.size.width or 81) - self.styles.scrollbar_size_vertical)

    @property
    def total_height(self) -> int:
        """Lines of the whole transcript (some heights may be estimates)."""
        return self._table.total

    def item_at_line(self, y: int) -> tuple[int, int] | None:
        """``(item index, line within item)`` for transcript line ``y``, or ``None``."""
        return self._table.at_line(y)

    def item_top(self, item: TranscriptItem) -> int | None:
        """First transcript line of ``item`` (or ``None`` if absent)."""
        i = self._index.get(id(item))
        if i is None:
            return None
        return self._table.top(i)

    def _viewport_height(self) -> int:
        return self.scrollable_content_region.height or self.size.height or 24

    def _sync_virtual_size(self, repaint: bool = True) -> None:
        """Apply the height table's total to the scroll range (``repaint=False``: no line in view moved, only
        the scrollbar changes)."""
        size = Size(self._width or self.content_width, self.total_height)
        if size == self.virtual_size:
            return
        viewport = self.scrollable_content_region.height
        crosses = (self.virtual_size.height > viewport) != (size.height > viewport)
        self._quiet += 1
        try:
            if self._laid_out and not crosses:
                # A changed height must not re-run the whole screen's layout (Widget.virtual_size is a layout
                # reactive): while the scrollbar's visibility stays the same only the scroll range changes.
                self.set_reactive(Widget.virtual_size, size)
                self._scroll_update(size)
                if repaint:
                    self.refresh()
            else:
                self.virtual_size = size
        finally:
            self._quiet -= 1

    # ----------------------------------------------------------------- following and the view anchor
    @property
    def following(self) -> bool:
        """True while the view sticks to the end (new output scrolls into view)."""
        return self._following

    @following.setter
    def following(self, value: bool) -> None:
        self._following = value
        if value:
            self._view_anchor = None
            if self.unseen_below:
                self.unseen_below = False
                self.refresh()

    def _capture_anchor(self) -> None:
        """Remember the item (and row) at the top line; called when the user moved the view."""
        found = None if self._following else self.item_at_line(int(self.scroll_y))
        if found is None:
            self._view_anchor = None
            return
        i, row = found
        self._view_anchor = ViewAnchor(self.items[i], row, self._table.heights[i], self._width)

    def _anchor_y(self) -> int | None:
        """Scroll position that puts the anchor back at the top line (``None`` without a live anchor)."""
        anchor = self._view_anchor
        if anchor is None:
            return None
        i = self._index.get(id(anchor.item))
        if i is None:
            return None
        h = self._table.heights[i]
        row = anchor.row if anchor.width == self._width else anchor.row * h // max(1, anchor.height)
        return self._table.top(i) + max(0, min(row, h - 1))

    def _scroll_quietly(self, y: float) -> None:
        self._quiet += 1
        try:
            self.scroll_to(y=y, animate=False, immediate=True)
        finally:
            self._quiet -= 1

    def _place(self) -> None:
        """Apply the height table: virtual size, then the scroll position (the end, or the anchor)."""
        self._sync_virtual_size()
        if self._following:
            self._scroll_quietly(max(0, self.total_height - self.scrollable_content_region.height))
        else:
            y = self._anchor_y()
            if y is not None:
                self._scroll_quietly(y)
        if not self._rescroll_pending:
            # The scroll above is clamped by the container size, which is stale until a pending layout
            # (e.g. the scrollbar appearing) has run: place again after the next refresh.
            self._rescroll_pending = True
            self.call_after_refresh(self._rescroll)
        self.refresh()

    def _rescroll(self) -> None:
        self._rescroll_pending = False
        target: float
        if self._following:
            target = self.max_scroll_y
        else:
            anchor_y = self._anchor_y()
            target = self.scroll_y if anchor_y is None else min(anchor_y, self.max_scroll_y)
        if int(self.scroll_y) != int(target):
            self._scroll_quietly(target)
            self._ensure_visible_rendered()

    def _settle_following(self) -> None:
        """A scrolled-up view that cannot keep its anchor because the end is in view follows the end again."""
        if self._following or self._view_anchor is None:
            return
        y = self._anchor_y()
        if y is not None and y > self.max_scroll_y and self.scroll_y >= self.max_scroll_y:
            self.following = True

    # ----------------------------------------------------------------- items
    def add(self, item: TranscriptItem, before: TranscriptItem | None = None) -> TranscriptItem:
        """Append an item, or insert it ``before`` another (a UI entry saved while a reply streams, pi 1.x
        0.80.4); a ``status`` notice right after another replaces it, as in pi."""
        at = self._index.get(id(before)) if before is not None else None
        last = self.items[-1] if self.items else None
        if at is None and isinstance(item, NoticeItem) and item.level == "status" and isinstance(last, NoticeItem) \
                and last.level == "status":
            last.text = item.text
            last.changed()
            self.item_changed(last)
            return last
        i = len(self.items) if at is None else at
        self.items.insert(i, item)
        self._table.insert(i, item.guess_height(self.ctx, self._width or 80))
        if at is None:
            self._index[id(item)] = i
        else:
            self._index = {id(it): k for k, it in enumerate(self.items)}
            self._dirty = {d if d < i else d + 1 for d in self._dirty}
        self._dirty.add(i)
        self._note_output(i)
        self._schedule_flush(item)
        return item

    def extend(self, items: Iterable[TranscriptItem]) -> None:
        """Append many items at once (loading a session): only heights are estimated now."""
        width = self._width or 80
        for item in items:
            self.items.append(item)
            self._index[id(item)] = len(self.items) - 1
            self._table.append(item.guess_height(self.ctx, width))
        self._note_output(len(self.items) - 1)
        self._place()
        self._ensure_visible_rendered()

    def replace_items(self, items: Iterable[TranscriptItem], from_end: bool = False) -> None:
        """Replace every item (the transcript rebuilt from the session: compaction, resync, switch) keeping a
        scrolled-up reader's place (issue 9: a compaction jumped the view to the end): the item at the top
        line is found again among ``items`` (same kind and text, same occurrence, counted from the end with
        ``from_end``: a session preview) and kept at the top at the same row; when the rebuild folds it under a
        collapsed summary, that summary is. A view that follows the end, or whose item is gone, is at the end."""
        new = list(items)
        found = None if self._following else self.item_at_line(int(self.scroll_y))
        anchor = None if found is None else find_anchor(self.items, found[0], found[1], new, self.ctx, from_end)
        self.clear()
        self.extend(new)
        if anchor is None:
            return
        item, row = anchor
        i = self._index[id(item)]
        self._following = False
        self._view_anchor = ViewAnchor(item, row, self._table.heights[i], self._width)
        self._place()
        self._ensure_visible_rendered()

    def clear(self) -> None:
        """Remove every item."""
        self.items.clear()
        self._table.clear()
        self._dirty.clear()
        self._index.clear()
        self._cached.clear()
        self._reflow.stop()
        self._background.cancel()
        self.following = True
        self._place()

    def remove_item(self, item: TranscriptItem) -> None:
        """Remove one item (e.g. an unfinished streaming message)."""
        i = self._index.get(id(item))
        if i is None:
            return
        anchor = self._view_anchor
        if anchor is not None and anchor.item is item:
            # Keep the view on what follows the removed item.
            k = i + 1 if i + 1 < len(self.items) else i - 1
            self._view_anchor = None if k < 0 else ViewAnchor(self.items[k], 0, self._table.heights[k], self._width)
        del self.items[i]
        self._table.delete(i)
        self._index = {id(it): k for k, it in enumerate(self.items)}
        self._cached.pop(id(item), None)
        self._dirty = {d if d < i else d - 1 for d in self._dirty if d != i}
        self._place()

    def item_changed(self, item: TranscriptItem, immediate: bool = False, new_output: bool = True) -> None:
        """``item``'s data changed; it re-renders on the next flush (or now with ``immediate``).

        ``new_output=False`` for display-only changes (expand/collapse toggles): they never raise the
        "new output below" line.
        """
        i = self._index.get(id(item))
        if i is None:
            return
        self._dirty.add(i)
        # A summary that folds items shows or hides them all: their heights become 0 or their best guess now
        # (exact once rendered in view), so the lines below the summary move at once and the anchor holds.
        width = self._width or 80
        for folded in item.fold_descendants():
            j = self._index.get(id(folded))
            if j is not None:
                self._table.set(j, folded.guess_height(self.ctx, width))
                self._dirty.add(j)
        if new_output:
            self._note_output(i)
        if immediate:
            self.flush()
        else:
            self._schedule_flush(item)

    def _note_output(self, i: int) -> None:
        """Item ``i`` got new output: flag it when its end is below a scrolled-up view."""
        if self._following or self.unseen_below or not self.items or i < 0:
            return
        if self._table.top(i) + self._table.heights[i] > int(self.scroll_y) + self._viewport_height():
            self.unseen_below = True
            self.refresh()

    def invalidate_all(self) -> None:
        """Theme or display flags changed: everything re-renders lazily (visible items now)."""
        self._dirty.update(range(len(self.items)))
        self.flush()

    def _schedule_flush(self, item: TranscriptItem) -> None:
        if self._flush_timer is None and self.is_mounted:
            streaming = isinstance(item, AssistantItem) and item.streaming
            self._flush_timer = self.set_timer(STREAM_FLUSH_INTERVAL if streaming else FLUSH_INTERVAL,
                                               self._timer_flush)

    def _timer_flush(self) -> None:
        self._flush_timer = None
        self.flush()
        if self.on_flush is not None:
            self.on_flush()  # e.g. the spinner steps with this repaint (StatusLine.join_frame)

    # ----------------------------------------------------------------- rendering
    def _visible_range(self, margin: int) -> tuple[int, int]:
        height = self._viewport_height()
        # Following: the view is the end, also before a pending layout has applied the scroll to it (a session just
        # loaded rendered its first screenful at the top of the transcript, where scroll_y still was).
        top = max(0, self.total_height - height) if self._following else int(self.scroll_y)
        first = self.item_at_line(max(0, top - margin))
        last = self.item_at_line(top + height + margin)
        lo = first[0] if first else max(0, len(self.items) - 1)
        hi = last[0] if last else len(self.items) - 1
        return lo, hi

    def _render_item(self, i: int, width: int) -> bool:
        """Render item ``i`` at ``width`` (a no-op when cached) and store its exact height; True if it changed.
        A long item that is not cheap to re-render goes to the background (``_renders_in_background``) and
        stays dirty, its old render painted, until ``_background_done``."""
        item = self.items[i]
        if self._background.busy(item):
            return False
        if not item.is_cached(self.ctx, width):
            if self._renders_in_background(item, width):
                self._background.request(item, width)
                return False
            item.strips(self.ctx, width)
            self._note_rendered(item)
        self._dirty.discard(i)
        return self._table.set(i, len(item.strips(self.ctx, width)))

    def _renders_in_background(self, item: TranscriptItem, width: int) -> bool:
        """True for an item rendered before whose latest render or whose text is long (``BIG_RENDER_LINES``: a
        collapsed 30,000-line prompt that Ctrl+O expands, tester2 #19), unless it is a streaming reply already
        rendered at ``width`` (then only its new blocks render: cheap). A first render is never in the background
        (nothing to paint meanwhile)."""
        hint = item.height_hint
        if hint is None or not self.is_mounted:
            return False
        if hint <= BIG_RENDER_LINES and item.estimate_height(width) <= BIG_RENDER_LINES:
            return False
        return not (isinstance(item, AssistantItem) and item.streaming and item.last_strips(width))

    def _background_done(self, item: TranscriptItem, width: int) -> None:
        """A background render of ``item`` at ``width`` finished (on the event loop): take its height if it is
        still the current render, then render (or queue) what else is in view and repaint."""
        i = self._index.get(id(item))
        if i is None or not self.is_mounted:
            return
        if width == self._width and item.is_cached(self.ctx, width):
            self._note_rendered(item)
            self._dirty.discard(i)
            if self._table.set(i, len(item.strips(self.ctx, width))):
                self._place()
        else:
            self._dirty.add(i)
        self._ensure_visible_rendered()
        self.refresh()

    def flush(self) -> None:
        """Render dirty items that are on screen (or all dirty ones while following the tail)."""
        if not self.is_mounted or not self.items:
            self._place()
            return
        if self._dirty:
            width = self._width or self.content_width
            lo, hi = self._visible_range(margin=self.size.height)
            for i in sorted(self._dirty):
                if i >= len(self.items):
                    self._dirty.discard(i)
                elif lo <= i <= hi or (self._following and i >= lo):
                    self._render_item(i, width)
                # else: off-screen and not following: it stays dirty (and its height a guess) until scrolled
                # into view.
            self._place()
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
                if (idx is not None and lo <= idx <= hi) or self._background.busy(old):
                    continue
                del self._cached[old_key]
                old.evict()

    def _ensure_visible_rendered(self, margin: int = 0) -> None:
        """Render the items in view (with ``margin`` lines above and below) at the current width; fix heights
        and scroll. The page around the view is rendered after the next repaint (``_render_margin``): the lines
        in view come first (issue 15: opening 10,000 messages rendered three screenfuls before the first)."""
        if not self.items or not self.is_mounted:
            return
        width = self._width or self.content_width
        # Items changed since the last flush wait for the pending one (it renders them and repaints): rendering a
        # streaming reply here too, after each scroll, rendered it twice per frame.
        wait = self._dirty if self._flush_timer is not None else ()
        if not margin and not self._margin_pending:
            self._margin_pending = True
            self.call_after_refresh(self._render_margin)
        for _ in range(6):
            lo, hi = self._visible_range(margin=margin)
            changed = False
            for i in range(lo, hi + 1):
                if i not in wait:
                    changed = self._render_item(i, width) or changed
            if not changed:
                break
            self._place()
        self._settle_following()

    def _render_margin(self) -> None:
        """Render one page above and below the view (ready for the next page key) once the view is painted: one
        item per call, nearest to the view first, each next one after the messages already waiting (a key pressed
        meanwhile waits for one item's render, not for a page of them). Which heights are taken now: see below."""
        self._margin_pending = False
        if not self.items or not self.is_mounted:
            return
        width = self._width or self.content_width
        lo, hi = self._visible_range(margin=self.size.height)
        view_lo, view_hi = self._visible_range(0)
        wait = self._dirty if self._flush_timer is not None else ()
        above = range(view_lo - 1, lo - 1, -1)
        below = range(view_hi + 1, hi + 1)
        for i in (k for pair in zip_longest(above, below) for k in pair if k is not None):
            item = self.items[i]
            if (i in wait or self._background.busy(item) or item.is_cached(self.ctx, width)
                    or self._renders_in_background(item, width)):  # long ones: in the background, once in view
                continue
            # An item above the view takes its height when it comes into view (``_render_item`` then finds the
            # render cached): taking it now moved the view's scroll offset under an unchanged screen, one more full
            # repaint per page. One below takes it now (only the scroll range and the scrollbar change): an end
            # estimated too short made the last page look like the end, and following it jumped over lines.
            strips = item.strips(self.ctx, width)
            self._note_rendered(item)
            if i > view_hi and self._table.set(i, len(strips)):
                self._dirty.discard(i)
                self._sync_virtual_size(repaint=False)
            self._margin_pending = True
            self.call_later(self._render_margin)
            return

    def on_resize(self, event: events.Resize) -> None:
        self._laid_out = True
        width = self.content_width
        if width != self._width:
            self._width = width
            self._reflow.start(width)
            # The items near the view get their estimates now, the rest between the next events (_reflow_step).
            lo, hi = self._visible_range(margin=2 * self._viewport_height())
            self._reflow.estimate(lo, hi)
            self._schedule_reflow()
        self._place()
        self._ensure_visible_rendered()

    def _schedule_reflow(self) -> None:
        if self._reflow.pending and not self._reflow_scheduled and self.is_mounted:
            self._reflow_scheduled = True
            self.call_later(self._reflow_step)

    def _reflow_step(self) -> None:
        """Redo one chunk of height estimates at the current width (after a resize), then the next one later."""
        self._reflow_scheduled = False
        if self._reflow.width != self._width:
            self._reflow.start(self._width)
        more = self._reflow.step()
        self._place()
        if more:
            self._schedule_reflow()
        else:
            self._ensure_visible_rendered()

    def on_mount(self) -> None:
        self._width = self.content_width

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if not self._quiet:
            # The user (wheel, scrollbar, keys) moved the view.
            self.following = new_value >= self.max_scroll_y - 1
            self._capture_anchor()
        if round(old_value) != round(new_value):
            if self._quiet:
                self.call_later(self._ensure_visible_rendered)
            else:
                # What the user's scroll brings into view renders before the next paint: one screen update per
                # page key (issue 15: 1.8 on average, the first showing the moved view with stale lines).
                self._ensure_visible_rendered()

    def _repaint_stale(self) -> None:
        """Render what ``render_line`` painted from a stale render, then repaint (even when no height moved)."""
        self._repaint_pending = False
        self._ensure_visible_rendered()
        self.refresh()

    def _line_source(self, y: int) -> Strip | None:
        """The item line row ``y`` of the view shows (a blank line past the end; ``None``: the "new output below"
        line). An item without a render at this width (a resize) or re-rendering in the background shows a line
        of its latest render at another width (``stand_in_line``: the old layout until the new one is ready)."""
        if self.unseen_below and not self._following and y == self._viewport_height() - 1:
            return None
        width = self._width or self.scrollable_content_region.width or self.size.width
        found = self.item_at_line(int(self.scroll_y) + y)
        if found is None:
            return blank_strip(width)
        i, row = found
        item = self.items[i]
        if self._background.busy(item):
            return stand_in_line(item, row, self._table.heights[i]) or blank_strip(width)
        if item.is_cached(self.ctx, width):
            strips = item.strips(self.ctx, width)
        else:
            # Changed since its last render (a streamed chunk) or never rendered here: paint the last render
            # until the new one is made (blank lines flashed the transcript empty while a reply streamed),
            # and repaint once it is.
            strips = item.last_strips(width)
            # A pending flush renders every visible item and repaints: a second render now would be wasted
            # (a streamed chunk arriving between a flush and the paint rendered the reply twice per frame).
            if not self._repaint_pending and self._flush_timer is None:
                self._repaint_pending = True
                self.call_later(self._repaint_stale)
            if not strips:
                return stand_in_line(item, row, self._table.heights[i]) or blank_strip(width)
        return strips[row] if row < len(strips) else blank_strip(width)

    def render_lines(self, crop: Region) -> list[Strip]:
        """Textual's ``Widget.render_lines``, with the finished lines of item lines painted before reused
        (``PaintedLines``: a following view scrolls every frame, and re-styling every row cost two thirds of it)."""
        return self._painted.render(self, crop, self._line_source, super().render_lines)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width or self.size.width
        if self.unseen_below and not self._following and y == self._viewport_height() - 1:
            return new_output_strip(self.ctx, NEW_OUTPUT_LABEL.format(key=self.bottom_key), width)
        cached = self._line_source(y)
        if cached is None:
            return blank_strip(width)
        return fresh_strip(cached, width)

    # ----------------------------------------------------------------- input
    def on_click(self, event: events.Click) -> None:
        if self.unseen_below and not self._following and event.y == self._viewport_height() - 1:
            self.scroll_end_now()
            return
        found = self.item_at_line(int(self.scroll_y) + event.y)
        if found is None:
            return
        item = self.items[found[0]]
        if item.clickable and item.toggle():
            self.item_changed(item, immediate=True, new_output=False)
            self.post_message(self.ItemToggled(item))

    def scroll_page(self, pages: float) -> None:
        """Scroll by ``pages`` screens (negative: up). Used by PageUp/PageDown from the prompt."""
        height = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=self.scroll_y + pages * height, animate=False, immediate=True)
        self.following = self.scroll_y >= self.max_scroll_y - 1
        self._capture_anchor()

    def scroll_home_now(self) -> None:
        """Jump to the first line (stops following the tail unless everything fits)."""
        self.scroll_to(y=0, animate=False, immediate=True)
        self.following = self.max_scroll_y <= 1
        self._capture_anchor()

    def scroll_end_now(self) -> None:
        """Jump to the last line and follow the tail again."""
        self.following = True
        self._place()
        self._ensure_visible_rendered()

    def visible_text(self) -> str:
        """Plain text of the lines currently on screen (tests and debugging)."""
        height = self.scrollable_content_region.height or self.size.height
        return "\n".join(self.render_line(y).text.rstrip() for y in range(height))
