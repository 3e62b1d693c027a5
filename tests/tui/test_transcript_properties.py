"""Issue 9 item 1, the whole class: any sequence of resizes, scrolls, Ctrl+O / Ctrl+T and appends leaves a
transcript whose lines are exactly a fresh render of the same items at the final width, and a resize keeps the
message at the top of a scrolled-up view at the top.

The real ``PiApp`` (keys through the editor and its keymap) on a faux session; items are appended the way the
session view does (``transcript.add`` / ``item_changed``). Fixed budget: derandomized, 10 examples (~30 s on a loaded 2-core machine).
"""

from __future__ import annotations

import asyncio
import copy
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_tui.ai.types import AssistantMessage, TextContent, ThinkingContent
from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import AssistantItem, ToolItem, TranscriptItem, UserItem

from .helpers import make_app, make_session, wait_until

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda".split()


def paragraph(seed: int, words: int) -> str:
    return " ".join(WORDS[(seed * 7 + k * 3) % len(WORDS)] for k in range(words))


def answer_text(seed: int, paragraphs: int) -> str:
    """Markdown whose wrapping depends on the width: paragraphs of 3..40 words, a list and a code block."""
    parts = [f"# Answer {seed}"]
    for p in range(paragraphs):
        parts.append(paragraph(seed + p, 3 + (seed * 11 + p * 5) % 38))
    parts.append("- " + paragraph(seed, 12) + "\n- short")
    parts.append("```python\nprint(" + repr(paragraph(seed, 6)) + ")\n```")
    parts.append(f"The end of {seed}.")
    return "\n\n".join(parts)


def make_item(kind: str, seed: int) -> TranscriptItem:
    if kind == "user":
        return UserItem(paragraph(seed, 5 + seed % 30))
    if kind == "tool":
        tool = ToolItem(f"call-{seed}", "read", {"path": f"f{seed}.py"})
        tool.status = "done"
        tool.result_text = "\n".join(f"line {k} " + paragraph(seed + k, k % 9) for k in range(4 + seed % 30))
        return tool
    content: list[Any] = [TextContent(text=answer_text(seed, 2 + seed % 9))]
    if seed % 2:
        content.insert(0, ThinkingContent(thinking=paragraph(seed, 20 + seed % 40)))
    return AssistantItem(AssistantMessage(content=content))


def fresh_lines(t: Transcript, width: int) -> list[str]:
    """Every line of a from-scratch render of the transcript's items at ``width``."""
    lines: list[str] = []
    for item in t.items:
        clone = copy.copy(item)
        clone.evict()
        clone._measured = {}
        clone._measured_for = None
        clone._last_measure = None
        lines.extend(s.text.rstrip() for s in clone.strips(t.ctx, width))
    return lines


def screen(t: Transcript) -> list[str]:
    return [t.render_line(y).text.rstrip() for y in range(t.scrollable_content_region.height)]


OPS = st.one_of(
    st.tuples(st.just("resize"), st.integers(40, 130), st.integers(10, 40)),
    st.tuples(st.just("key"), st.sampled_from(["pageup", "pageup", "pagedown", "ctrl+home", "ctrl+end",
                                              "ctrl+o", "ctrl+t"]), st.just(0)),
    st.tuples(st.just("append"), st.sampled_from(["user", "assistant", "tool"]), st.integers(0, 50)),
    st.tuples(st.just("stream"), st.integers(0, 50), st.integers(1, 4)),
)


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
                top = None if t.following else t.item_at_line(int(t.scroll_y))
                anchor = t.items[top[0]] if top else None
                await pilot.resize_terminal(a, b)
                await pilot.pause()
                if anchor is not None:
                    now = t.item_at_line(int(t.scroll_y))
                    assert (now is not None and t.items[now[0]] is anchor) or (
                        t.following and t.scroll_y >= t.max_scroll_y), "a resize moved the view off its message"
            elif op == "key":
                await pilot.press(a)
            elif op == "append":
                t.add(make_item(a, b))
            else:
                item = AssistantItem(AssistantMessage(content=[TextContent(text="")]), streaming=True)
                t.add(item)
                text = answer_text(a, b)
                for cut in range(0, len(text), max(1, len(text) // 4)):
                    item.update(AssistantMessage(content=[TextContent(text=text[:cut])]))
                    t.item_changed(item)
                    await pilot.pause()
                item.update(AssistantMessage(content=[TextContent(text=text)]), streaming=False)
                t.item_changed(item, immediate=True)
            await pilot.pause()
        await pilot.pause(0.06)
        width = t._width
        expected = fresh_lines(t, width)
        height = t.scrollable_content_region.height
        # The end is always reachable and is the end of a fresh render.
        await pilot.press("ctrl+end")
        await pilot.pause()
        shown = screen(t)
        tail = expected[-height:]
        assert shown[len(shown) - len(tail):] == tail
        # Page from the top: each screen is the fresh render's lines at that position.
        await pilot.press("ctrl+home")
        await pilot.pause()
        for _ in range(len(expected) // max(1, height - 1) + 2):
            y = int(t.scroll_y)
            shown = screen(t)
            want = (expected[y:y + height] + [""] * height)[:height]
            if t.unseen_below and not t.following:
                assert "new output below" in shown[-1]
                shown, want = shown[:-1], want[:-1]
            assert shown == want, f"lines {y}..{y + height} differ from a fresh render at width {width}"
            if y >= t.max_scroll_y:
                break
            await pilot.press("pagedown")
            await pilot.pause()
        assert t.total_height == len(expected)


@settings(max_examples=10, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(base=st.lists(st.tuples(st.sampled_from(["user", "assistant", "tool"]), st.integers(0, 50)),
                     min_size=2, max_size=8),
       ops=st.lists(OPS, min_size=1, max_size=10))
def test_any_sequence_renders_like_a_fresh_transcript(base: list[tuple[str, int]],
                                                      ops: list[tuple[str, Any, Any]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run_ops(Path(tmp), base, ops))
