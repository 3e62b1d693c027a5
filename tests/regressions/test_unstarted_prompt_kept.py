"""tester2 #5: while the first prompt waited for a connecting MCP server (``McpSessionLink.prompt_attachments``,
a prompt attacher that waits up to 10 s) the prompt was invisible, and Ctrl+D then lost it: the quit settled an
idle session and exited while the prompt still waited, so it was in no session file and never sent.

Here a prompt attacher that waits until released stands for the slow server. The prompt is shown as pending at
once; a quit keeps it in the persisted "Not sent" notification (and it never runs afterwards); Escape gives it
back to the editor and it is not sent."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.coding.agent_session.shutdown import UNSENT_NOTICE, settle_session
from tests.tui.helpers import make_app, make_session, transcript_text, wait_until
from tests.tui.test_key_routing import keys_for

pytestmark = pytest.mark.anyio


class SlowAttacher:
    """A prompt attacher that waits like the first prompt's wait for MCP servers: until ``release`` (the server
    connected) or a stop of ``session`` (``AgentSession.abort``: Esc, a quit)."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.entered = asyncio.Event()
        self.gate = asyncio.Event()

    async def __call__(self, text: str) -> list[Any]:
        mark = self.session.stop_mark()
        self.entered.set()
        while not self.gate.is_set() and not mark.stopped:  # noqa: ASYNC110 - polled as the MCP wait polls its mark
            await asyncio.sleep(0.02)
        return []

    def release(self) -> None:
        self.gate.set()


def _users(session: Any) -> list[str]:
    return [m.content[0].text for m in session.messages if getattr(m, "role", None) == "user"]


def _unsent_notes(session: Any) -> list[str]:
    return [str(getattr(m, "text", "")) for m in session.messages if UNSENT_NOTICE in str(getattr(m, "text", ""))]


async def test_settling_keeps_a_prompt_that_had_not_started(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("must never be asked for")])
    slow = SlowAttacher(session)
    session.prompt_attachers.add(slow)
    prompt = asyncio.ensure_future(session.prompt("waiting prompt"))
    await asyncio.wait_for(slow.entered.wait(), 10)
    assert session.unstarted_prompts.texts == ["waiting prompt"]
    assert await settle_session(session, limit=5)
    assert any("waiting prompt" in note for note in _unsent_notes(session))
    slow.release()  # the server connects after the quit: the prompt must not run now
    await asyncio.wait_for(prompt, 10)
    assert _users(session) == []
    assert not any("must never be asked for" in str(getattr(m, "content", "")) for m in session.messages)


async def test_a_prompt_that_started_is_not_kept_twice(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("done")])
    await session.prompt("sent at once")
    assert session.unstarted_prompts.texts == []
    assert await settle_session(session, limit=5)
    assert _unsent_notes(session) == [] and _users(session) == ["sent at once"]


async def test_the_app_shows_the_waiting_prompt_and_ctrl_d_keeps_it(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("must never be asked for")])
    slow = SlowAttacher(session)
    session.prompt_attachers.add(slow)
    app = make_app(session)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.1)
        await pilot.press(*keys_for("waiting prompt"), "enter")
        await wait_until(pilot, slow.entered.is_set)
        await wait_until(pilot, lambda: "Pending: waiting prompt" in app.queue_view.render().plain)
        assert "waiting to be sent" in app.queue_view.render().plain
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: not app.is_running, limit=20)
    slow.release()
    await asyncio.sleep(0.2)
    assert any("waiting prompt" in note for note in _unsent_notes(session))
    assert _users(session) == []


async def test_escape_gives_the_waiting_prompt_back_to_the_editor(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("answer to the second")])
    slow = SlowAttacher(session)
    remove = session.prompt_attachers.add(slow)
    app = make_app(session)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.1)
        await pilot.press(*keys_for("waiting prompt"), "enter")
        await wait_until(pilot, slow.entered.is_set)
        await wait_until(pilot, lambda: "Pending: waiting prompt" in app.queue_view.render().plain)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.prompt_input.text == "waiting prompt")
        await wait_until(pilot, lambda: not app.working and not app.queue_view.display)
        assert _users(session) == []
        remove()
        slow.release()
        app.prompt_input.set_text("")
        await pilot.press(*keys_for("the second"), "enter")  # the app goes on normally
        await wait_until(pilot, lambda: "answer to the second" in transcript_text(app))
        assert _users(session) == ["the second"]
