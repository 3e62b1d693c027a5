"""The editor grows up to pi's cap and then scrolls inside, so a long prompt never takes the screen (new-user run
#16: at 60x16 a 12-line prompt left one empty transcript row). pi 0.73.1 editor: at most
``max(5, floor(rows * 0.3))`` text lines are shown; the cursor's line stays visible."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(("rows", "text_lines"), [(16, 5), (24, 7), (40, 12)])
async def test_a_long_prompt_is_capped_and_scrolls_inside(tmp_path: Path, rows: int, text_lines: int) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("an answer to keep in sight")])
    app = make_app(session)
    async with app.run_test(size=(60, rows)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.set_text("hello")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working and not session.is_streaming)
        editor = app.prompt_input
        for n in range(30):
            if n:
                await pilot.press("ctrl+j")
            await pilot.press(*f"l{n}")
        await pilot.pause()
        assert editor.text.count("\n") == 29
        assert editor.size.height == text_lines  # the content rows inside the border
        assert editor.scroll_offset.y == 30 - text_lines  # the cursor's (last) line is shown
        assert app.transcript.region.height >= 4  # rows of the transcript stay readable while writing
