"""Issue 9 item 10: a scrolled-up view says when new output arrives below it (key read from the keymap)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.keymap import Keymap

from .helpers import make_app, make_session, wait_until
from .test_transcript_resize import long_answer


def last_row(app: Any) -> str:
    return app.transcript.visible_text().split("\n")[-1].strip()


async def scrolled_up_while_streaming(pilot: Any, app: Any, session: Any) -> None:
    """Two finished long answers, a third one streaming; the user pages up while it streams."""
    await wait_until(pilot, lambda: app.session_ready)
    for k in range(2):
        app.prompt_input.insert(f"question {k}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working)
        await session.wait_for_idle()
    app.prompt_input.insert("question 2")
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.view.current is not None and "Line 3 " in app.view.current.plain_text())
    for _ in range(3):
        await pilot.press("pageup")
    await pilot.pause()
    assert not app.transcript.following


@pytest.mark.anyio
async def test_new_output_below_a_scrolled_up_view_is_announced(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message(long_answer(k)) for k in range(3)])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for k in range(2):
            app.prompt_input.insert(f"question {k}")
            await pilot.press("enter")
            await wait_until(pilot, lambda: not app.working)
            await session.wait_for_idle()
        await pilot.pause()
        for _ in range(3):
            await pilot.press("pageup")
        await pilot.pause()
        assert "new output below" not in app.transcript.visible_text()
        await pilot.press("ctrl+o")  # a display toggle is not new output
        await pilot.pause(0.1)
        assert "new output below" not in app.transcript.visible_text()
        before = app.transcript.visible_text().split("\n")[:-1]
        app.add_notice("info", "something happened at the end")  # output below the view
        await pilot.pause(0.1)
        assert last_row(app) == "↓ new output below (Ctrl+End)"
        assert app.transcript.visible_text().split("\n")[:-1] == before  # the view did not move
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert "new output below" not in app.transcript.visible_text()
        assert "something happened at the end" in app.transcript.visible_text()


@pytest.mark.anyio
async def test_streaming_while_scrolled_up_shows_the_line_until_back_at_the_bottom(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message(long_answer(k)) for k in range(3)],
                              tokens_per_second=400)
    keymap = Keymap()
    keymap.keys["app.scroll.bottom"] = ["f9"]  # a key of its own (Ctrl+G is the external editor now)
    app = make_app(session, keymap=keymap)
    async with app.run_test(size=(80, 24)) as pilot:
        await scrolled_up_while_streaming(pilot, app, session)
        await wait_until(pilot, lambda: "new output below" in last_row(app))
        assert last_row(app) == "↓ new output below (F9)"
        await pilot.press("f9")
        await pilot.pause()
        assert app.transcript.following
        assert "new output below" not in app.transcript.visible_text()
        await session.wait_for_idle()
        await pilot.pause(0.1)
        assert [line.strip() for line in app.transcript.visible_text().split("\n") if line.strip()][-1] == "The end."
