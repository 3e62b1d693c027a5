"""The transcript reuses the finished lines it painted (issue 15, ``painted_lines``): every paint equals Textual's own
rendering of the same rows, while a frame that only moves the view re-styles no line it painted before, and a
growing reply re-styles only its new or changed lines."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget

from pi_tui.ai.types import AssistantMessage, TextContent
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import AssistantItem, NoticeItem, UserItem

TEXT = "\n\n".join(
    [f"Paragraph {n}: " + " ".join(f"word{k}" for k in range(30)) for n in range(12)]
    + ["1. one\n2. two\n   - nested", "```python\ndef f(x):\n    return x + 1\n```", "| a | b |\n|---|---|\n| 1 | 2 |"]
)


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.ctx = RenderContext(find_theme("dark"))

    def compose(self) -> ComposeResult:
        self.transcript = Transcript(self.ctx)
        yield self.transcript


def msg(text: str) -> AssistantMessage:
    return AssistantMessage(content=[TextContent(text=text)])


def rows(strips: list[Any]) -> list[list[tuple[str, str]]]:
    return [[(seg.text, str(seg.style)) for seg in strip] for strip in strips]


def textual_paint(t: Transcript, crop: Region) -> list[list[tuple[str, str]]]:
    """Textual's own rendering of ``crop`` (no reused lines): every row styled afresh."""
    t._styles_cache.clear()
    return rows(Widget.render_lines(t, crop))


def full(t: Transcript) -> Region:
    return Region(0, 0, t.size.width, t.size.height)


@pytest.mark.anyio
async def test_a_frame_that_only_scrolls_restyles_no_line_painted_before() -> None:
    app = Host()
    async with app.run_test(size=(80, 20)) as pilot:
        t = app.transcript
        t.add(UserItem("question"))
        t.add(AssistantItem(msg(TEXT)))
        await pilot.pause()
        t.flush()
        t.scroll_home_now()
        await pilot.pause()
        painted = t._painted
        t.render_lines(full(t))
        for step in range(1, 6):
            t.scroll_to(y=step, animate=False, immediate=True)
            misses = painted.misses
            got = rows(t.render_lines(full(t)))
            assert painted.misses - misses <= 1  # at most the row that came into view
            assert got == textual_paint(t, full(t))


@pytest.mark.anyio
async def test_a_growing_reply_restyles_only_its_new_lines() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        t = app.transcript
        item = t.add(AssistantItem(msg(""), streaming=True))
        assert isinstance(item, AssistantItem)
        words = TEXT.split(" ")
        shown = ""
        restyled = 0
        frames = 0
        for n in range(1, 120, 4):
            shown = " ".join(words[:n])
            item.update(msg(shown))
            t.item_changed(item, immediate=True)
            await pilot.pause()
            misses = t._painted.misses
            got = rows(t.render_lines(full(t)))
            restyled += t._painted.misses - misses
            frames += 1
            assert got == textual_paint(t, full(t)), shown
        # A paragraph growing at the bottom of a following view changes its last line or two per frame; without the
        # reused lines every frame re-styled all 24 rows.
        assert restyled < frames * 6


@pytest.mark.anyio
async def test_lines_painted_before_follow_a_theme_or_width_change() -> None:
    app = Host()
    async with app.run_test(size=(80, 20)) as pilot:
        t = app.transcript
        t.add(AssistantItem(msg(TEXT)))
        t.add(NoticeItem("warning", "careful"))
        await pilot.pause()
        before = rows(t.render_lines(full(t)))
        app.ctx.set_theme(find_theme("light"))
        t.invalidate_all()
        await pilot.pause()
        after = rows(t.render_lines(full(t)))
        assert after != before
        assert after == textual_paint(t, full(t))
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert rows(t.render_lines(full(t))) == textual_paint(t, full(t))


@pytest.mark.anyio
@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["grow", "scroll", "notice", "end", "crop"]),
                          st.integers(min_value=0, max_value=60)), min_size=1, max_size=12))
async def test_every_paint_equals_textuals_own(steps: list[tuple[str, int]]) -> None:
    app = Host()
    async with app.run_test(size=(70, 16)) as pilot:
        t = app.transcript
        item = t.add(AssistantItem(msg(""), streaming=True))
        assert isinstance(item, AssistantItem)
        length = 0
        for action, n in steps:
            if action == "grow":
                length = min(len(TEXT), length + 40 * n + 1)
                item.update(msg(TEXT[:length]))
                t.item_changed(item, immediate=True)
            elif action == "scroll":
                t.scroll_to(y=n, animate=False, immediate=True)
            elif action == "notice":
                t.add(NoticeItem("info", f"notice {n}"))
                t.flush()
            elif action == "end":
                t.scroll_end_now()
            await pilot.pause()
            crop = full(t) if action != "crop" else Region(n % 10, n % 7, t.size.width - n % 10, 5)
            assert rows(t.render_lines(crop)) == textual_paint(t, crop), (action, n)
