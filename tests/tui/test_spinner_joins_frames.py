"""While a reply streams, the spinner steps with the transcript's repaints (issue 15): ``Transcript.on_flush`` calls
``StatusLine.join_frame`` after each coalesced flush, which takes the spinner's next step when it is nearly due, and
the spinner's own timer then skips that step, so the two are painted in one screen update instead of two."""

from __future__ import annotations

import asyncio
import time

import pytest
from textual.app import App, ComposeResult

from pi_tui.ai.types import AssistantMessage, TextContent
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.status_line import WORKING, StatusLine
from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import AssistantItem


class Host(App[None]):
    def __init__(self, clock: Clock | None = None) -> None:
        super().__init__()
        self.ctx = RenderContext(find_theme("dark"))
        self.clock = clock

    def compose(self) -> ComposeResult:
        self.transcript = Transcript(self.ctx)
        self.status = StatusLine(find_theme("dark"), clock=self.clock.monotonic if self.clock else time.monotonic)
        self.transcript.on_flush = self.status.join_frame
        yield self.transcript
        yield self.status


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.mark.anyio
async def test_a_step_taken_with_a_repaint_is_not_taken_again_by_the_timer() -> None:
    clock = Clock()
    app = Host(clock)
    async with app.run_test(size=(60, 12)) as pilot:
        st = app.status
        st.show(WORKING)
        await pilot.pause()
        frame = st._frame
        clock.now += 1
        st.join_frame()  # due: steps now, with the transcript's repaint
        assert st._frame == frame + 1
        clock.now += 0.05
        st._tick()  # the timer's tick right after: already taken
        st.join_frame()  # another repaint too soon after the last step: not due
        assert st._frame == frame + 1
        clock.now += st.working_interval
        st._tick()  # nothing joined meanwhile: the timer steps on its own
        assert st._frame == frame + 2
        st.clear()
        clock.now += 1
        st.join_frame()  # no spinner shown: nothing to step
        assert st._frame == frame + 2


@pytest.mark.anyio
async def test_the_transcript_calls_on_flush_after_a_coalesced_flush() -> None:
    app = Host()
    flushes = 0

    def count() -> None:
        nonlocal flushes
        flushes += 1

    async with app.run_test(size=(60, 12)) as pilot:
        app.transcript.on_flush = count
        item = app.transcript.add(AssistantItem(AssistantMessage(content=[TextContent(text="")]), streaming=True))
        assert isinstance(item, AssistantItem)
        item.update(AssistantMessage(content=[TextContent(text="Hello there")]))
        app.transcript.item_changed(item)
        for _ in range(200):
            if flushes:
                break
            await asyncio.sleep(0.02)
        await pilot.pause()
        assert flushes >= 1
        assert "Hello there" in app.transcript.visible_text()
