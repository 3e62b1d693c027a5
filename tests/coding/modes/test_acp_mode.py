"""``pi-tui --mode acp`` end to end: the official ACP SDK's client side drives the agent as a subprocess over
real pipes, against the scripted loopback OpenAI-compatible server (issue 14 acceptance)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError

from .acp_client import AcpRun, acp_run, dump
from .helpers import clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()
ARGS = ["--provider", "mock", "--model", "mock-model"]


def _kinds(updates: list[dict[str, Any]]) -> list[str]:
    return [u["sessionUpdate"] for u in updates]


def _text(updates: list[dict[str, Any]], kind: str = "agent_message_chunk") -> str:
    return "".join(u["content"]["text"] for u in updates if u["sessionUpdate"] == kind)


def _statuses(updates: list[dict[str, Any]]) -> list[str | None]:
    """Statuses in order, repeats (live output updates of a running call) collapsed."""
    out: list[str | None] = []
    for update in updates:
        if not out or update.get("status") != out[-1]:
            out.append(update.get("status"))
    return out


def _call_updates(updates: list[dict[str, Any]], call_id: str) -> list[dict[str, Any]]:
    return [u for u in updates if u.get("toolCallId") == call_id]


async def _start(run: AcpRun, cwd: Path) -> str:
    init = await run.conn.initialize(protocol_version=1)
    assert init.agent_capabilities.load_session is True
    assert init.agent_capabilities.prompt_capabilities.image is True
    assert init.agent_capabilities.prompt_capabilities.embedded_context is True
    new = await run.conn.new_session(cwd=str(cwd), mcp_servers=[])
    assert new.modes is not None and new.modes.current_mode_id == "ask"
    return new.session_id


def test_read_edit_bash_with_permissions_streaming_in_order(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    (project / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    script = [
        {"type": "tool", "text": "Reading first.", "calls": [
            {"id": "call_read", "name": "read", "args": {"path": "notes.txt"}}]},
        {"type": "tool", "calls": [{"id": "call_edit", "name": "edit",
                                    "args": {"path": "notes.txt", "edits": [{"oldText": "beta", "newText": "gamma"}]}}]},
        {"type": "tool", "calls": [{"id": "call_bash", "name": "bash", "args": {"command": "echo should-not-run"}}]},
        {"type": "text", "text": "Edited notes.txt; the command was rejected."},
    ]

    async def scenario(run: AcpRun) -> tuple[str, Any]:
        session_id = await _start(run, project)
        run.client.answers = ["allow_once", "reject_once"]
        response = await run.conn.prompt(session_id=session_id, prompt=[{"type": "text", "text": "Change beta."}])
        return session_id, response

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)

        async def main() -> tuple[str, Any, AcpRun]:
            async with acp_run(ARGS, project, env, tmp_path / "stderr.log") as run:
                session_id, response = await scenario(run)
                return session_id, response, run

        session_id, response, run = asyncio.run(main())
    assert response.stop_reason == "end_turn"
    updates = run.updates(session_id)
    assert _text(updates) == "Reading first.Edited notes.txt; the command was rejected."
    read = _call_updates(updates, "call_read")
    assert _statuses(read) == ["pending", "in_progress", "completed"], dump(read)
    assert read[0]["kind"] == "read" and read[0]["title"] == "Read notes.txt"
    assert read[0]["locations"] == [{"path": str(project / "notes.txt")}]
    assert "alpha" in read[-1]["content"][-1]["content"]["text"]
    edit = _call_updates(updates, "call_edit")
    assert _statuses(edit) == ["pending", "in_progress", "completed"], dump(edit)
    assert edit[0]["kind"] == "edit"
    diff = edit[-1]["content"][0]
    assert diff == {"type": "diff", "path": str(project / "notes.txt"), "oldText": "alpha\nbeta\n",
                    "newText": "alpha\ngamma\n"}, dump(diff)
    bash = _call_updates(updates, "call_bash")
    assert _statuses(bash) == ["pending", "failed"], dump(bash)
    assert bash[0]["kind"] == "execute" and bash[0]["title"] == "echo should-not-run"
    assert "rejected" in bash[-1]["content"][0]["content"]["text"]
    assert (project / "notes.txt").read_text() == "alpha\ngamma\n"
    # permission requests: edit and bash (read is never asked), with the three options, after their tool_call
    asked = [r["toolCall"]["toolCallId"] for r in run.client.permission_requests]
    assert asked == ["call_edit", "call_bash"]
    assert run.client.permission_requests[0]["options"] == ["allow_once", "allow_always", "reject_once"]
    wire = [m for m in run.incoming if m.get("method") in ("session/update", "session/request_permission")]
    first_edit = next(i for i, m in enumerate(wire) if m["params"].get("update", {}).get("toolCallId") == "call_edit")
    edit_request = next(i for i, m in enumerate(wire) if m["method"] == "session/request_permission")
    assert first_edit < edit_request
    # wire order: every read update before the edit's, every edit update before the bash call's
    order = [u.get("toolCallId") for u in updates if u.get("toolCallId")]
    assert order == sorted(order, key=["call_read", "call_edit", "call_bash"].index)
    # the model saw the rejection as the tool's error result
    assert "rejected" in json.dumps(server.requests[3]["body"]["messages"][-1])


def test_always_allow_then_cancel_mid_tool(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    script = [
        {"type": "tool", "calls": [{"id": "call_1", "name": "bash", "args": {"command": "echo one"}}]},
        {"type": "tool", "calls": [{"id": "call_2", "name": "bash", "args": {"command": "echo two"}}]},
        {"type": "text", "text": "Both ran."},
        {"type": "tool", "calls": [{"id": "call_slow", "name": "bash",
                                    "args": {"command": "echo started; sleep 30; echo never"}}]},
        {"type": "text", "text": "not reached"},
    ]

    async def main() -> tuple[Any, Any, AcpRun, str]:
        async with acp_run(ARGS, project, env, tmp_path / "stderr.log") as run:
            session_id = await _start(run, project)
            run.client.answers = ["allow_always"]
            first = await run.conn.prompt(session_id=session_id, prompt=[{"type": "text", "text": "Run two."}])
            task = asyncio.ensure_future(run.conn.prompt(session_id=session_id,
                                                         prompt=[{"type": "text", "text": "Run slow."}]))
            await run.wait_for(lambda m: m.get("method") == "session/update"
                               and m["params"]["update"].get("toolCallId") == "call_slow"
                               and "started" in json.dumps(m["params"]["update"].get("content")))
            await run.conn.cancel(session_id=session_id)
            second = await asyncio.wait_for(task, 20)
            return first, second, run, session_id

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        first, second, run, session_id = asyncio.run(main())
    assert first.stop_reason == "end_turn"
    assert [r["toolCall"]["toolCallId"] for r in run.client.permission_requests] == ["call_1"]
    updates = run.updates(session_id)
    assert _statuses(_call_updates(updates, "call_2")) == ["pending", "in_progress", "completed"]
    assert second.stop_reason == "cancelled"
    slow = _call_updates(updates, "call_slow")
    assert slow[-1]["status"] == "failed", dump(slow)
    final_text = slow[-1]["content"][0]["content"]["text"]
    assert "aborted" in final_text and "never" not in final_text, final_text
    assert len(server.requests) == 4  # the run stopped: the reply after the tool was never asked for


def test_load_replays_an_earlier_session(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    (project / "a.txt").write_text("hello file\n", encoding="utf-8")
    script = [
        {"type": "tool", "calls": [{"id": "call_r", "name": "read", "args": {"path": "a.txt"}}]},
        {"type": "text", "text": "The file says hello."},
    ]

    async def first_run() -> str:
        async with acp_run(ARGS, project, env, tmp_path / "stderr.log") as run:
            session_id = await _start(run, project)
            await run.conn.prompt(session_id=session_id, prompt=[{"type": "text", "text": "What is in a.txt?"}])
            return session_id

    async def second_run(session_id: str) -> tuple[Any, AcpRun]:
        async with acp_run(ARGS, project, env, tmp_path / "stderr.log") as run:
            await run.conn.initialize(protocol_version=1)
            response = await run.conn.load_session(cwd=str(project), session_id=session_id, mcp_servers=[])
            return response, run

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        session_id = asyncio.run(first_run())
        response, run = asyncio.run(second_run(session_id))
    assert response is not None
    updates = [u for u in run.updates(session_id) if u["sessionUpdate"] != "available_commands_update"]
    assert _kinds(updates) == ["user_message_chunk", "tool_call", "tool_call_update", "agent_message_chunk"], dump(updates)
    assert updates[0]["content"]["text"] == "What is in a.txt?"
    assert updates[1]["title"] == "Read a.txt" and updates[2]["status"] == "completed"
    assert "hello file" in updates[2]["content"][0]["content"]["text"]
    assert updates[3]["content"]["text"] == "The file says hello."
    # the replay came before the load response
    load_index = next(i for i, m in enumerate(run.incoming) if m.get("id") is not None and "result" in m
                      and m["result"] is not None and "modes" in m["result"])
    last_replay = max(i for i, m in enumerate(run.incoming) if m.get("method") == "session/update"
                      and m["params"]["update"]["sessionUpdate"] != "available_commands_update")
    assert last_replay < load_index


def test_malformed_and_out_of_order_requests_get_errors_and_the_agent_stays_up(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"

    async def main() -> tuple[AcpRun, dict[str, Any]]:
        errors: dict[str, Any] = {}
        async with acp_run([], project, env, tmp_path / "stderr.log") as run:
            with pytest.raises(RequestError) as before_init:
                await run.conn.new_session(cwd=str(project), mcp_servers=[])
            errors["before_init"] = before_init.value.code
            await run.send_raw(b"this is not json\n")
            await run.send_raw(b"[1, 2, 3]\n")
            await run.send_raw(b'{"jsonrpc": "2.0", "id": 77, "method": 5}\n')
            await run.wait_for(lambda m: m.get("id") == 77)
            await run.conn.initialize(protocol_version=1)
            with pytest.raises(RequestError) as unknown_session:
                await run.conn.prompt(session_id="no-such-session", prompt=[{"type": "text", "text": "hi"}])
            errors["unknown_session"] = unknown_session.value.code
            with pytest.raises(RequestError) as unknown_method:
                await run.conn._conn.send_request("session/teleport", {"sessionId": "x"})
            errors["unknown_method"] = unknown_method.value.code
            with pytest.raises(RequestError) as bad_params:
                await run.conn._conn.send_request("session/new", {"mcpServers": []})
            errors["bad_params"] = bad_params.value.code
            with pytest.raises(RequestError) as bad_load:
                await run.conn.load_session(cwd=str(project), session_id="0000-missing", mcp_servers=[])
            errors["bad_load"] = bad_load.value.code
            # still up: a real session and prompt (the offline model) work
            new = await run.conn.new_session(cwd=str(project), mcp_servers=[])
            with pytest.raises(RequestError) as bad_mode:
                await run.conn.set_session_mode(session_id=new.session_id, mode_id="chaos")
            errors["bad_mode"] = bad_mode.value.code
            await run.conn.set_session_mode(session_id=new.session_id, mode_id="allow")
            response = await run.conn.prompt(session_id=new.session_id, prompt=[{"type": "text", "text": "hello"}])
            errors["prompt"] = response.stop_reason
            return run, errors

    run, errors = asyncio.run(main())
    assert errors == {"before_init": -32600, "unknown_session": -32602, "unknown_method": -32601,
                      "bad_params": -32602, "bad_load": -32002, "bad_mode": -32602, "prompt": "end_turn"}, errors
    replies = [m for m in run.incoming if "error" in m and m.get("id") in (None, 77)]
    assert [m["error"]["code"] for m in replies] == [-32700, -32600, -32600], dump(replies)
    assert replies[2]["id"] == 77
    assert run.process.returncode in (None, 0)
