"""MCP failures are data (issue 13 acceptance): a server of our own (tests/fixtures/mcp/fault_server.py, written
with the SDK) that will not start, exits mid-call, hangs, is aborted, sends malformed or wrongly shaped replies,
reports tool errors, and offers 50 awkwardly named tools. Each gives one clear error and the rest goes on."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.coding.extensions.registries import CommandRegistry
from pi_tui.coding.mcp.connection import McpError
from pi_tui.coding.mcp.manager import McpChange, McpManager
from pi_tui.coding.mcp.names import MAX_TOOL_NAME_LENGTH
from pi_tui.coding.mcp.prompts import sync_prompt_commands
from pi_tui.coding.mcp.tools import McpAgentTool
from tests.coding.mcp.helpers import fault, manager, stdio

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"  # module scope: the servers below start once for all tests of this file


@pytest.fixture(scope="module")
async def servers(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[McpManager, Path, list[McpChange]]]:
    """One manager, started once: ``fault`` (20 s timeout), ``quick`` (1.5 s timeout, cancel marker file),
    ``odd-server`` (50 awkward names), ``dead`` (exits at start), ``missing`` (no such binary)."""
    tmp = tmp_path_factory.mktemp("mcp-faults")
    marker = tmp / "marker"
    m = manager(
        tmp,
        fault("fault", timeout=20),
        fault("quick", "--marker", str(marker), timeout=1.5),
        fault("odd-server", "--many"),
        fault("dead", "--crash-at-start"),
        stdio("missing", str(tmp / "no-such-binary")),
    )
    changes: list[McpChange] = []
    m.subscribe(changes.append)
    loop = asyncio.get_running_loop()
    started = loop.time()
    m.start()
    assert loop.time() - started < 0.5  # nothing waited for a server
    assert {c.state for c in m.connections.values()} == {"connecting"}
    await m.wait_ready(60)
    yield m, marker, changes
    await m.close()


def _tools(m: McpManager, server: str) -> dict[str, McpAgentTool]:
    return {t.server_tool: t for t in m.tools() if t.server == server}


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.05)


async def test_failures_at_start_are_reasons_and_the_others_connect(servers: tuple[McpManager, Path, list[McpChange]]) -> None:
    m, _marker, changes = servers
    states = {row["name"]: row for row in m.status()}
    assert states["fault"]["state"] == "connected" and states["fault"]["tools"] == 9
    assert states["dead"]["state"] == "failed"
    assert "exited or closed the connection before it was ready" in states["dead"]["error"]
    assert "cannot start (missing FAULT_TOKEN)" in states["dead"]["error"]  # tail of its stderr log
    assert states["missing"]["error"].startswith("command not found")
    assert {t.server for t in m.tools()} == {"fault", "quick", "odd-server"}
    assert McpChange("dead", "failed", states["dead"]["error"]) in changes
    assert m.short_state() == "MCP: 2 servers failed"
    assert "cannot start" in (m.log_dir / "dead.log").read_text()


async def test_crash_mid_call_then_the_next_call_reconnects(servers: tuple[McpManager, Path, list[McpChange]]) -> None:
    m = servers[0]
    tools = _tools(m, "fault")
    with pytest.raises(McpError, match="closed the connection during fault/crash"):
        await tools["crash"].execute("c1", {})
    connection = m.connections["fault"]
    await _until(lambda: connection.state == "disconnected")
    assert connection.state == "disconnected" and "crashing now" in (connection.error or "")
    assert "fault disconnected" in (m.short_state() or "") or "servers failed" in (m.short_state() or "")
    assert "echo" in _tools(m, "fault")  # still offered: the next call reconnects (pi)
    result = await tools["echo"].execute("c2", {"text": "again"})
    assert result.content[0].text == "echo: again"  # type: ignore[union-attr]
    assert connection.state == "connected"


async def test_hang_past_the_timeout_sends_cancel_and_the_server_keeps_working(
    servers: tuple[McpManager, Path, list[McpChange]],
) -> None:
    m, marker, _ = servers
    marker.unlink(missing_ok=True)
    tools = _tools(m, "quick")
    with pytest.raises(McpError, match=r"MCP call quick/hang timed out after 1.5 s"):
        await tools["hang"].execute("h", {})
    await _until(marker.exists)
    assert marker.read_text() == "cancelled\n"  # notifications/cancelled reached the server
    assert (await tools["echo"].execute("e", {"text": "x"})).content[0].text == "echo: x"  # type: ignore[union-attr]


async def test_abort_mid_call_cancels_the_request(servers: tuple[McpManager, Path, list[McpChange]]) -> None:
    m, marker, _ = servers
    marker.unlink(missing_ok=True)
    tools = _tools(m, "quick")
    controller = AbortController()
    task = asyncio.ensure_future(tools["hang"].execute("h", {}, controller.signal))
    await asyncio.sleep(0.2)
    assert not task.done()
    controller.abort()
    with pytest.raises(McpError, match="MCP call quick/hang aborted"):
        await asyncio.wait_for(task, 1.0)  # well before the 1.5 s timeout
    await _until(marker.exists)
    assert marker.read_text() == "cancelled\n"
    with pytest.raises(McpError, match="aborted"):  # an already aborted signal sends nothing
        await tools["echo"].execute("e", {"text": "x"}, controller.signal)


async def test_malformed_and_wrongly_shaped_replies_and_errors(servers: tuple[McpManager, Path, list[McpChange]]) -> None:
    m = servers[0]
    tools = _tools(m, "fault")
    loop = asyncio.get_running_loop()
    started = loop.time()
    with pytest.raises(McpError, match=r"sent a malformed message during fault/malformed: not a JSON-RPC message: 'this is not JSON-RPC \{'"):
        await tools["malformed"].execute("m", {})
    assert loop.time() - started < 15  # failed at once, not after the 20 s timeout
    with pytest.raises(McpError, match=r"reply does not match the MCP schema \(CallToolResult.content"):
        await tools["bad_reply"].execute("b", {})
    with pytest.raises(McpError, match="Error executing tool fail"):
        await tools["fail"].execute("f", {})  # an isError result raises its text
    with pytest.raises(McpError, match=r"MCP call fault/rpc_error failed: JSON-RPC error -32602: bad params on purpose"):
        await tools["rpc_error"].execute("r", {})
    assert (await m.connections["fault"].call_tool("no_such_tool", {})).is_error
    assert (await tools["echo"].execute("e", {"text": "ok"})).content[0].text == "echo: ok"  # type: ignore[union-attr]
    assert m.connections["fault"].state == "connected"


async def test_images_and_embedded_resources_become_pi_blocks(servers: tuple[McpManager, Path, list[McpChange]]) -> None:
    tools = _tools(servers[0], "fault")
    image = await tools["image"].execute("i", {})
    assert [b.type for b in image.content] == ["image"] and image.content[0].mime_type == "image/png"  # type: ignore[union-attr]
    resource = await tools["resource"].execute("r", {})
    assert [b.type for b in resource.content] == ["text", "text", "image"]
    assert resource.content[1].text == "Resource file:///notes.txt:\nhello notes"  # type: ignore[union-attr]


async def test_fifty_awkward_tool_names_are_unique_provider_safe_and_reach_their_tool(
    servers: tuple[McpManager, Path, list[McpChange]],
) -> None:
    tools = [t for t in servers[0].tools() if t.server == "odd-server"]
    assert len(tools) == 59
    names = [t.name for t in tools]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[A-Za-z0-9_]+", n) and len(n) <= MAX_TOOL_NAME_LENGTH for n in names)
    assert all(n.startswith("mcp__odd_server__") for n in names)
    by_server_name = {t.server_tool: t for t in tools}
    assert by_server_name["dash-ed"].name != by_server_name["dash_ed"].name  # collided: both hashed
    for original in ("with space", "ünïcödé", "a" * 90, "a" * 89 + "b", "tab\tname", "tool-37.v1"):
        result = await by_server_name[original].execute("x", {})
        assert result.content[0].text.endswith(repr(original))  # type: ignore[union-attr]


async def test_disable_enable_server_and_tool_for_the_session(servers: tuple[McpManager, Path, list[McpChange]]) -> None:
    m = servers[0]
    echo = _tools(m, "fault")["echo"]
    m.set_tool_enabled(echo.name, False)
    assert echo.name not in [t.name for t in m.tools()]
    assert next(r for r in m.status() if r["name"] == "fault")["enabledTools"] == 8
    m.set_tool_enabled(echo.name, True)
    await m.set_server_enabled("fault", False)
    assert m.connections["fault"].state == "disabled" and "fault" not in {t.server for t in m.tools()}
    with pytest.raises(McpError, match="disabled"):
        await echo.execute("x", {"text": "y"})
    await m.set_server_enabled("fault", True)
    assert m.connections["fault"].state == "connected" and len(_tools(m, "fault")) == 9
    assert await m.reconnect("quick") is True


async def test_server_prompts_become_slash_commands(servers: tuple[McpManager, Path, list[McpChange]]) -> None:
    m = servers[0]
    registry = CommandRegistry()
    sent: list[str] = []
    notes: list[tuple[str, str]] = []

    async def send(text: str) -> None:
        sent.append(text)

    unsubscribe = sync_prompt_commands(registry, m, send, lambda level, text: notes.append((level, text)))
    try:
        spec = registry.get("/mcp:fault:greet")
        assert spec is not None and spec.source == "mcp" and spec.owner == "fault"
        assert spec.description == "Greet someone." and spec.usage == "name=…"
        assert {s.name for s in registry.all()} >= {"mcp:fault:greet", "mcp:quick:greet", "mcp:odd-server:greet"}
        await spec.handler("Ada Lovelace", None)  # a single-argument prompt takes the whole text
        await spec.handler("name='Grace Hopper'", None)
        assert sent == ["Please greet Ada Lovelace warmly.", "Please greet Grace Hopper warmly."]
        await spec.handler("", None)
        assert notes == [("error", "/mcp:fault:greet: missing required argument: name")]
        await m.set_server_enabled("quick", False)
        assert "mcp:quick:greet" not in registry
        await m.set_server_enabled("quick", True)
        assert "mcp:quick:greet" in registry
    finally:
        unsubscribe()
