"""tester3 #8 (high): a session switch while the agent works asks first, as /new does, and the stopped run's queued
steering and follow-up messages stay in the editor. /resume switched without asking and dropped them; /fork and
/clone asked but then overwrote or cleared the editor the abort had put them in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.ai.types import AssistantMessage, TextContent, UserMessage
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.tui.modals.confirm import ConfirmModal

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio

LONG = " ".join(f"word{i}" for i in range(3000))


async def _queue_two(pilot: Any, app: Any, session: Any) -> None:
    app.prompt_input.set_text("first prompt")
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.view.current is not None and "word5" in app.view.current.plain_text(), limit=20)
    app.prompt_input.set_text("queued steer three")
    await pilot.press("enter")
    app.prompt_input.set_text("queued follow two")
    await pilot.press("ctrl+f")
    await wait_until(pilot, lambda: len(session.steering_messages) + len(session.follow_up_messages) == 2
                     if hasattr(session, "steering_messages") else True, limit=5)
    await pilot.pause(0.1)


async def _confirm(pilot: Any, app: Any) -> None:
    await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal), limit=10)
    await pilot.press("y")


def _other_session(session: Any) -> str:
    manager = SessionManager.create(session.cwd, session.session_manager.session_dir)
    manager.append_message(UserMessage(content="an older question"))
    manager.append_message(AssistantMessage(content=[TextContent(text="an older answer")]))
    path = manager.get_session_file()
    assert path
    return str(path)


@pytest.mark.parametrize("how", ["resume", "fork", "clone"])
async def test_a_switch_during_a_run_asks_and_keeps_the_queue(tmp_path: Path, how: str) -> None:
    steps = [faux_assistant_message("an earlier answer"), faux_assistant_message(LONG)]
    session, _ = make_session(tmp_path, steps, tokens_per_second=300, no_session=False)
    app = make_app(session)
    async with app.run_test(size=(110, 32)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.set_text("earlier prompt")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working and not session.is_streaming, limit=10)
        other = _other_session(session) if how == "resume" else ""
        await _queue_two(pilot, app, session)
        switching = app.builtin_commands.switching
        if how == "resume":
            switching._session_chosen(other)
        elif how == "fork":
            entry = next(m for m in session.get_fork_messages(branch_only=True) if "earlier prompt" in m.get("text", ""))
            switching._fork_chosen(entry["entryId"])
        else:
            app.run_worker(switching.clone("", None))
        await _confirm(pilot, app)
        await wait_until(pilot, lambda: not app.working and not session.is_streaming, limit=10)
        await pilot.pause(0.3)
        text = app.prompt_input.text
        assert "queued steer three" in text and "queued follow two" in text, text
        if how == "fork":
            assert text.startswith("earlier prompt")
        if how == "resume":
            assert str(app.session.session_file) == other


async def test_resume_during_a_run_can_be_cancelled(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("a"), faux_assistant_message(LONG)],
                              tokens_per_second=300, no_session=False)
    app = make_app(session)
    async with app.run_test(size=(110, 32)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.set_text("earlier prompt")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working and not session.is_streaming, limit=10)
        other = _other_session(session)
        current = session.session_file
        app.prompt_input.set_text("second prompt")
        await pilot.press("enter")
        await wait_until(pilot, lambda: session.is_streaming, limit=10)
        app.builtin_commands.switching._session_chosen(other)
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal), limit=10)
        await pilot.press("n")
        await pilot.pause(0.2)
        assert session.is_streaming and app.session.session_file == current
        session.agent.abort()
