"""``/mcp`` screen (pi_tui/tui/modals/mcp.py) over a real McpManager: servers that need attention first, their
tools, and the per-session actions (disable a tool, disable/enable a server, reconnect)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import OptionList, Static

from pi_tui.agent.types import AgentTool
from pi_tui.coding.mcp.config import McpConfigLoad, McpServerConfig
from pi_tui.coding.mcp.manager import McpManager
from pi_tui.coding.mcp.session_link import McpSessionLink
from pi_tui.tui.modals.mcp import McpScreen
from tests.coding.mcp.helpers import fault, stdio

pytestmark = pytest.mark.anyio


class Host(App[None]):
    """An empty app to push the screen on."""


def _link(tmp_path: Path, offered: list[AgentTool]) -> McpSessionLink:
    servers = [
        fault("fault"),
        stdio("missing", "/nonexistent/mcp-server"),
        McpServerConfig(name="off", transport="stdio", command="unused", enabled=False),
    ]
    manager = McpManager(McpConfigLoad(servers={s.name: s for s in servers}), log_dir=tmp_path / "logs")
    return McpSessionLink(manager, set_tools=lambda tools: offered.__setitem__(slice(None), tools),
                          notify=lambda level, text: None)


def _lines(screen: Any) -> list[str]:
    ol = screen.query_one(OptionList)
    return [str(ol.get_option_at_index(i).prompt) for i in range(ol.option_count)]


async def _settle(screen: Any, link: Any = None) -> None:
    """Until the screen's action is done and (given ``link``) no server is still connecting: a restart spawns a
    server process, which on a loaded 2-core machine took over the 6 s this waited before."""
    for _ in range(1500):
        await asyncio.sleep(0.02)
        if not screen._busy and (
            link is None or all(c.state != "connecting" for c in link.manager.connections.values())
        ):
            return


async def test_mcp_screen_lists_states_and_switches_for_the_session(tmp_path: Path) -> None:
    offered: list[AgentTool] = []
    link = _link(tmp_path, offered)
    app = Host()
    async with app.run_test(size=(110, 30)) as pilot:
        link.start()
        await link.manager.wait_ready(30)
        screen = McpScreen(link)
        app.push_screen(screen)
        await pilot.pause()
        lines = _lines(screen)
        assert lines[0].startswith("● missing  failed") and "command not found: /nonexistent/mcp-server" in lines[0]
        assert lines[1].startswith("● fault  connected  9 tools  stdio · user")
        assert lines[2].startswith("    [x] echo  Echo the text back.")
        assert lines[-1].startswith("● off  disabled")
        assert "missing: /nonexistent/mcp-server" in str(screen.query_one("#mcp-detail", Static).render())
        assert len(offered) == 9
        await pilot.press("down", "down", "space")  # the echo tool, off for this session
        await pilot.pause()
        assert _lines(screen)[2].startswith("    [ ] echo") and "8/9 tools" in _lines(screen)[1]
        assert "mcp__fault__echo" not in [t.name for t in offered] and len(offered) == 8
        await pilot.press("up", "space")  # the fault server, disabled
        await _settle(screen, link)
        assert link.manager.connections["fault"].state == "disabled" and offered == []
        assert not any("echo" in line for line in _lines(screen))
        await pilot.press("space")  # selection follows the server row; enable again
        await _settle(screen, link)
        assert link.manager.connections["fault"].state == "connected" and len(offered) == 8
        row = screen.rows.index(("server", "fault", None))
        screen.query_one(OptionList).highlighted = row
        await pilot.press("r")
        await _settle(screen)
        assert link.manager.connections["fault"].state == "connected"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, McpScreen)
    await link.close()
