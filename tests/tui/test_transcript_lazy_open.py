"""Opening a long transcript renders what is in view first, the page around it after the repaint, and every item
stays reachable by paging (issue 15); the app's start turns the garbage collector back on however it ends."""

from __future__ import annotations

import gc

import pytest

from pi_tui.tui import launch
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
        await pilot.pause()
        await pilot.pause(0.05)
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
