"""Quitting while a tool runs never sends the queued messages (new-user run #38: Ctrl+D during a 15 s bash with a
steering message queued: the app exited, and afterwards the session file held the steer, a new model call and a
``write`` it ran, with nothing on screen). Settling a session for exit aborts the run and keeps both queues unsent,
for a steering and for a follow-up message; the same holds for an abort while a tool runs (Esc): the aborted run
starts no new turn for what was queued."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.coding.agent_session.shutdown import settle_session
from tests.tui.helpers import make_session

pytestmark = pytest.mark.anyio


def _steps(calls: list[str]) -> list[Any]:
    def bash_step(context: Any, options: Any, state: Any, model: Any) -> Any:
        calls.append("bash")
        return faux_assistant_message([faux_tool_call("bash", {"command": "sleep 20"}, id="b1")],
                                      stop_reason="toolUse")

    def later(context: Any, options: Any, state: Any, model: Any) -> Any:
        calls.append("later")
        return faux_assistant_message([faux_tool_call("write", {"path": "made.txt", "content": "x"}, id="w1")],
                                      stop_reason="toolUse")

    return [bash_step, later, later, later]


async def _run_until_tool(session: Any) -> asyncio.Task[None]:
    run = asyncio.ensure_future(session.prompt("run the slow command"))
    for _ in range(500):
        if session.agent.state.pending_tool_calls:
            break
        await asyncio.sleep(0.01)
    assert session.agent.state.pending_tool_calls, "the bash tool never started"
    await asyncio.sleep(0.2)
    return run


@pytest.mark.parametrize("queue", ["steer", "follow_up"])
async def test_quitting_during_a_tool_sends_nothing_queued(tmp_path: Path, queue: str) -> None:
    """The cause: the aborted run's threshold compaction check continued the run with the queued messages,
    because the quit aborted only the agent and not the session's post-run work. A context window near the
    threshold (17,000 tokens, 16,384 reserved) makes that check fire here as it did in the user's long session."""
    calls: list[str] = []
    steps = _steps(calls)
    steps.insert(1, faux_assistant_message("a reply to the queued message: must never be asked for"))
    session, _ = make_session(tmp_path, steps)
    session.agent.state.model = session.agent.state.model.model_copy(update={"context_window": 17000})
    run = await _run_until_tool(session)
    await getattr(session, queue)("write the file please")
    assert await settle_session(session, limit=10)
    await asyncio.wait_for(run, 10)
    await asyncio.sleep(1.5)  # a continuation would start here (compaction's continue delay)
    assert not any("must never be asked for" in str(getattr(m, "content", "")) for m in session.messages)
    # (the faux provider resolves a step before it checks the signal: calls may hold "later", aborted at once)
    assert not (tmp_path / "made.txt").exists()
    users = [m for m in session.messages if getattr(m, "role", None) == "user"]
    assert len(users) == 1  # the queued text never became a user message


async def test_ctrl_d_in_the_app_during_a_tool_sends_nothing_queued(tmp_path: Path) -> None:
    """The user's steps: a slow bash runs, a steering message is typed and queued, Ctrl+D on the empty editor."""
    from tests.tui.helpers import make_app, settle, wait_until

    calls: list[str] = []
    session, _ = make_session(tmp_path, _steps(calls))
    app = make_app(session)
    async with app.run_test() as pilot:
        await settle(pilot)
        app.prompt_input.focus()
        await pilot.press(*"run it", "enter")
        await wait_until(pilot, lambda: bool(session.agent.state.pending_tool_calls))
        await pilot.press(*"write the file please", "enter")
        await wait_until(pilot, lambda: bool(session.steering_messages))
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: not app.is_running, limit=20)
    for _ in range(100):  # anything the quit left running would act now
        await asyncio.sleep(0.02)
    assert not (tmp_path / "made.txt").exists()
    users = [m for m in session.messages if getattr(m, "role", None) == "user"]
    assert len(users) == 1


@pytest.mark.parametrize("queue", ["steer", "follow_up"])
async def test_what_was_queued_when_quitting_is_saved_and_shown_on_resume(tmp_path: Path, queue: str) -> None:
    """tester2 #1: Ctrl+D (or a closed terminal) while a message was queued dropped it without a trace: it was in
    no session file and not in the editor after ``-c``. It is now kept in a persisted warning notification, which
    the resumed session shows."""
    from pi_tui.coding.agent_session.shutdown import UNSENT_NOTICE
    from pi_tui.coding.session.entries import NOTIFICATION_CUSTOM_TYPE
    from pi_tui.coding.session.session_manager import SessionManager

    calls: list[str] = []
    session, _ = make_session(tmp_path, _steps(calls), no_session=False,
                              session_dir=str(tmp_path / "sessions"))
    run = await _run_until_tool(session)
    await getattr(session, queue)("important queued note")
    assert await settle_session(session, limit=10)
    await asyncio.wait_for(run, 10)
    path = session.session_file
    assert path is not None
    reopened = SessionManager.open(path)
    notes = [e for e in reopened.get_entries() if getattr(e, "custom_type", None) == NOTIFICATION_CUSTOM_TYPE]
    assert any(UNSENT_NOTICE in str(e.data) and "important queued note" in str(e.data) for e in notes), notes
    users = [m for m in session.messages if getattr(m, "role", None) == "user"]
    assert len(users) == 1  # kept, never sent


async def test_nothing_queued_adds_no_notice(tmp_path: Path) -> None:
    from pi_tui.coding.agent_session.shutdown import UNSENT_NOTICE

    calls: list[str] = []
    session, _ = make_session(tmp_path, _steps(calls))
    run = await _run_until_tool(session)
    assert await settle_session(session, limit=10)
    await asyncio.wait_for(run, 10)
    assert not any(UNSENT_NOTICE in str(getattr(m, "text", "")) for m in session.messages)
