"""Re-wrapping the transcript without making keys wait (issue 15; tester finding #12).

After a width change (a terminal resize) or while a very long item changes, three things keep the app responsive:

- ``stand_in_strip``: a line of an item that has no render at the current width yet is painted from its latest
  render at any width (cropped or padded), so the old layout stays visible until the new one is ready instead of
  blank rows (seen: the whole transcript empty for seconds after rapid resizes while a 40 KB reply streamed).
- ``Reflow``: the estimated heights of the items away from the view are redone in chunks between events, not
  all at once (10,000 estimates took most of a 250-450 ms resize); until its turn an item keeps its height at the
  old width. Items whose exact height at the new width is known get it as before (``guess_height``).
- ``BackgroundRenders``: an item whose last render was long (``BIG_RENDER_LINES``: an expanded 600-line read, a
  5,000-line prompt, a 40 KB reply) is re-rendered in a worker thread, one at a time, while the event loop goes
  on painting its stand-in and taking keys (seen: a resize blocked key echo for 1-4 s). The transcript never
  renders a busy item itself and applies the result on the event loop (``on_done``).

No Textual imports here beyond ``Strip``: the transcript composes these with explicit callbacks.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from typing import Any

from rich.segment import Segment
from textual.strip import Strip

from pi_tui.tui.widgets.item_base import TranscriptItem
from pi_tui.tui.widgets.message_render import NULL_STYLE, RenderContext
from pi_tui.tui.widgets.transcript_geometry import HeightTable

BIG_RENDER_LINES = 300  # an item whose latest render had more lines re-renders in the background
REFLOW_CHUNK = 1500  # height estimates redone per event-loop turn after a width change


def stand_in_line(item: TranscriptItem, row: int, height: int) -> Strip | None:
    """Line ``row`` of ``item`` (``height`` lines in the height table) from its latest render at any width (the
    caller crops or pads it): the top half of the item is aligned at its top, the bottom half at its bottom (the
    tail of a followed reply stays the tail). ``None`` when there is no such line (no render: a blank line)."""
    old = item.latest_strips()
    if not old:
        return None
    k = row if row < height // 2 else len(old) - (height - row)
    return old[k] if 0 <= k < len(old) else None


class Reflow:
    """Height estimates redone lazily after a width change.

    ``start(width)`` after the transcript's width changed; ``estimate(lo, hi)`` redoes items ``lo..hi`` now (the
    ones near the view); ``step()`` redoes the next ``REFLOW_CHUNK`` items from a cursor and returns True while
    some remain. ``guess(i, width)`` gives item ``i``'s best height (``TranscriptItem.guess_height``)."""

    def __init__(self, table: HeightTable, count: Callable[[], int], guess: Callable[[int, int], int]) -> None:
        self._table = table
        self._count = count
        self._guess = guess
        self.width = 0
        self.cursor: int | None = None  # next item to redo; None when every estimate is at ``width``

    @property
    def pending(self) -> bool:
        """True while some heights are still estimates made at an older width."""
        return self.cursor is not None

    def start(self, width: int) -> None:
        """The width changed: every estimate is to be redone from the first item on."""
        self.width = width
        self.cursor = 0 if self._count() else None

    def estimate(self, lo: int, hi: int) -> bool:
        """Redo items ``lo..hi`` (inclusive) at the current width now; True when a height changed."""
        changed = False
        for i in range(max(0, lo), min(hi, self._count() - 1) + 1):
            changed = self._table.set(i, self._guess(i, self.width)) or changed
        return changed

    def step(self) -> bool:
        """Redo the next chunk; True while items remain (call again after the next events)."""
        if self.cursor is None:
            return False
        n = self._count()
        end = min(n, self.cursor + REFLOW_CHUNK)
        self.estimate(self.cursor, end - 1)
        self.cursor = end if end < n else None
        return self.cursor is not None

    def stop(self) -> None:
        """Nothing left to redo (the items were replaced)."""
        self.cursor = None


class BackgroundRenders:
    """Renders long items in a worker thread, one at a time (see the module docstring).

    ``request(item, width)`` queues ``item`` (at most once); ``busy(item)`` is True from then until
    ``on_done(item, width)`` has been called on the event loop for it. ``cancel()`` forgets the queue (a job
    already running finishes, its result is dropped)."""

    def __init__(self, ctx: Callable[[], RenderContext], on_done: Callable[[Any, int], None]) -> None:
        self._ctx = ctx
        self._on_done = on_done
        self._queue: list[tuple[Any, int]] = []
        self._busy: dict[int, Any] = {}  # id(item) -> item, queued or running
        self._running: Any = None
        self._epoch = 0
        self._thread_ctx: RenderContext | None = None
        self._thread_ctx_of: tuple[int, int] | None = None  # (id(ctx), generation) the copy was made from
        self.jobs = 0  # renders done in the background (tests)

    def busy(self, item: Any) -> bool:
        """True while ``item`` is queued or being rendered in the background."""
        return id(item) in self._busy

    @property
    def idle(self) -> bool:
        """True when nothing is queued or running."""
        return not self._busy

    def request(self, item: Any, width: int) -> None:
        """Render ``item`` at ``width`` in the background (no-op when it already is queued or running)."""
        if id(item) in self._busy:
            return
        self._busy[id(item)] = item
        self._queue.append((item, width))
        self._next()

    def cancel(self) -> None:
        """Drop the queue; a running render finishes and is ignored."""
        self._epoch += 1
        self._queue.clear()
        self._busy = {id(self._running): self._running} if self._running is not None else {}

    def _context(self) -> RenderContext:
        """A copy of the render context with its own Rich console (the event loop renders with the original's
        meanwhile); same theme, flags and ``generation``, so its renders count as the original's."""
        ctx = self._ctx()
        key = (id(ctx), ctx.generation)
        if self._thread_ctx is None or self._thread_ctx_of != key:
            clone = copy.copy(ctx)
            clone._console = None
            clone.console  # noqa: B018 - built here, on the event loop, not in the thread
            self._thread_ctx, self._thread_ctx_of = clone, key
        return self._thread_ctx

    def _next(self) -> None:
        if self._running is not None or not self._queue:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (not mounted): nothing renders in the background
            self._queue.clear()
            self._busy.clear()
            return
        item, width = self._queue.pop(0)
        self._running = item
        ctx, epoch = self._context(), self._epoch
        future = loop.run_in_executor(None, item.strips, ctx, width)
        future.add_done_callback(lambda fut: self._finished(fut, item, width, epoch))

    def _finished(self, future: asyncio.Future[Any], item: Any, width: int, epoch: int) -> None:
        self._running = None
        self._busy.pop(id(item), None)
        if not future.cancelled():
            future.exception()  # a render that raised is rendered again (and reported) on the event loop
        self.jobs += 1
        try:
            if epoch == self._epoch:
                self._on_done(item, width)
        finally:
            self._next()


def fresh_strip(cached: Strip, width: int) -> Strip:
    """A new ``Strip`` with ``cached``'s segments, ``width`` cells wide, for ``render_line``: Textual caches
    crop/extend results on the strip itself (often the strip itself, a reference cycle), which would leave every
    cached line to the full garbage collector (bench: 58 gen-2 collections of ~75 ms while paging through 2,000
    messages)."""
    fresh = Strip(list(cached), cached.cell_length)
    return fresh if cached.cell_length == width else fresh.crop_extend(0, width, None)


def new_output_strip(ctx: RenderContext, label: str, width: int) -> Strip:
    """The "new output below" line: ``label`` centred in the accent colour on ``selectedBg``."""
    t = ctx.theme
    text = f" {label} "[:width]
    left = max(0, (width - len(text)) // 2)
    style = t.fg("accent", bold=True) + t.bg("selectedBg")
    segments = [Segment(" " * left, NULL_STYLE), Segment(text, style),
                Segment(" " * max(0, width - left - len(text)), NULL_STYLE)]
    return Strip(segments, width)
