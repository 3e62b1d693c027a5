"""Issue 9, the rebuild half of the transcript class: ``Transcript.replace_items`` (a compaction, a resync, a
session switch rebuild the transcript from the session) mixed with resizes, scrolls, Ctrl+O / Ctrl+T and appends.

After each rebuild a scrolled-up reader still sees the same message at the top, at the same row, and a reader who
followed the end still follows it; at the end the transcript's lines are exactly a fresh render of its items at
the final width, from the top to the end. The items a rebuild gets are new objects with the same content (what
``transcript_builder`` makes from the session), sometimes with one more message at the end.

Fixed budget: derandomized, 8 examples.
"""

from __future__ import annotations

import asyncio
import copy
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import TranscriptItem

from .helpers import make_app, make_session, wait_until
from .test_transcript_properties import fresh_lines, make_item, screen

OPS = st.one_of(
    st.tuples(st.just("resize"), st.integers(40, 130), st.integers(10, 40)),
    st.tuples(st.just("key"), st.sampled_from(["pageup", "pageup", "pagedown", "ctrl+home", "ctrl+end",
                                              "ctrl+o", "ctrl+t"]), st.just(0)),
    st.tuples(st.just("append"), st.sampled_from(["user", "assistant", "tool"]), st.integers(0, 50)),
    st.tuples(st.just("replace"), st.booleans(), st.integers(0, 50)),
)


def rebuilt(items: list[TranscriptItem]) -> list[TranscriptItem]:
    """New item objects with the same content and state (expanded or not), nothing measured or rendered."""
    out = []
    for item in items:
        clone = copy.copy(item)
        clone.evict()
        clone._measured = {}
        clone._measured_for = None
        clone._last_measure = None
        out.append(clone)
    return out


async def check_fresh(pilot: Any, t: Transcript) -> None:
    """Every screen from the top to the end equals the fresh render's lines at that position."""
    expected = fresh_lines(t, t._width)
    height = t.scrollable_content_region.height
    await pilot.press("ctrl+home")
    await pilot.pause()
    for _ in range(len(expected) // max(1, height - 1) + 2):
        y = int(t.scroll_y)
        shown = screen(t)
        want = (expected[y:y + height] + [""] * height)[:height]
        if t.unseen_below and not t.following:
            shown, want = shown[:-1], want[:-1]
        assert shown == want, f"lines {y}..{y + height} differ from a fresh render at width {t._width}"
        if y >= t.max_scroll_y:
            break
        await pilot.press("pagedown")
        await pilot.pause()
    assert t.total_height == len(expected)


async def run_ops(tmp: Path, base: list[tuple[str, int]], ops: list[tuple[str, Any, Any]]) -> None:
    session, _ = make_session(tmp)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        t = app.transcript
        t.extend(make_item(kind, seed) for kind, seed in base)
        await pilot.pause()
        for op, a, b in ops:
            if op == "resize":
                await pilot.resize_terminal(a, b)
            elif op == "key":
                await pilot.press(a)
            elif op == "append":
                t.add(make_item(a, b))
            else:
                following = t.following
                top = None if following else t.item_at_line(int(t.scroll_y))
                new = rebuilt(list(t.items)) + ([make_item("assistant", b)] if a else [])
                t.replace_items(new)
                await pilot.pause()
                if following:
                    assert t.following and t.scroll_y >= t.max_scroll_y, "a rebuild left the end"
                elif top is not None:
                    now = t.item_at_line(int(t.scroll_y))
                    assert now is not None and t.items[now[0]] is new[top[0]], "a rebuild moved the view"
                    assert now[1] == top[1] or t.scroll_y >= t.max_scroll_y, "a rebuild moved the top row"
            await pilot.pause()
        await pilot.pause(0.06)
        await check_fresh(pilot, t)


@settings(max_examples=8, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(base=st.lists(st.tuples(st.sampled_from(["user", "assistant", "tool"]), st.integers(0, 50)),
                     min_size=2, max_size=8),
       ops=st.lists(OPS, min_size=1, max_size=10).filter(lambda ops: any(op[0] == "replace" for op in ops)))
def test_rebuilds_keep_the_reader_in_place_and_render_like_a_fresh_transcript(
    base: list[tuple[str, int]], ops: list[tuple[str, Any, Any]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run_ops(Path(tmp), base, ops))
