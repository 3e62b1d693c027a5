"""``--mode acp`` with a client that offers ``terminal`` (issue 14): ``bash`` runs in the client's terminals
(``terminal/create``, ``output``, ``wait_for_exit``, ``kill``, ``release``; pi_tui/coding/modes/acp/terminal.py),
its output and exit code reach the model as a local run's would, the timeout and ``session/cancel`` kill the
terminal, and every terminal is released. The SDK's own client side over real pipes, as the other ACP tests."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

from acp.schema import (
    ClientCapabilities,
    CreateTerminalResponse,
    KillTerminalResponse,
    ReleaseTerminalResponse,
    TerminalExitStatus,
    TerminalOutputResponse,
    WaitForTerminalExitResponse,
)

from pi_tui.coding.modes.acp.terminal import new_part

from .acp_client import RecordingClient, acp_run, dump
from .helpers import clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()


class TerminalClient(RecordingClient):
    """Runs each terminal as a local process (output of stdout and stderr together), recording every call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, Any]] = []
        self.processes: dict[str, asyncio.subprocess.Process] = {}
        self.output: dict[str, bytearray] = {}
        self.readers: dict[str, asyncio.Task[None]] = {}
        self.started = asyncio.Event()

    async def create_terminal(self, session_id: str, command: str, args: list[str] | None = None,
                              env: list[Any] | None = None, cwd: str | None = None,
                              output_byte_limit: int | None = None, **kwargs: Any) -> CreateTerminalResponse:
        terminal_id = f"t{len(self.processes) + 1}"
        extra = {e.name: e.value for e in env or []}
        self.calls.append(("create", {"id": terminal_id, "command": command, "args": args, "cwd": cwd,
                                      "env": extra, "limit": output_byte_limit}))
        process = await asyncio.create_subprocess_exec(
            command, *(args or []), cwd=cwd, env={**os.environ, **extra}, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, start_new_session=True)
        self.processes[terminal_id] = process
        self.output[terminal_id] = bytearray()

        async def read() -> None:
            assert process.stdout is not None
            while chunk := await process.stdout.read(4096):
                self.output[terminal_id].extend(chunk)
                self.started.set()

        self.readers[terminal_id] = asyncio.ensure_future(read())
        return CreateTerminalResponse(terminal_id=terminal_id)

    def _status(self, terminal_id: str) -> TerminalExitStatus | None:
        code = self.processes[terminal_id].returncode
        if code is None:
            return None
        if code < 0:
            return TerminalExitStatus(signal=signal.Signals(-code).name)
        return TerminalExitStatus(exit_code=code)

    async def terminal_output(self, session_id: str, terminal_id: str, **kwargs: Any) -> TerminalOutputResponse:
        if self.processes[terminal_id].returncode is not None:
            await self.readers[terminal_id]
        text = self.output[terminal_id].decode("utf-8", errors="replace")
        return TerminalOutputResponse(output=text, truncated=False, exit_status=self._status(terminal_id))

    async def wait_for_terminal_exit(self, session_id: str, terminal_id: str,
                                     **kwargs: Any) -> WaitForTerminalExitResponse:
        self.calls.append(("wait", terminal_id))
        await self.processes[terminal_id].wait()
        await self.readers[terminal_id]
        status = self._status(terminal_id)
        assert status is not None
        return WaitForTerminalExitResponse(exit_code=status.exit_code, signal=status.signal)

    async def kill_terminal(self, session_id: str, terminal_id: str, **kwargs: Any) -> KillTerminalResponse:
        self.calls.append(("kill", terminal_id))
        process = self.processes[terminal_id]
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
        return KillTerminalResponse()

    async def release_terminal(self, session_id: str, terminal_id: str, **kwargs: Any) -> ReleaseTerminalResponse:
        self.calls.append(("release", terminal_id))
        process = self.processes[terminal_id]
        if process.returncode is None:
            os.killpg(process.pid, signal.SIGKILL)
            await process.wait()
        return ReleaseTerminalResponse()


def _tool_text(body: dict[str, Any]) -> str:
    return json.dumps(body["messages"][-1])


def test_bash_runs_in_the_clients_terminal_with_timeout_and_cancel(tmp_path: Path) -> None:
    env = clean_env(tmp_path, PI_TUI_SECRET_PROBE="not-for-the-client")
    project = tmp_path / "project"
    (tmp_path / "agent" / "settings.json").write_text(json.dumps({"acp": {"defaultMode": "allow"}}))
    script = [
        {"type": "tool", "calls": [{"id": "b1", "name": "bash", "args": {
            "command": "echo out-line; echo err-line >&2; pwd; exit 3"}}]},
        {"type": "tool", "calls": [{"id": "b2", "name": "bash", "args": {"command": "echo before; sleep 30",
                                                                       "timeout": 1}}]},
        {"type": "text", "text": "first turn done"},
        {"type": "tool", "calls": [{"id": "b3", "name": "bash", "args": {"command": "echo started; sleep 30"}}]},
        {"type": "text", "text": "not reached"},
    ]
    client = TerminalClient()

    async def main() -> Any:
        async with acp_run(["--provider", "mock", "--model", "mock-model"], project, env,
                           tmp_path / "stderr.log", client=client) as run:
            await run.conn.initialize(protocol_version=1, client_capabilities=ClientCapabilities(terminal=True))
            new = await run.conn.new_session(cwd=str(project), mcp_servers=[])
            first = await run.conn.prompt(session_id=new.session_id, prompt=[{"type": "text", "text": "run"}])
            client.started.clear()
            second = asyncio.ensure_future(run.conn.prompt(session_id=new.session_id,
                                                           prompt=[{"type": "text", "text": "again"}]))
            await asyncio.wait_for(client.started.wait(), 60)  # t3 printed (t1 and t2 have exited)
            assert "started" in client.output["t3"].decode()
            await run.conn.cancel(session_id=new.session_id)
            cancelled = await asyncio.wait_for(second, 30)
            return first, cancelled, run.updates(new.session_id)

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        first, cancelled, updates = asyncio.run(main())
        bodies = [r["body"] for r in server.requests]
    assert first.stop_reason == "end_turn", dump(updates)
    assert cancelled.stop_reason == "cancelled"
    creates = [c[1] for c in client.calls if c[0] == "create"]
    assert [c["args"][-1] for c in creates] == ["echo out-line; echo err-line >&2; pwd; exit 3",
                                               "echo before; sleep 30", "echo started; sleep 30"]
    assert all(c["cwd"] == str(project) and c["args"][:-1] == ["-c"] for c in creates)
    assert all("PI_TUI_SECRET_PROBE" not in c["env"] for c in creates)  # only changed variables are sent
    one = _tool_text(bodies[1])
    assert "out-line" in one and "err-line" in one and str(project) in one and "Command exited with code 3" in one
    two = _tool_text(bodies[2])
    assert "before" in two and "Command timed out after 1 seconds" in two
    assert ("kill", "t2") in client.calls and ("kill", "t3") in client.calls and ("kill", "t1") not in client.calls
    assert [c[1] for c in client.calls if c[0] == "release"] == ["t1", "t2", "t3"]  # every terminal released
    assert all(p.returncode is not None for p in client.processes.values())
    final = [u for u in updates if u.get("toolCallId") == "b3"][-1]
    assert final["status"] == "failed" and "Command aborted" in json.dumps(final)
    b1 = [u for u in updates if u.get("toolCallId") == "b1"]
    embedded = [u for u in b1 if u.get("status") == "in_progress" and u.get("content")]
    assert embedded[0]["content"] == [{"type": "terminal", "terminalId": "t1"}]  # the client shows it live
    assert b1[-1]["status"] == "failed" and b1[-1]["content"][0] == {"type": "terminal", "terminalId": "t1"}
    assert "out-line" in json.dumps(b1[-1]["content"][1:])  # and the result text after it


def test_without_the_capability_bash_stays_local(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    (tmp_path / "agent" / "settings.json").write_text(json.dumps({"acp": {"defaultMode": "allow"}}))
    script = [{"type": "tool", "calls": [{"id": "b", "name": "bash", "args": {"command": "echo local-run"}}]},
              {"type": "text", "text": "ok"}]
    client = TerminalClient()

    async def main() -> Any:
        async with acp_run(["--provider", "mock", "--model", "mock-model"], project, env,
                           tmp_path / "stderr.log", client=client) as run:
            await run.conn.initialize(protocol_version=1, client_capabilities=ClientCapabilities(terminal=False))
            new = await run.conn.new_session(cwd=str(project), mcp_servers=[])
            return await run.conn.prompt(session_id=new.session_id, prompt=[{"type": "text", "text": "go"}])

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        response = asyncio.run(main())
        bodies = [r["body"] for r in server.requests]
    assert response.stop_reason == "end_turn"
    assert "local-run" in _tool_text(bodies[1]) and client.calls == []


def test_new_part_of_a_growing_or_truncated_output() -> None:
    assert new_part("", "abc") == "abc"
    assert new_part("abc", "abcdef") == "def"
    tail = "x" * 40 + "the end of line 1\n"
    assert new_part("dropped start " + tail, tail + "line 2\n") == "line 2\n"  # the client dropped the start
    assert new_part("something else entirely", "fresh") == "fresh"
