"""Tester finding #18 in a real PiApp: after fixing a broken ``mcp.json``, typing ``/reload`` loads its server and
``/mcp`` lists it (before, the screen said "No MCP servers configured" until a restart)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.tui.modals.mcp import McpScreen
from tests.coding.mcp.conftest import FAULT_SERVER
from tests.tui.helpers import make_app, settle, wait_until

pytestmark = pytest.mark.anyio


async def _type(pilot: Any, text: str) -> None:
    pilot.app.prompt_input.insert(text)
    await pilot.press("enter")


def _rows(screen: Any) -> list[str]:
    ol = screen.query_one(OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


async def test_reload_picks_up_a_fixed_mcp_json_and_mcp_shows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    config = agent / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"fault": {"args": ["x"]}}}))
    session = create_agent_session(str(tmp_path), no_session=True)
    app = make_app(session, cwd=str(tmp_path))
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        config.write_text(json.dumps({"mcpServers": {"fault": {"command": sys.executable,
                                                                "args": [str(FAULT_SERVER)]}}}))
        before = len(app.transcript.items)
        await _type(pilot, "/reload")
        await wait_until(pilot, lambda: any("mcp.json reloaded: fault added" in str(getattr(item, "text", ""))
                                            for item in app.transcript.items[before:]))
        await _type(pilot, "/mcp")
        await wait_until(pilot, lambda: isinstance(app.screen, McpScreen))
        screen = app.screen
        assert _rows(screen)[0].startswith("● fault  connecting") or _rows(screen)[0].startswith("● fault  connected")
        await session.mcp.manager.wait_ready(90)
        await wait_until(pilot, lambda: _rows(screen)[0].startswith("● fault  connected  9 tools"))
        await pilot.press("escape")
    await session.mcp.close()
