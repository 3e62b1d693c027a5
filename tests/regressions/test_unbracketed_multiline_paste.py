"""New-user run #29: a multi-line paste without bracketed paste lands in the editor as one multi-line draft.

The terminal delivers such a paste as one run of keys, each line ended by Enter (``\\r``). Each Enter sent the
line before it as a prompt (the first at once, the next as a steer). An Enter with another key right behind it,
sooner than anyone types (``PASTE_BURST_GAP_S``), is a newline; an Enter that ends the run, or one typed at
human speed, still sends.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.widgets.prompt_input import PASTE_BURST_GAP_S
from tests.tui.helpers import make_app, make_session, wait_until

from .typing_helpers import raw_events, type_raw

pytestmark = pytest.mark.anyio


async def test_a_pasted_run_of_lines_is_one_draft(tmp_path: Path) -> None:
    session, faux = make_session(tmp_path, [faux_assistant_message("answer")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_raw(pilot, "first pasted line\rsecond pasted line\rthird pasted line")
        await wait_until(pilot, lambda: app.prompt_input.text.endswith("third pasted line"))
        await pilot.pause(0.1)
        assert app.prompt_input.text == "first pasted line\nsecond pasted line\nthird pasted line"
        assert not any(m.role == "user" for m in session.agent.state.messages)
        assert not session.steering_messages
        await pilot.press("enter")  # the user's own Enter sends the whole draft
        await wait_until(pilot, lambda: any(m.role == "user" for m in session.agent.state.messages))
        user = next(m for m in session.agent.state.messages if m.role == "user")
        text = user.content if isinstance(user.content, str) else "".join(b.text for b in user.content)
        assert text == "first pasted line\nsecond pasted line\nthird pasted line"


async def test_an_enter_typed_at_human_speed_still_sends(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("answer")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        start = app.prompt_input  # keys arrive queued (the app was busy) but were typed 50 ms apart
        keys = raw_events("hi\rnext")
        for n, event in enumerate(keys):
            event.time = keys[0].time + n * max(0.05, PASTE_BURST_GAP_S * 2)
            start.post_message(event)
        await wait_until(pilot, lambda: any(m.role == "user" for m in session.agent.state.messages))
        await wait_until(pilot, lambda: app.prompt_input.text == "next")
        user = next(m for m in session.agent.state.messages if m.role == "user")
        text = user.content if isinstance(user.content, str) else "".join(b.text for b in user.content)
        assert text == "hi"


async def test_a_run_ending_in_enter_sends_everything_once(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("answer")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_raw(pilot, "one\rtwo\r")
        await wait_until(pilot, lambda: any(m.role == "user" for m in session.agent.state.messages))
        users = [m for m in session.agent.state.messages if m.role == "user"]
        assert len(users) == 1
        text = users[0].content if isinstance(users[0].content, str) else "".join(b.text for b in users[0].content)
        assert text == "one\ntwo"
        assert app.prompt_input.text == ""


