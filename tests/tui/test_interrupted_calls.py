"""A tool call interrupted by a crash is shown as interrupted after resume, in the transcript and the tool panel.

Found by a new-user run (issue 9): after a crash and ``-c`` the tool panel listed the call as "queued" for ever.
The session's context answers such a call with an ``interrupted`` error result (``session/tool_results.py``);
the transcript built from the branch entries (a session with a compaction) did not, so its item stayed pending.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, ToolCall, UserMessage
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.session.tool_results import INTERRUPTED_TEXT
from pi_tui.coding.session_factory import create_agent_session
from pi_tui.tui.widgets.tool_panel import row_text
from pi_tui.tui.widgets.transcript_items import ToolItem

from .helpers import make_app, transcript_text, wait_until


def assistant(*content: object, stop: str = "stop") -> AssistantMessage:
    return AssistantMessage(content=list(content), api="faux", provider="faux", model="faux-1",
                            stop_reason=stop)  # type: ignore[arg-type]


def crashed_file(tmp_path: Path, compacted: bool, calls: int = 1) -> Path:
    """A session file as a SIGKILL during a tool batch leaves it: the calls are stored, their results are not."""
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(UserMessage(content="first question"))
    manager.append_message(assistant(TextContent(text="first answer")))
    kept = manager.append_message(UserMessage(content="second question"))
    manager.append_message(assistant(TextContent(text="second answer")))
    if compacted:
        manager.append_compaction("## Goal\nTwo questions.", kept, 1234)
    manager.append_message(UserMessage(content="run it"))
    batch = [ToolCall(id=f"call-{n}", name="bash", arguments={"command": f"sleep {60 + n}"}) for n in range(calls)]
    manager.append_message(assistant(TextContent(text="Running bash."), *batch, stop="toolUse"))
    path = manager.get_session_file()
    assert path is not None and path.exists()
    return path


@pytest.mark.parametrize("compacted", [False, True])
@pytest.mark.parametrize("calls", [1, 2])
@pytest.mark.anyio
async def test_a_call_cut_off_by_a_crash_is_interrupted_after_resume(tmp_path: Path, compacted: bool,
                                                                     calls: int) -> None:
    path = crashed_file(tmp_path, compacted, calls)
    session = create_agent_session(str(tmp_path), session_path=str(path))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.1)
        tools = [i for i in app.transcript.items if isinstance(i, ToolItem)]
        assert [t.tool_call_id for t in tools] == [f"call-{n}" for n in range(calls)]
        for tool in tools:
            assert tool.status == "interrupted" and tool.result_text == INTERRUPTED_TEXT
        assert transcript_text(app).count("Tool execution was interrupted") == calls
        await pilot.press("f2")
        await wait_until(pilot, lambda: app.tool_panel.is_built)
        await pilot.pause(0.1)
        rows = [row_text(t, app.pi_theme).plain for t in app.tool_panel.calls]
        assert len(rows) == calls and not any("queued" in r for r in rows)
        assert all("interrupted" in r for r in rows)
