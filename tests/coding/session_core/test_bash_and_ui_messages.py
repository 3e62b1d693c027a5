"""User bash persistence, UI-only messages and artifacts (pi-reference §3.3, §3.11; DESIGN.md UI-only roles)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.coding.messages import bash_execution_to_text, convert_to_llm

from .helpers import EchoTool, Recorder, make_session, session_lines

pytestmark = pytest.mark.anyio


def _capture(seen: list[Any], reply: str = "ok") -> Any:
    def factory(context: Any, options: Any, state: Any, model: Any) -> Any:
        seen.append(context)
        return faux_assistant_message(reply)

    return factory


async def test_bash_recorded_immediately_when_idle_without_message_events(tmp_path: Path, faux: FauxProvider) -> None:
    seen: list[Any] = []
    faux.set_responses([faux_assistant_message("a"), _capture(seen)])
    session = make_session(tmp_path, faux.get_model())
    await session.prompt("first")
    rec = Recorder(session)
    chunks: list[str] = []
    result = await session.execute_bash("echo hello; exit 3", on_chunk=chunks.append)
    assert (result.output, result.exit_code, result.cancelled) == ("hello\n", 3, False)
    assert "".join(chunks) == "hello\n"
    assert rec.events == []  # no message_start/message_end for bash runs (pi)
    assert session.messages[-1].role == "bashExecution"
    assert session_lines(session)[-1]["message"]["role"] == "bashExecution"
    await session.execute_bash("echo secret-excluded", exclude_from_context=True)
    await session.prompt("next")
    texts = [b.text for m in seen[0].messages if m.role == "user" for b in m.content if b.type == "text"]
    assert "Ran `echo hello; exit 3`\n```\nhello\n\n```\n\nCommand exited with code 3" in texts
    assert not any("secret-excluded" in t for t in texts)


async def test_bash_deferred_while_streaming_and_flushed_before_next_prompt(tmp_path: Path, faux: FauxProvider) -> None:
    gate, in_call = asyncio.Event(), asyncio.Event()
    seen: list[Any] = []

    async def slow(context: Any, options: Any, state: Any, model: Any) -> Any:
        in_call.set()
        await gate.wait()
        return faux_assistant_message("first")

    faux.set_responses([slow, _capture(seen)])
    session = make_session(tmp_path, faux.get_model())
    run = asyncio.create_task(session.prompt("one"))
    await in_call.wait()
    await session.execute_bash("echo during")
    assert not any(m.role == "bashExecution" for m in session.messages)
    gate.set()
    await run
    assert not any(m.role == "bashExecution" for m in session.messages)
    await session.prompt("two")
    roles = [m.role for m in session.messages]
    assert roles == ["user", "assistant", "bashExecution", "user", "assistant"]
    file_roles = [line["message"]["role"] for line in session_lines(session) if line["type"] == "message"]
    assert file_roles == roles


async def test_abort_bash_cancels(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model())
    started = asyncio.Event()
    task = asyncio.create_task(session.execute_bash("echo started; sleep 20", on_chunk=lambda _c: started.set()))
    await asyncio.wait_for(started.wait(), 10)
    assert session.is_bash_running
    session.abort_bash()
    result = await asyncio.wait_for(task, 10)
    assert result.cancelled and result.exit_code is None
    assert bash_execution_to_text(session.messages[-1]).endswith("(command cancelled)")


async def test_notifications_and_artifacts_are_recorded_but_never_sent(tmp_path: Path, faux: FauxProvider) -> None:
    seen: list[Any] = []
    faux.set_responses([_capture(seen)])
    session = make_session(tmp_path, faux.get_model())
    rec = Recorder(session)
    session.notify("warning", "NOTE-TEXT-1")
    session.add_artifact("plan", "markdown", "ARTIFACT-TEXT-2", path="plan.md")
    assert rec.types() == ["message_start:notification", "message_end:notification",
                           "message_start:artifact", "message_end:artifact"]
    await session.prompt("hi")
    sent = repr(seen[0].messages)
    assert "NOTE-TEXT-1" not in sent and "ARTIFACT-TEXT-2" not in sent
    custom = [line for line in session_lines(session) if line["type"] == "custom"]
    assert [c["customType"] for c in custom] == ["pi-tui.notification", "pi-tui.artifact"]
    assert custom[0]["data"]["text"] == "NOTE-TEXT-1" and custom[1]["data"]["path"] == "plan.md"
    reloaded = session.session_manager.build_session_context(include_ui=True).messages
    assert [m.role for m in reloaded][:2] == ["notification", "artifact"]


async def test_tool_result_artifacts_become_artifact_messages_after_the_result(tmp_path: Path, faux: FauxProvider) -> None:
    seen: list[Any] = []
    faux.set_responses([
        faux_assistant_message([faux_tool_call("echo", {"text": "did it", "artifact": "-a\n+b"}, id="c1")],
                               stop_reason="toolUse"),
        _capture(seen, "done"),
    ])
    session = make_session(tmp_path, faux.get_model(), tools=[EchoTool()])
    rec = Recorder(session)
    await session.prompt("go")
    types = rec.types()
    i = types.index("message_end:toolResult")
    assert types[i + 1 : i + 3] == ["message_start:artifact", "message_end:artifact"]
    artifact = next(m for m in session.messages if m.role == "artifact")
    assert (artifact.kind, artifact.content, artifact.path) == ("diff", "-a\n+b", "out.txt")
    result = next(m for m in session.messages if m.role == "toolResult")
    assert result.details is None  # the artifacts left the result's details
    assert [m.role for m in seen[0].messages] == ["user", "assistant", "toolResult"]


def test_convert_to_llm_exact_wording() -> None:
    out = convert_to_llm([
        {"role": "compactionSummary", "summary": "S", "tokensBefore": 1, "timestamp": 1},
        {"role": "branchSummary", "summary": "B", "fromId": "x", "timestamp": 1},
        {"role": "custom", "customType": "k", "content": "C", "display": False, "timestamp": 1},
        {"role": "bashExecution", "command": "ls", "output": "", "exitCode": 0, "cancelled": False,
         "truncated": True, "fullOutputPath": "/tmp/x.log", "timestamp": 1},
        {"role": "notification", "level": "info", "text": "N", "timestamp": 1},
        {"role": "artifact", "title": "t", "kind": "text", "content": "A", "timestamp": 1},
        {"role": "mystery", "timestamp": 1},
    ])
    texts = [m.content[0].text for m in out]
    assert texts == [
        "The conversation history before this point was compacted into the following summary:\n\n<summary>\nS\n</summary>",
        "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nB</summary>",
        "C",
        "Ran `ls`\n(no output)\n\n[Output truncated. Full output: /tmp/x.log]",
    ]
