"""pi 1.6.0 (#12119): ``/copy`` said "No agent messages to copy yet." after Esc during a tool call or after a
provider error, though an answer was on screen. The last reply with text is copied (``get_last_assistant_text``,
also RPC's)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call

from ..coding.session_core.helpers import SleepRecorder, make_session

pytestmark = pytest.mark.anyio


async def test_the_previous_answer_is_copied_after_an_interrupted_tool_call(tmp_path: Path, faux: FauxProvider) -> None:
    from pi_tui.agent.types import AgentTool, AgentToolResult
    from pi_tui.ai.types import TextContent

    started = asyncio.Event()

    class Slow(AgentTool):
        def __init__(self) -> None:
            super().__init__(name="slow", label="slow", description="waits", parameters={"type": "object"})

        async def execute(self, tool_call_id, params, signal=None, on_update=None):  # type: ignore[no-untyped-def,override]
            started.set()
            await asyncio.sleep(30)
            return AgentToolResult(content=[TextContent(text="late")])

    faux.set_responses([
        faux_assistant_message("The first answer."),
        faux_assistant_message([faux_tool_call("slow", {}, id="c1")], stop_reason="toolUse"),
    ])
    session = make_session(tmp_path, faux.get_model(), tools=[Slow()], sleep=SleepRecorder())
    await session.prompt("one")
    run = asyncio.create_task(session.prompt("two"))
    await asyncio.wait_for(started.wait(), 10)
    await session.abort()
    await run
    roles = [m.role for m in session.messages if m.role not in ("notification", "artifact")]
    assert "toolResult" in roles[-2:]  # the interrupted call has its result
    assert session.get_last_assistant_text() == "The first answer."


async def test_the_previous_answer_is_copied_after_a_provider_error(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([
        faux_assistant_message("The first answer."),
        faux_assistant_message("", stop_reason="error", error_message="400 Bad Request"),
    ])
    session = make_session(tmp_path, faux.get_model(), sleep=SleepRecorder())
    await session.prompt("one")
    await session.prompt("two")
    assert session.get_last_assistant_text() == "The first answer."
