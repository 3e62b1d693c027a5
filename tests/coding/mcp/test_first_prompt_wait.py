"""The first prompt waits for MCP servers still connecting, in every front end (new-user run: in the app the first
prompt went out at once without the MCP tools, "Tool mcp__time__get_current_time not found", and nothing said the
server was still connecting; ``-p`` waited 10 s, then ran without them, silently). The wait is in the session's
prompt path (the MCP link's prompt attacher), so the TUI, RPC and ACP get it; a server still connecting when the
wait ends is one warning naming it; print mode waits for every server's connection attempt (a one-shot run has no
later prompt) and says on stderr which servers it runs without."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, register_faux_provider
from pi_tui.ai.types import Context
from pi_tui.coding.mcp import session_link
from pi_tui.coding.session_factory import create_agent_session
from tests.coding.mcp.conftest import FAULT_SERVER
from tests.coding.mcp.helpers import collect_notices

pytestmark = pytest.mark.anyio
CONFORMANCE = str(Path(__file__).resolve().parents[2] / "conformance")


def _write_config(agent: Path, servers: dict[str, Any]) -> None:
    agent.mkdir(parents=True, exist_ok=True)
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": servers}))


def _slow(seconds: float) -> dict[str, Any]:
    """The fault server, started ``seconds`` late (a slow import / an npx install)."""
    command = f"sleep {seconds}; exec {shlex.quote(sys.executable)} {shlex.quote(str(FAULT_SERVER))}"
    return {"command": "sh", "args": ["-c", command]}


def _session(cwd: Path, faux: FauxProvider) -> Any:
    session = create_agent_session(str(cwd), session_dir=str(cwd / "sessions"))
    model = faux.get_model()
    session.models.allow(faux.provider, model.id, model)
    session.set_model(model)
    return session


def _recording(faux: FauxProvider) -> list[list[str]]:
    seen: list[list[str]] = []

    def step(context: Context, options: Any, state: Any, model: Any) -> Any:
        seen.append([t.name for t in context.tools or []])
        return faux_assistant_message("ok")

    faux.set_responses([step, step])
    return seen


async def test_the_first_prompt_waits_for_a_connecting_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_config(tmp_path / "agent", {"slow": _slow(1)})
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    monkeypatch.setattr(session_link, "FIRST_PROMPT_WAIT_S", 120.0)  # a loaded machine: the point is that it waits
    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1", "name": "Faux"}])
    try:
        session = _session(tmp_path, faux)
        notices = collect_notices(session)
        seen = _recording(faux)
        assert not session.mcp.started  # nobody started the servers: the first prompt does, and waits
        await session.prompt("what time is it?")
        assert "mcp__slow__echo" in seen[0]
        assert not any("still connecting" in n for n in notices)
        await session.mcp.close()
    finally:
        faux.unregister()


async def test_a_server_still_connecting_after_the_wait_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_config(tmp_path / "agent", {"stuck": {"command": "sh", "args": ["-c", "sleep 3600"]}})
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    monkeypatch.setattr(session_link, "FIRST_PROMPT_WAIT_S", 0.3)
    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1", "name": "Faux"}])
    try:
        session = _session(tmp_path, faux)
        notices = collect_notices(session)
        seen = _recording(faux)
        await session.prompt("first")
        await session.prompt("second")  # only the first prompt waits, and the warning is said once
        assert not any(name.startswith("mcp__") for name in seen[0])
        still = [n for n in notices if "still connecting" in n]
        assert len(still) == 1 and "stuck" in still[0] and "not in this prompt" in still[0]
        # about this run only: shown, never saved (new-user run: resumes replayed stale MCP warnings as current)
        assert not any("still connecting" in getattr(m, "text", "") for m in session.messages)
        text = await asyncio.to_thread(Path(session.session_file).read_text) if session.session_file else ""
        assert "still connecting" not in text
        await session.mcp.close()
    finally:
        faux.unregister()


async def test_print_mode_waits_past_the_first_prompt_limit_and_names_servers_it_runs_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from pi_tui.coding.modes import print_mode

    sys.path.insert(0, CONFORMANCE)
    from mock_llm_server import MockLlmServer

    agent = tmp_path / "agent"
    _write_config(agent, {"slow": _slow(1),
                          "stuck": {"command": "sh", "args": ["-c", "sleep 3600"], "timeout": 1}})
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    monkeypatch.setattr(session_link, "FIRST_PROMPT_WAIT_S", 0.2)  # print mode must not stop at this limit
    with MockLlmServer([{"type": "text", "text": "it is noon"}]).start() as server:
        (agent / "models.json").write_text(json.dumps({"providers": {"local": {
            "baseUrl": f"http://127.0.0.1:{server.port}/v1", "api": "openai-completions", "apiKey": "none",
            "models": [{"id": "m"}]}}}))
        options = {"cwd": str(tmp_path), "session_dir": str(tmp_path / "s"), "provider": "local", "model": "m"}
        code = await print_mode._run(options, ["what time is it?"], json_mode=False, images=[])
        err = capsys.readouterr().err
        assert code == 0, err
        names = [t["function"]["name"] for t in server.requests[0]["body"].get("tools", [])]
        assert "mcp__slow__echo" in names  # waited for the slow one
        assert "MCP server stuck" in err  # the run went on without it, and said so on stderr
