"""A streaming reply renders at most once per transcript flush (issue 15): chunks arriving between a flush and
the next paint, or a scroll made by following the tail, used to render the whole reply again right away (each
frame rendered it twice), although the pending flush renders it anyway. The screen still ends identical to a
one-shot render."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult

from pi_tui.ai.types import AssistantMessage, TextContent
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import AssistantItem

TEXT = "\n\n".join(f"Paragraph {n}: " + " ".join(f"word{k}" for k in range(25)) for n in range(30))


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.ctx = RenderContext(find_theme("dark"))

    def compose(self) -> ComposeResult:
        self.transcript = Transcript(self.ctx)
        yield self.transcript


def msg(text: str) -> AssistantMessage:
    return AssistantMessage(content=[TextContent(text=text)])


@pytest.mark.anyio
async def test_a_streaming_reply_renders_once_per_flush() -> None:
    app = Host()
    async with app.run_test(size=(80, 20)) as pilot:
        t = app.transcript
        item = t.add(AssistantItem(msg(""), streaming=True))
        assert isinstance(item, AssistantItem)
        builds = 0
        flushes = 0
        build, flush = item.build, t.flush

        def counting_build(*args: Any) -> Any:
            nonlocal builds
            builds += 1
            return build(*args)

        def counting_flush() -> None:
            nonlocal flushes
            flushes += 1
            flush()

        item.build = counting_build  # type: ignore[method-assign]
        t.flush = counting_flush  # type: ignore[method-assign]
        for i in range(1, len(TEXT) + 1, 9):
            item.update(msg(TEXT[:i]))
            t.item_changed(item)
            t.refresh()  # something else repaints between two flushes (a spinner, a key, a scroll)
            await pilot.pause()
        assert t.following and t.scroll_y > 0  # the view followed the tail (its scrolls happened)
        assert flushes > 5
        assert builds <= flushes + 1, f"{builds} renders for {flushes} flushes"
        item.update(msg(TEXT), streaming=False)
        t.item_changed(item, immediate=True)
        await pilot.pause()
        fresh = AssistantItem(msg(TEXT))
        width = t._width
        assert [s.text for s in item.strips(app.ctx, width)] == [s.text for s in fresh.strips(app.ctx, width)]
