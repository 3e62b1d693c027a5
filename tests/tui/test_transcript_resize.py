"""Issue 9 item 1: resizes while scrolled up keep the whole transcript and the reader's place.

The user's steps: at 120x40 three long Markdown answers (~130 lines each, ending in "Line 60 ..." and
"The end."), PageUp six times, resize to 100 (or 80) columns and back to 120, Ctrl+End. Before the fix the
transcript ended at "Line 44" (via 80: "Line 25"), the next prompt rendered under it, and the 120 -> 100 resize
jumped the view elsewhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, wait_until


def long_answer(k: int) -> str:
    """About 130 rendered lines of Markdown ending in ``Line 60 ...`` and ``The end.``."""
    lines = "\n\n".join(f"Line {i} of answer {k}: the quick brown fox jumps over the lazy dog." for i in range(1, 61))
    return f"# Answer {k}\n\n{lines}\n\nThe end."


def screen_lines(app: Any) -> list[str]:
    return [line.strip() for line in app.transcript.visible_text().split("\n")]


async def ask(pilot: Any, app: Any, session: Any, text: str) -> None:
    app.prompt_input.insert(text)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not app.working)
    await session.wait_for_idle()
    await pilot.pause(0.1)


@pytest.mark.anyio
@pytest.mark.parametrize("via", [100, 80])
async def test_resize_while_scrolled_up_keeps_the_end_and_the_place(tmp_path: Path, via: int) -> None:
    replies = [faux_assistant_message(long_answer(k)) for k in range(3)] + [faux_assistant_message("Fourth.")]
    session, _ = make_session(tmp_path, replies)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for k in range(3):
            await ask(pilot, app, session, f"question {k}")
        for _ in range(6):
            await pilot.press("pageup")
            await pilot.pause()
        t = app.transcript
        before = screen_lines(app)
        top_item = t.items[t.item_at_line(int(t.scroll_y))[0]]  # type: ignore[index]
        await pilot.resize_terminal(via, 40)
        await pilot.pause(0.1)
        now = t.item_at_line(int(t.scroll_y))
        assert now is not None and t.items[now[0]] is top_item  # no jump to another part of the transcript
        assert before[0] in screen_lines(app)[:3]
        await pilot.resize_terminal(120, 40)
        await pilot.pause(0.1)
        assert screen_lines(app) == before  # back at 120 columns: exactly the same screen
        await pilot.press("ctrl+end")
        await pilot.pause(0.1)
        shown = [line for line in screen_lines(app) if line]
        assert shown[-1] == "The end."
        assert any(line.startswith("Line 60 of answer 2") for line in shown)
        await ask(pilot, app, session, "question 3")
        shown = [line for line in screen_lines(app) if line]
        assert shown[-3:] == ["The end.", "question 3", "Fourth."]
