"""Units of ``--mode acp``: event → update mapping, prompt content, bad-line checks, the ACP ExtensionUI."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from acp.schema import AllowedOutcome, DeniedOutcome, RequestPermissionResponse
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.agent.events import ToolExecutionEndEvent, ToolExecutionStartEvent
from pi_tui.agent.types import AgentToolResult
from pi_tui.ai.types import TextContent
from pi_tui.coding.messages import ArtifactMessage, NotificationMessage
from pi_tui.coding.modes.acp.permissions import AcpExtensionUI
from pi_tui.coding.modes.acp.prompt_content import prompt_from_blocks
from pi_tui.coding.modes.acp.transport import check_message
from pi_tui.coding.modes.acp.updates import UpdateMapper, plan_from_details, replay_updates


def _dump(updates: list[Any]) -> list[dict[str, Any]]:
    return [u.model_dump(by_alias=True, exclude_none=True) for u in updates]


def test_thinking_and_text_deltas_become_thought_and_message_chunks() -> None:
    mapper = UpdateMapper("/tmp")
    thinking = {"type": "message_update", "assistant_message_event": {"type": "thinking_delta", "delta": "hmm"}}
    text = {"type": "message_update", "assistant_message_event": {"type": "text_delta", "delta": "Hi"}}
    out = _dump(mapper.map(thinking) + mapper.map(text))
    assert out == [{"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "hmm"}},
                   {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "Hi"}}]


def test_a_todo_result_gives_plan_entries() -> None:
    details = {"action": "add", "todos": [{"id": 1, "text": "write tests", "done": True},
                                          {"id": 2, "text": "land", "done": False}], "nextId": 3}
    mapper = UpdateMapper("/tmp")
    mapper.map(ToolExecutionStartEvent(tool_call_id="t1", tool_name="todo", args={"action": "add"}))
    end = ToolExecutionEndEvent(tool_call_id="t1", tool_name="todo", is_error=False,
                                result=AgentToolResult(content=[TextContent(text="Added")], details=details))
    out = _dump(mapper.map(end))
    assert out[0]["status"] == "completed"
    assert out[1] == {"sessionUpdate": "plan", "entries": [
        {"content": "write tests", "priority": "medium", "status": "completed"},
        {"content": "land", "priority": "medium", "status": "pending"}]}
    assert plan_from_details({"plan": [{"content": "x", "status": "in_progress", "priority": "high"}]})[0].status \
        == "in_progress"
    assert plan_from_details({"other": 1}) is None


def test_write_gives_a_diff_with_old_and_new_text(tmp_path: Path) -> None:
    target = tmp_path / "f.txt"
    target.write_text("old\n")
    mapper = UpdateMapper(str(tmp_path))
    start = _dump(mapper.map(ToolExecutionStartEvent(tool_call_id="w", tool_name="write",
                                                     args={"path": "f.txt", "content": "new\n"})))
    assert start[0]["kind"] == "edit" and start[0]["title"] == "Write f.txt"
    target.write_text("new\n")
    end = _dump(mapper.map(ToolExecutionEndEvent(tool_call_id="w", tool_name="write", is_error=False,
                                                 result=AgentToolResult(content=[TextContent(text="ok")]))))
    assert end[0]["content"][0] == {"type": "diff", "path": str(target), "oldText": "old\n", "newText": "new\n"}
    # the tool's own diff artifact for the same file is not shown a second time; another artifact is
    artifact = ArtifactMessage(title="f.txt", kind="diff", content="@@", path="f.txt")
    assert mapper.map({"type": "message_end", "message": artifact}) == []
    other = ArtifactMessage(title="Report", kind="markdown", content="# done")
    card = _dump(mapper.map({"type": "message_end", "message": other}))
    assert card[0]["sessionUpdate"] == "tool_call" and card[0]["title"] == "Report" and card[0]["status"] == "completed"


def test_a_new_file_diff_has_no_old_text(tmp_path: Path) -> None:
    mapper = UpdateMapper(str(tmp_path))
    mapper.map(ToolExecutionStartEvent(tool_call_id="w", tool_name="write", args={"path": "n.txt", "content": "x"}))
    (tmp_path / "n.txt").write_text("x")
    end = _dump(mapper.map(ToolExecutionEndEvent(tool_call_id="w", tool_name="write", is_error=False,
                                                 result=AgentToolResult(content=[TextContent(text="ok")]))))
    assert end[0]["content"][0] == {"type": "diff", "path": str(tmp_path / "n.txt"), "newText": "x"}


def test_notifications_reach_the_client_as_text_and_replay_keeps_them() -> None:
    note = NotificationMessage(level="warning", text="Disk almost full")
    live = _dump(UpdateMapper("/tmp").map({"type": "message_end", "message": note}))
    assert "Warning: Disk almost full" in live[0]["content"]["text"]
    replayed = _dump(replay_updates([note], "/tmp"))
    assert replayed == live


def test_prompt_content_blocks() -> None:
    text, images = prompt_from_blocks([
        {"type": "text", "text": "Look:"},
        {"type": "resource", "resource": {"uri": "file:///w/a%20b.py", "text": "print(1)"}},
        {"type": "resource_link", "uri": "file:///w/c.py", "name": "c.py"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///w/x.bin", "blob": "AAAA", "mimeType": "application/zip"}},
    ])
    assert text.splitlines()[0] == "Look:"
    assert '<file name="/w/a b.py">\nprint(1)\n</file>' in text
    assert "[file: /w/c.py]" in text and "x.bin" in text and "AAAA" not in text
    assert [(i.mime_type, i.data) for i in images] == [("image/png", "iVBORw0KGgo=")]
    with pytest.raises(ValueError, match="audio"):
        prompt_from_blocks([{"type": "audio", "data": "", "mimeType": "audio/wav"}])


@settings(max_examples=200, derandomize=True)
@given(st.binary(max_size=60))
def test_check_message_never_raises_and_answers_every_bad_line(line: bytes) -> None:
    message, error = check_message(line)
    assert (message is None) != (error is None)
    if error is not None:
        assert error["error"]["code"] in (-32700, -32600) and error["jsonrpc"] == "2.0"


def test_extension_ui_confirm_and_select_go_through_permission_requests() -> None:
    asked: list[Any] = []
    answers = [AllowedOutcome(outcome="selected", option_id="yes"), DeniedOutcome(outcome="cancelled"),
               AllowedOutcome(outcome="selected", option_id="1")]
    shown: list[str] = []

    async def ask(tool_call: Any, options: Any) -> RequestPermissionResponse:
        asked.append((tool_call.title, [o.name for o in options]))
        return RequestPermissionResponse(outcome=answers.pop(0))

    async def never(tool_call: Any, options: Any) -> RequestPermissionResponse:
        await asyncio.sleep(10)
        raise AssertionError("not reached")

    async def main() -> list[Any]:
        ui = AcpExtensionUI(ask, shown.append, lambda title: None)
        results = [await ui.confirm("Delete?", "rm -rf build"), await ui.confirm("Again?"),
                   await ui.select("Pick", ["red", "green"]), await ui.input("Name")]
        ui.notify("saved", "error")
        slow = AcpExtensionUI(never, shown.append, lambda title: None)
        results.append(await slow.confirm("Slow?", timeout_ms=20))
        return results

    assert asyncio.run(main()) == [True, False, "green", None, False]
    assert asked == [("Delete?", ["Yes", "No"]), ("Again?", ["Yes", "No"]), ("Pick", ["red", "green"])]
    assert "Error: saved" in shown[0]
