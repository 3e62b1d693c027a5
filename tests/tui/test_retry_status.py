"""Auto-retry in the app (issue 9 item 7): one status line that updates, no repeated raw errors in the
transcript, the full errors kept in the session, and an editor title that says what Enter really does.

A real AgentSession on the faux provider; its retry sleep is replaced by a gate the test opens, so the
countdown state is held as long as the test needs it (no timing).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, settle, transcript_text, wait_until

ERR_500 = ('500 {"error":{"message":"The server had an error while processing your request.",'
           '"type":"server_error","param":null,"code":null}}')
ERR_429 = '429 {"error":{"message":"Rate limit reached for requests","type":"rate_limit"}}'


class Gate:
    """A retry sleep that waits until the test calls ``release()``."""

    def __init__(self) -> None:
        self.calls: list[float] = []
        self.waiting = False
        self._event = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.calls.append(seconds)
        self.waiting = True
        await self._event.wait()
        self._event = asyncio.Event()
        self.waiting = False

    def release(self) -> None:
        self._event.set()


def _error(text: str) -> Any:
    return faux_assistant_message([], stop_reason="error", error_message=text)


def _file_errors(session: Any) -> list[str]:
    return [e.message.error_message for e in session.session_manager.get_entries()
            if e.type == "message" and getattr(e.message, "stop_reason", None) == "error"]


@pytest.mark.anyio
async def test_retries_show_one_updating_status_line_and_keep_errors_in_the_session(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [_error(ERR_500), _error(ERR_429), faux_assistant_message("Recovered")])
    gate = Gate()
    session._sleep = gate.sleep
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("hello")
        await pilot.press("enter")
        await wait_until(pilot, lambda: gate.waiting)
        await pilot.pause()
        status = app.status_line.message
        assert "attempt 2 of 4" in status and "in 2s" in status  # attempts, as "Retry failed after 4 attempts"
        assert "The server had an error while processing your request." in status and "{" not in status
        assert "Rate limited" not in status
        # the editor title tells the truth during the countdown: Enter steers, Esc cancels the retry
        assert "steer" in app.prompt_input.border_title and "send" not in app.prompt_input.border_title
        assert "cancel the retry" in app.prompt_input.border_title
        app.transcript.flush()
        text = transcript_text(app)
        assert '"error"' not in text and "Warning" not in text and "Error:" not in text

        gate.release()
        await wait_until(pilot, lambda: len(gate.calls) == 2 and gate.waiting)
        await pilot.pause()
        status = app.status_line.message
        assert "attempt 3 of 4" in status and "in 4s" in status
        assert "Rate limited (429)" in status and "Rate limit reached for requests" in status
        # Enter during the countdown queues a steer that goes out with the retry (nothing typed is lost)
        app.prompt_input.insert("also this")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "also this" in session.steering_messages)
        gate.release()
        await wait_until(pilot, lambda: not app.working)
        await settle(pilot)
        text = transcript_text(app)
        assert "Recovered" in text and "also this" in text
        assert "Error" not in text and "Warning" not in text and '"error"' not in text
        assert not app.status_line.display
        assert "send" in app.prompt_input.border_title
    assert _file_errors(session) == [ERR_500, ERR_429]  # the full errors stay in the session


@pytest.mark.anyio
async def test_retries_that_all_fail_leave_one_error_and_one_summary(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [_error(ERR_500)] * 4)
    gate = Gate()
    session._sleep = gate.sleep
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("hello")
        await pilot.press("enter")
        for n in (1, 2, 3):
            await wait_until(pilot, lambda n=n: len(gate.calls) == n and gate.waiting)  # type: ignore[misc]
            gate.release()
        await wait_until(pilot, lambda: not app.working)
        await settle(pilot)
        text = transcript_text(app)
        assert text.count("The server had an error") == 2  # the last error in full, and the summary line
        assert text.count('"server_error"') == 1
        assert "Retry failed after 4 attempts: 500 The server had an error while processing your request." in text
    assert len(_file_errors(session)) == 4


@pytest.mark.anyio
async def test_escape_during_the_countdown_cancels_the_retry_and_returns_queued_text(tmp_path: Path) -> None:
    session, faux = make_session(tmp_path, [_error(ERR_429), faux_assistant_message("never")])
    gate = Gate()
    session._sleep = gate.sleep
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("hello")
        await pilot.press("enter")
        await wait_until(pilot, lambda: gate.waiting)
        app.prompt_input.insert("my steer")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "my steer" in session.steering_messages)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not session.is_retrying and not app.working)
        await settle(pilot)
        assert app.prompt_input.text == "my steer"
        assert "Retry cancelled" in transcript_text(app)
        assert not app.status_line.display
        assert faux.state.call_count == 1


@pytest.mark.anyio
async def test_a_resumed_session_shows_the_retried_run_once(tmp_path: Path) -> None:
    from pi_tui.coding.agent_session.factory import create_agent_session

    session, _ = make_session(tmp_path, [_error(ERR_500), _error(ERR_429), faux_assistant_message("Recovered")])
    session._sleep = lambda seconds: asyncio.sleep(0)
    await session.prompt("hello")
    entries = session.session_manager.get_entries()
    resumed = create_agent_session(str(tmp_path), no_session=True)
    for entry in entries:  # the same file content, loaded as a resumed session's messages
        if entry.type == "message":
            resumed.agent.state.messages = [*resumed.agent.state.messages, entry.message]
    assert [getattr(m, "stop_reason", None) for m in resumed.messages if getattr(m, "role", "") == "assistant"] \
        == ["error", "error", "stop"]
    app = make_app(resumed)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await settle(pilot)
        text = transcript_text(app)
    assert "Recovered" in text and "Error" not in text and '"error"' not in text


@pytest.mark.anyio
async def test_a_failed_attempts_partial_reply_becomes_one_line(tmp_path: Path) -> None:
    """New-user run #31: each failed attempt's half answer stayed in the transcript (four copies), and the status
    said "attempt 2 of 3" where the end said "after 4 attempts"."""
    cut = "The stream ended without a finish_reason or [DONE]: the reply was cut off"
    half = faux_assistant_message("This answer will be cut off in the middle", stop_reason="error",
                                  error_message="500 " + cut)
    session, _ = make_session(tmp_path, [half, half, faux_assistant_message("The whole answer")])
    gate = Gate()
    session._sleep = gate.sleep
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("cutoff please")
        await pilot.press("enter")
        await wait_until(pilot, lambda: gate.waiting)
        await pilot.pause()
        app.transcript.flush()
        text = transcript_text(app)
        assert "This answer will be cut off" not in text
        assert f"Attempt 1 of 4 failed: 500 {cut}" in text and "attempt 2 of 4" in app.status_line.message
        gate.release()
        await wait_until(pilot, lambda: len(gate.calls) == 2 and gate.waiting)
        gate.release()
        await wait_until(pilot, lambda: not app.working)
        await settle(pilot)
        text = transcript_text(app)
        assert text.count("This answer will be cut off") == 0 and "The whole answer" in text
        assert "Attempt 1 of 4 failed" in text and "Attempt 2 of 4 failed" in text
        assert text.count("Error:") == 0
        await pilot.press("ctrl+o")  # Ctrl+O shows what the attempts had said
        await pilot.pause()
        assert transcript_text(app).count("This answer will be cut off in the middle") == 2
        await pilot.press("ctrl+o")
        await pilot.pause()
        first = next(i for i in app.transcript.items if i.plain_text().startswith("Attempt 1"))
        assert first.toggle()  # and a click that one's
        assert transcript_text(app).count("This answer will be cut off in the middle") == 1
    assert len(_file_errors(session)) == 2  # the session keeps both failed messages
    from pi_tui.coding.agent_session.factory import create_agent_session

    resumed = create_agent_session(str(tmp_path), no_session=True)  # a resume shows the attempts the same way
    resumed.agent.state.messages = [e.message for e in session.session_manager.get_entries() if e.type == "message"]
    app = make_app(resumed)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await settle(pilot)
        text = transcript_text(app)
    assert "This answer will be cut off" not in text and "The whole answer" in text
    assert "Attempt 1 failed" in text and "Attempt 2 failed" in text and "Error" not in text
