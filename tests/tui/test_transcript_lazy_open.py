"""Opening a long transcript renders what is in view first, the page around it after the repaint, and every item
stays reachable by paging (issue 15); the app's start turns the garbage collector back on however it ends."""

from __future__ import annotations

import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.tui import launch
from pi_tui.tui.widgets.transcript_items import UserItem
from tests.tui.test_transcript import Host, many_items


def _in_view(t: object) -> list[int]:
    lo, hi = t._visible_range(0)  # type: ignore[attr-defined]
    return list(range(lo, hi + 1))


@pytest.mark.anyio
async def test_only_the_view_is_rendered_before_the_first_repaint_then_a_page_around_it() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        t = app.transcript
        items = many_items(150)
        t.extend(items)
        width = t._width
        in_view = _in_view(t)
        assert all(items[i].is_cached(app.ctx, width) for i in in_view)
        assert t.render_count <= len(in_view) + 4, "only the lines in view are rendered before the first paint"
        for _ in range(100):  # the page around the view is rendered one item per message after the repaint
            await pilot.pause(0.01)
            if not t._margin_pending:
                break
        lo, _ = t._visible_range(t.size.height)
        assert lo < in_view[0] and all(items[i].is_cached(app.ctx, width) for i in range(lo, in_view[0])), (
            "the page above the view is ready for PageUp after the repaint")
        assert t.render_count < 60
        # every item is reachable by paging up from the end
        seen: set[int] = set(_in_view(t))
        for _ in range(5000):
            if t.scroll_y <= 0:
                break
            t.scroll_page(-1)
            await pilot.pause()
            seen.update(_in_view(t))
        assert t.scroll_y == 0 and seen == set(range(len(items)))
        assert "question 0" in t.visible_text()


def test_the_start_pause_of_the_collector_ends_however_the_start_ends() -> None:
    assert gc.isenabled()
    launch.pause_gc_for_start()
    assert not gc.isenabled()
    launch.resume_gc()
    assert gc.isenabled()
    launch.pause_gc_for_start()
    launch.freeze_heap()
    assert gc.isenabled()
    gc.unfreeze()
    gc.disable()  # a collector that was off before stays off
    try:
        launch.pause_gc_for_start()
        launch.resume_gc()
        assert not gc.isenabled()
    finally:
        gc.enable()


@settings(max_examples=80, derandomize=True, deadline=None)
@given(text=st.text(alphabet="ab \n", max_size=400), width=st.integers(min_value=1, max_value=200))
def test_height_estimates_are_the_text_formula_and_follow_changes(text: str, width: int) -> None:
    """The estimate keeps its formula (2 + one row per line + one more per full width of a line) while the line
    lengths are kept between resizes; a changed item is estimated from its new text."""
    item = UserItem(text)
    w = max(10, width - 2)
    assert item.estimate_height(width) == 2 + sum(1 + len(line) // w for line in text.split("\n"))
    assert item.estimate_height(width + 7) == 2 + sum(1 + len(line) // max(10, width + 5) for line in text.split("\n"))
    item.text = text + "\n" + "x" * 300
    item.changed()
    assert item.estimate_height(width) == 2 + sum(1 + len(line) // w for line in item.text.split("\n"))
