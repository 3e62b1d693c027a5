"""MCP in a session built by ``create_agent_session`` (issue 13): servers of ``$PI_TUI_DIR/mcp.json`` start in the
background, their tools join the agent's tools, the faux model calls them, a failed server is one notification,
RPC ``get_state`` reports the servers, ``--tools``/``--no-mcp`` select, and secrets stay out of the session file."""

from __future__ import annotations

import asyncio
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, register_faux_provider
from pi_tui.coding.modes.json_mode import JsonLineWriter
from pi_tui.coding.modes.rpc_mode import RpcServer
from pi_tui.coding.session_factory import create_agent_session
from tests.coding.mcp.conftest import FAULT_SERVER
from tests.coding.mcp.helpers import collect_notices, result_text, script_calls

pytestmark = pytest.mark.anyio

TOKEN = "tok3nS3cretValue12345"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An agent dir with two servers: ``fault`` (gets ``FAULT_TOKEN`` from ``${MY_TOKEN}``) and ``dead``."""
    agent = tmp_path / "agent"
    agent.mkdir()
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {
        "fault": {"command": sys.executable, "args": [str(FAULT_SERVER)], "env": {"FAULT_TOKEN": "${MY_TOKEN}"}},
        "dead": {"command": sys.executable, "args": [str(FAULT_SERVER), "--crash-at-start"]},
    }}))
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    monkeypatch.setenv("MY_TOKEN", TOKEN)
    return agent


@pytest.fixture
def faux() -> Iterator[FauxProvider]:
    provider = register_faux_provider(provider="faux", models=[{"id": "faux-1", "name": "Faux"}])
    yield provider
    provider.unregister()


def _session(cwd: Path, faux: FauxProvider, **options: Any) -> Any:
    session = create_agent_session(str(cwd), session_dir=str(cwd / "sessions"), **options)
    model = faux.get_model()
    session.models.allow(faux.provider, model.id, model)
    session.set_model(model)
    return session


async def test_session_offers_mcp_tools_and_reports_a_failed_server_once(
    tmp_path: Path, home: Path, faux: FauxProvider
) -> None:
    session = _session(tmp_path, faux)
    shown = collect_notices(session)
    link = session.mcp
    assert link.enabled and not link.started and link.tools() == []
    link.start()  # returns at once; the servers connect in the background
    assert {c.state for c in link.manager.connections.values()} == {"connecting"}
    sees = script_calls(faux, [("mcp__fault__echo", {"text": TOKEN})])
    try:
        await link.manager.wait_ready(60)  # a loaded machine may need more than before_prompt's 10 s
        await link.before_prompt()
        names = [t.name for t in session.agent.state.tools]
        assert names[:4] == ["read", "bash", "edit", "write"] and "mcp__fault__echo" in names
        assert "mcp__fault__echo" in session.all_tools
        await session.prompt("echo the token")
        assert result_text(sees.results[0]) == f"echo: {TOKEN}"  # the model got it
        assert sum("MCP server dead failed" in n for n in shown) == 1
        assert "cannot start (missing FAULT_TOKEN)" in next(n for n in shown if "dead failed" in n)
        saved = [m.text for m in session.messages if getattr(m, "role", None) == "notification"]
        assert not any("dead failed" in n for n in saved)  # a server's state is about this run: shown, not saved
        text = await asyncio.to_thread(Path(session.session_file).read_text)
        assert TOKEN not in text and "[REDACTED]" in text  # the server's env value never reaches the file
        assert "mcp:fault:greet" in session.commands  # its prompt is a slash command
        rows = await _rpc_state(session)
        assert {r["name"]: (r["state"], r["tools"]) for r in rows} == {"fault": ("connected", 9), "dead": ("failed", 0)}
    finally:
        await link.close()


async def _rpc_state(session: Any) -> list[dict[str, Any]]:
    stream = io.BytesIO()
    server = RpcServer(session, JsonLineWriter(stream))
    server.handle_line(b'{"id":"s","type":"get_state"}')
    await asyncio.sleep(0)
    await server.drain()
    lines = [json.loads(line) for line in stream.getvalue().decode().splitlines()]
    (response,) = [line for line in lines if line.get("type") == "response"]
    return list(response["data"].get("mcpServers", []))  # absent without servers: pi's exact state


async def test_tools_patterns_and_no_mcp(tmp_path: Path, home: Path, faux: FauxProvider) -> None:
    picked = _session(tmp_path, faux, tools=["read", "mcp__fault__e*"])
    assert [t.name for t in picked.agent.state.tools] == ["read"]  # the mcp__ entry is not a built-in name
    picked.mcp.start()
    try:
        await picked.mcp.manager.wait_ready(60)
        assert [t.name for t in picked.agent.state.tools] == ["read", "mcp__fault__echo"]
    finally:
        await picked.mcp.close()
    off = _session(tmp_path, faux, no_mcp=True)
    off.mcp.start()
    assert not off.mcp.enabled and off.mcp.state() == []
    assert all(c.state == "disabled" for c in off.mcp.manager.connections.values())  # never started
    await off.mcp.before_prompt()
    assert not any(t.name.startswith("mcp__") for t in off.agent.state.tools)
    assert (await _rpc_state(off)) == []


async def test_abort_during_an_mcp_call_gives_an_error_result_and_the_session_goes_on(
    tmp_path: Path, home: Path, faux: FauxProvider
) -> None:
    from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call

    session = _session(tmp_path, faux)
    session.mcp.start()
    try:
        await session.mcp.manager.wait_ready(60)
        faux.set_responses([
            faux_assistant_message([faux_tool_call("mcp__fault__hang", {}, id="h1")], stop_reason="toolUse"),
            faux_assistant_message("(the aborted run's next request takes this one)"),
            faux_assistant_message("after the abort"),
        ])
        loop = asyncio.get_running_loop()
        loop.call_later(0.5, lambda: asyncio.ensure_future(session.abort()))
        await asyncio.wait_for(session.prompt("hang"), 10)
        results = [m for m in session.messages if getattr(m, "role", None) == "toolResult"]
        assert results[-1].is_error and "aborted" in results[-1].content[0].text
        await session.prompt("again")  # the next prompt works; the server is still connected
        assert session.get_last_assistant_text() == "after the abort"
        assert session.mcp.manager.connections["fault"].state == "connected"
    finally:
        await session.mcp.close()
