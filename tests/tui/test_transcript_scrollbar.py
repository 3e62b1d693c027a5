"""The transcript's scrollbar repaints only when its thumb is drawn differently (issue 15: while a reply streamed
and the view followed it, Textual's ScrollBar repainted on every frame although the thumb moved every few lines),
and it is drawn exactly as Textual's own ScrollBar draws it at every step. A repaint styles only rows whose segment
(track, thumb, an end glyph) it has not drawn before (every row of the bar went through Textual's styling chain on
each thumb move)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widget import Widget

from pi_tui.ai.types import AssistantMessage, TextContent
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import AssistantItem, UserItem
from pi_tui.tui.widgets.transcript_scrollbar import TranscriptScrollBar


class PlainTranscript(Transcript):
    """The same transcript with Textual's own scrollbar (the reference drawing)."""

    vertical_scrollbar = Widget.vertical_scrollbar  # type: ignore[assignment]


class Host(App[None]):
    def __init__(self, plain: bool = False) -> None:
        super().__init__()
        self.ctx = RenderContext(find_theme("dark"))
        self.plain = plain

    def compose(self) -> ComposeResult:
        self.transcript = (PlainTranscript if self.plain else Transcript)(self.ctx)
        yield self.transcript


def _items() -> list[Any]:
    out: list[Any] = []
    for i in range(150):
        out.append(UserItem(f"question {i}"))
        out.append(AssistantItem(AssistantMessage(content=[TextContent(text=f"Answer {i}\n\nmore {i}")])))
    return out


def _screen(app: App[Any]) -> list[list[tuple[str, str]]]:
    return [[(seg.text, str(seg.style)) for seg in strip] for strip in app.screen._compositor.render_strips()]


@pytest.mark.anyio
async def test_the_scrollbar_is_drawn_like_textuals_and_repaints_only_when_its_thumb_moves() -> None:
    screens: list[list[Any]] = []
    renders: dict[bool, int] = {}
    rows: dict[bool, int] = {}
    for plain in (False, True):
        app = Host(plain)
        async with app.run_test(size=(60, 20)) as pilot:
            t = app.transcript
            t.extend(_items())
            await pilot.pause()
            bar = t.vertical_scrollbar
            assert isinstance(bar, TranscriptScrollBar) != plain
            count = 0
            styled = 0
            set_dirty = bar._set_dirty
            render_line = bar.render_line

            def counting(*regions: Any, set_dirty: Any = set_dirty) -> Any:  # a repaint (Widget.refresh)
                nonlocal count
                count += 1
                return set_dirty(*regions)

            def styling(y: int, render_line: Any = render_line) -> Any:
                nonlocal styled
                styled += 1
                return render_line(y)

            bar._set_dirty = counting  # type: ignore[method-assign]
            bar.render_line = styling  # type: ignore[method-assign]
            shots = []
            for step in range(40):  # one line at a time: the thumb moves by an eighth of a cell every few lines
                t.scroll_to(y=t.max_scroll_y - step, animate=False, immediate=True)
                await pilot.pause()
                shots.append(_screen(app))
            t.scroll_home_now()
            await pilot.pause()
            shots.append(_screen(app))
            screens.append(shots)
            renders[plain] = count
            rows[plain] = styled
            height = bar.size.height
    assert screens[0] == screens[1]
    assert renders[False] < renders[True] / 2, renders
    # Each repaint of Textual's bar styles every row; this one styles a row only for a segment not drawn before.
    assert rows[False] < renders[False] * height / 4, (renders, rows)
