"""``/reload`` reads ``mcp.json`` again (issue 13, tester finding #18; pi 1.x docs/mcp.md "Run /reload after
adding, removing, or changing a server outside the session"): servers added start, removed ones stop (their tools
and prompt commands go), changed ones restart with the new entry, unchanged ones keep their running connection."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.mcp.config import McpConfigLoad
from pi_tui.coding.mcp.manager import McpManager
from pi_tui.coding.session_factory import create_agent_session
from tests.coding.mcp.conftest import FAULT_SERVER
from tests.coding.mcp.helpers import collect_notices, fault

pytestmark = pytest.mark.anyio

WAIT_S = 90.0  # a loaded 2-core machine spawns Python servers slowly


def _entry(*args: str) -> dict[str, Any]:
    return {"command": sys.executable, "args": [str(FAULT_SERVER), *args]}


def _write(agent: Path, servers: dict[str, Any]) -> None:
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": servers}))


async def _reload(session: Any) -> None:
    """The built-in ``/reload`` command, as typed."""
    await session.commands.get("reload").handler("", None)


async def test_reload_starts_stops_and_restarts_only_what_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    _write(agent, {"keep": _entry(), "gone": _entry(), "change": _entry()})
    session = create_agent_session(str(tmp_path), no_session=True)
    shown = collect_notices(session)
    link = session.mcp
    link.start()
    try:
        await link.manager.wait_ready(WAIT_S)
        connections = dict(link.manager.connections)
        assert {c.state for c in connections.values()} == {"connected"}
        assert "mcp:gone:greet" in session.commands and "mcp__gone__echo" in session.all_tools
        kept_since = connections["keep"].connected_at

        _write(agent, {"keep": _entry(), "change": _entry("--many"), "added": _entry()})
        await _reload(session)
        await link.manager.wait_ready(WAIT_S)

        now = link.manager.connections
        assert list(now) == ["keep", "change", "added"]
        assert now["keep"] is connections["keep"] and now["keep"].connected_at == kept_since  # left running
        assert now["change"] is not connections["change"] and now["change"].config.args[-1] == "--many"
        assert {c.state for c in now.values()} == {"connected"}
        assert all(connections[n]._task is None and connections[n]._session is None for n in ("gone", "change"))
        tools = {t.name for t in session.agent.state.tools}
        assert "mcp__gone__echo" not in tools and "mcp__added__echo" in tools
        assert len([t for t in tools if t.startswith("mcp__change__")]) > 50  # the restarted entry's tools
        assert "mcp:gone:greet" not in session.commands and "mcp:added:greet" in session.commands
        assert any("mcp.json reloaded: added added, gone removed, change restarted" in n for n in shown)
    finally:
        await link.close()


async def test_reload_after_fixing_a_broken_entry_loads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tester finding #18: a broken mcp.json fixed while the session runs is picked up by ``/reload``."""
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    _write(agent, {"echo": {"args": ["x"]}})
    session = create_agent_session(str(tmp_path), no_session=True)
    shown = collect_notices(session)
    link = session.mcp
    link.start()
    try:
        assert link.manager.connections == {}
        assert any("echo: needs a command" in n for n in shown)
        _write(agent, {"echo": _entry()})
        await _reload(session)
        await link.manager.wait_ready(WAIT_S)
        assert link.manager.connections["echo"].state == "connected" and link.manager.errors == []
        assert "mcp__echo__echo" in {t.name for t in session.agent.state.tools}
    finally:
        await link.close()


async def test_reload_with_mcp_off_lists_new_entries_disabled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    _write(agent, {})
    session = create_agent_session(str(tmp_path), no_session=True, no_mcp=True)
    link = session.mcp
    _write(agent, {"late": _entry()})
    await _reload(session)
    assert link.manager.connections["late"].state == "disabled" and link.tools() == []
    await link.close()


async def test_apply_config_keeps_a_client_server_and_a_session_switch(tmp_path: Path) -> None:
    """An ACP client's server is not in the files (kept); a server disabled for this session with an unchanged
    entry stays disabled; a manager that has not started starts nothing."""
    manager = McpManager(McpConfigLoad(servers={"a": fault("a")}), log_dir=tmp_path / "logs")
    manager.add_server(fault("editor").__class__(**{**fault("editor").__dict__, "source": "client"}))
    manager.connections["a"].state = "disabled"
    result = await manager.apply_config(McpConfigLoad(servers={"a": fault("a"), "b": fault("b")}))
    assert result.added == ["b"] and result.unchanged == ["a"] and result.removed == [] and result.changed == []
    assert list(manager.connections) == ["a", "b", "editor"]
    assert manager.connections["a"].state == "disabled" and manager.connections["b"]._task is None
    result = await manager.apply_config(McpConfigLoad(errors=["x: bad"]))
    assert sorted(result.removed) == ["a", "b"] and list(manager.connections) == ["editor"]
    assert manager.errors == ["x: bad"]
