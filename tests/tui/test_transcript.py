"""The virtualised transcript: lazy rendering, following the tail, streaming equality, case 24, clicks."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from pi_tui.ai.types import AssistantMessage, TextContent
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import ArtifactItem, AssistantItem, ToolItem, UserItem


class Host(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.ctx = RenderContext(find_theme("dark"))

    def compose(self) -> ComposeResult:
        self.transcript = Transcript(self.ctx)
        yield self.transcript


def msg(text: str) -> AssistantMessage:
    return AssistantMessage(content=[TextContent(text=text)])


def many_items(n: int) -> list:
    items = []
    for i in range(n):
        items.append(UserItem(f"question {i}"))
        items.append(AssistantItem(msg(f"Answer **{i}**\n\n```python\nprint({i})\n```\n\nDone {i}.")))
    return items


@pytest.mark.anyio
async def test_large_session_renders_only_what_is_visible() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        t = app.transcript
        t.extend(many_items(1000))
        await pilot.pause()
        assert t.render_count < 40  # 2,000 items, only the last screenfuls rendered
        assert "Done 999." in t.visible_text()
        assert t.following
        t.scroll_page(-3)
        await pilot.pause()
        assert not t.following
        t.scroll_end_now()
        await pilot.pause()
        assert t.following and "Done 999." in t.visible_text()
        t.scroll_home_now()
        await pilot.pause()
        assert "question 0" in t.visible_text()


@pytest.mark.anyio
async def test_streamed_render_equals_one_shot_render() -> None:
    text = ("Intro paragraph.\n\n```python\ndef f():\n    return 1\n```\n\n- a\n- b\n\n| x | y |\n|---|---|\n"
            "| 1 | 2 |\n\nThe end.")
    app = Host()
    async with app.run_test(size=(90, 40)) as pilot:
        t = app.transcript
        streamed = t.add(AssistantItem(msg(""), streaming=True))
        assert isinstance(streamed, AssistantItem)
        for i in range(1, len(text) + 1, 7):
            streamed.update(msg(text[:i]))
            t.item_changed(streamed)
            await pilot.pause()
        streamed.update(msg(text), streaming=False)
        t.item_changed(streamed, immediate=True)
        one_shot = AssistantItem(msg(text))
        width = t._width
        assert [s.text for s in streamed.strips(app.ctx, width)] == [s.text for s in one_shot.strips(app.ctx, width)]


@pytest.mark.anyio
async def test_following_stops_when_scrolled_up_and_offscreen_stream_is_not_rendered() -> None:
    app = Host()
    async with app.run_test(size=(80, 20)) as pilot:
        t = app.transcript
        t.extend(many_items(50))
        live = t.add(AssistantItem(msg("start"), streaming=True))
        await pilot.pause(0.1)
        t.scroll_page(-5)
        await pilot.pause()
        for _ in range(200):  # the page around the view is rendered after the repaint, an item at a time (issue 15)
            await pilot.pause(0.01)
            if not t._margin_pending:
                break
        assert not t.following
        before = t.render_count
        for i in range(20):
            live.update(msg("start " + "word " * i))  # type: ignore[union-attr]
            t.item_changed(live)
            await pilot.pause(0.05)
        assert t.render_count == before  # the off-screen streaming item was not re-rendered
        t.scroll_end_now()
        for _ in range(100):  # a flush still pending (STREAM_FLUSH_INTERVAL) renders the reply: wait for it
            await pilot.pause(0.02)
            if "word word" in t.visible_text():
                break
        assert "word word" in t.visible_text()


@pytest.mark.anyio
async def test_case24_streamed_code_block_survives_theme_change() -> None:
    """Case 24: a streamed fenced code block still shows its code after a theme change / recompose."""
    chunks = ["Example:\n\n```python\n", "print('a')\n", "print('b')\n", "```\n", "\nDone.\n"]
    app = Host()
    async with app.run_test(size=(80, 20)) as pilot:
        t = app.transcript
        item = t.add(AssistantItem(msg(""), streaming=True))
        text = ""
        for c in chunks:
            text += c
            item.update(msg(text))  # type: ignore[union-attr]
            t.item_changed(item)
            await pilot.pause()
        item.update(msg(text), streaming=False)  # type: ignore[union-attr]
        t.item_changed(item, immediate=True)
        await pilot.pause()
        shown = t.visible_text()
        assert "print('a')" in shown and "print('b')" in shown and "Done." in shown
        app.ctx.set_theme(find_theme("light"))
        app.theme = "textual-light"
        t.invalidate_all()
        t.refresh(recompose=True)
        await pilot.pause()
        shown = t.visible_text()
        assert "print('a')" in shown and "print('b')" in shown and "Done." in shown


@pytest.mark.anyio
async def test_click_toggles_tool_and_artifact() -> None:
    app = Host()
    async with app.run_test(size=(80, 40)) as pilot:
        t = app.transcript
        tool = ToolItem("c1", "read", {"path": "x.py"})
        tool.status = "done"
        tool.result_text = "\n".join(f"line {i}" for i in range(30))
        t.add(tool)
        art = ArtifactItem("plan", "text", "\n".join(f"step {i}" for i in range(20)))
        t.add(art)
        await pilot.pause(0.1)
        assert "line 15" not in t.visible_text()
        top = t.item_top(tool)
        assert top is not None
        await pilot.click(Transcript, offset=(5, top + 1 - int(t.scroll_y)))
        await pilot.pause()
        assert tool.expanded
        t.scroll_end_now()
        await pilot.pause()
        art_top = t.item_top(art)
        assert art_top is not None
        await pilot.click(Transcript, offset=(5, art_top - int(t.scroll_y)))
        await pilot.pause()
        assert art.expanded
        t.scroll_end_now()
        await pilot.pause()
        assert "step 19" in t.visible_text()


@pytest.mark.anyio
async def test_resize_rerenders_at_the_new_width() -> None:
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        t = app.transcript
        t.add(AssistantItem(msg("word " * 100)))
        await pilot.pause(0.1)
        wide = t.total_height
        await pilot.resize_terminal(50, 30)
        await pilot.pause(0.1)
        assert t._width < 60
        assert t.total_height > wide
        assert all(len(s.text) <= t._width for s in t.items[0].strips(app.ctx, t._width))


def test_thinking_and_answer_with_the_same_text_keep_their_own_styles() -> None:
    from pi_tui.ai.types import ThinkingContent

    ctx = RenderContext(find_theme("dark"))
    item = AssistantItem(AssistantMessage(content=[ThinkingContent(thinking="Same words."),
                                                   TextContent(text="Same words.")]))
    strips = [s for s in item.strips(ctx, 60) if s.text.strip()]
    assert len(strips) == 2
    styles = [next(seg.style for seg in s if seg.text.strip()) for s in strips]
    assert styles[0] is not None and styles[0].italic
    assert styles[1] is not None and not styles[1].italic


@pytest.mark.anyio
async def test_expand_toggle_rerenders_only_affected_items() -> None:

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        t = app.transcript
        t.extend(many_items(20))
        tool = ToolItem("c", "read", {"path": "x"})
        tool.status = "done"
        tool.result_text = "\n".join(f"r{i}" for i in range(30))
        t.add(tool)
        await pilot.pause(0.1)
        before = {id(i): i.version for i in t.items}
        rendered = t.render_count
        app.ctx.expand_tools = True
        for item in t.items:
            if item.clickable:
                item.changed()
                t.item_changed(item)
        await pilot.pause(0.1)
        changed = [i for i in t.items if i.version != before[id(i)]]
        assert changed == [tool]
        assert t.render_count - rendered == 1
        assert "r29" in t.visible_text()


@pytest.mark.anyio
async def test_click_collapses_one_messages_thinking() -> None:
    from pi_tui.ai.types import ThinkingContent

    app = Host()
    async with app.run_test(size=(80, 30)) as pilot:
        t = app.transcript
        first = t.add(AssistantItem(AssistantMessage(content=[ThinkingContent(thinking="first secret"),
                                                              TextContent(text="first answer")])))
        t.add(AssistantItem(AssistantMessage(content=[ThinkingContent(thinking="second secret"),
                                                      TextContent(text="second answer")])))
        await pilot.pause(0.1)
        top = t.item_top(first)
        assert top is not None
        await pilot.click(Transcript, offset=(3, top - int(t.scroll_y)))
        await pilot.pause()
        shown = t.visible_text()
        assert "first secret" not in shown and "Thinking..." in shown
        assert "second secret" in shown and "first answer" in shown
        await pilot.click(Transcript, offset=(3, top - int(t.scroll_y)))
        await pilot.pause()
        assert "first secret" in t.visible_text()


def test_single_newlines_stay_line_breaks() -> None:
    """Found pasting a 300-line list in tmux: Markdown soft breaks joined the user's lines into one paragraph."""
    ctx = RenderContext(find_theme("dark"))
    lines = [s.text.strip() for s in UserItem("pasted line 1\npasted line 2\npasted line 3").strips(ctx, 60)]
    assert [x for x in lines if x] == ["pasted line 1", "pasted line 2", "pasted line 3"]
