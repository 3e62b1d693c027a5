"""Snapshot: the ``/mcp`` screen of a real PiApp + AgentSession with three servers: the fault server of
tests/fixtures/mcp (connected, 9 tools), a server whose command does not exist (failed, the footer says so) and
a disabled one. Typed as a user would: ``/mcp`` Enter."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pi_tui.coding.mcp.config import McpConfigLoad, McpServerConfig
from pi_tui.coding.mcp.manager import McpManager
from pi_tui.coding.mcp.session_link import McpSessionLink
from pi_tui.coding.mcp.wiring import replace_mcp_tools
from tests.coding.mcp.conftest import FAULT_SERVER
from tests.tui.helpers import make_app, settle, snapshot_session, wait_until

from .scenarios import SIZE

LOG_DIR = Path("/tmp/pi-tui-snapshot-mcp-logs")  # shown in the detail line: fixed, like the snapshot cwd


def build_mcp_screen() -> tuple[Any, Any, tuple[int, int]]:
    """``(app, drive, size)`` for the /mcp screen."""
    session, _ = snapshot_session()
    servers = [
        McpServerConfig(name="fault", transport="stdio", command=sys.executable, args=(str(FAULT_SERVER),)),
        McpServerConfig(name="missing", transport="stdio", command="/nonexistent/mcp-server"),
        McpServerConfig(name="off", transport="http", url="http://127.0.0.1:9/mcp", enabled=False),
    ]
    manager = McpManager(McpConfigLoad(servers={s.name: s for s in servers}), log_dir=LOG_DIR)
    session.mcp = McpSessionLink(
        manager,
        set_tools=lambda tools: replace_mcp_tools(session.tools, tools),
        notify=session.notify,
    )
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        from textual.widgets import OptionList

        from pi_tui.tui.modals.mcp import McpScreen

        await settle(pilot)
        await wait_until(pilot, lambda: manager.connections["fault"].state == "connected"
                         and manager.connections["missing"].state == "failed", limit=60)
        await settle(pilot)
        pilot.app.prompt_input.insert("/mcp")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, McpScreen)
                         and app.screen.query_one(OptionList).option_count > 0)
        await pilot.pause(0.1)

    return app, drive, SIZE


def test_mcp_screen(snap_compare: Any) -> None:
    app, drive, size = build_mcp_screen()  # the server process stops when the app's event loop ends
    assert snap_compare(app, run_before=drive, terminal_size=size)
