"""tester3 #14: a large paste's marker is one unit in the editor (pi: "paste markers treated as atomic segments"):
one Backspace right after it removes it whole, the cursor steps over it, and a marker damaged anyway still sends
the pasted text — never the marker's fragment in its place (one Backspace sent ``[paste #1 7500 chars`` and lost
7,500 characters)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual import events

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.widgets.paste_markers import expand_pastes

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio

BIG = "p" * 7500


async def _pasted(pilot: Any, app: Any, before: str = "look: ", after: str = " end") -> None:
    app.prompt_input.insert(before)
    app.post_message(events.Paste(BIG))
    await pilot.pause(0.2)
    app.prompt_input.insert(after)
    await pilot.pause()


def _users(session: Any) -> list[str]:
    return ["".join(getattr(b, "text", "") for b in m.content) for m in session.messages
            if getattr(m, "role", None) == "user"]


async def test_backspace_after_a_marker_removes_it_whole(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _pasted(pilot, app, after="")
        assert app.prompt_input.text == "look: [paste #1 7500 chars]"
        await pilot.press("backspace")
        assert app.prompt_input.text == "look: "
        await pilot.press("ctrl+z")  # undo brings it back, whole
        assert app.prompt_input.text == "look: [paste #1 7500 chars]"


async def test_the_cursor_steps_over_a_marker_and_delete_removes_it_whole(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("ok")])
    app = make_app(session)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _pasted(pilot, app)
        editor = app.prompt_input
        await pilot.press("end", *["left"] * 5)  # " end" is 4 characters: the fifth step jumps over the marker
        assert editor.cursor_location == (0, len("look: "))
        await pilot.press("right")
        assert editor.cursor_location == (0, len("look: [paste #1 7500 chars]"))
        await pilot.press("left", "delete")
        assert editor.text == "look:  end"


async def test_a_damaged_marker_still_sends_the_pasted_text(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("ok")])
    app = make_app(session)
    async with app.run_test(size=(100, 20)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _pasted(pilot, app, after="")
        editor = app.prompt_input
        editor.replace("X", (0, len("look: [paste #1 7500 ch")), (0, len("look: [paste #1 7500 ch")))  # a click + key
        assert editor.text == "look: [paste #1 7500 chXars]"
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(_users(session)), limit=10)
    assert _users(session) == ["look: " + BIG]


@settings(max_examples=60, derandomize=True, deadline=None)
@given(st.integers(min_value=0, max_value=26), st.integers(min_value=0, max_value=5), st.text(alphabet="xy ", max_size=3))
def test_any_single_damage_inside_a_marker_keeps_the_paste(cut: int, length: int, typed: str) -> None:
    marker = "[paste #1 7500 chars]"
    start = min(cut, len(marker))
    damaged = marker[:start] + typed + marker[start + length:]
    text = "a " + damaged + " b"
    out = expand_pastes(text, {1: BIG})
    if start >= len("[paste #1"):  # the start survives: the paste is sent
        assert BIG in out
    assert "[paste #1 7500 chars]" not in out
