"""ACP ``session/new`` with the client's MCP servers (issue 14 leftover): pi-tui connects them, the model sees
their tools (``mcp__<server>__<tool>``) and a call runs on the real server process; an SSE server or a broken
entry is named on stderr and the session still works. The official ACP SDK's client drives ``pi-tui --mode acp``
as a subprocess against the loopback model server; the MCP server is the stdio fixture in tests/fixtures/mcp."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from acp.schema import EnvVariable, McpServerStdio, SseMcpServer

from pi_tui.coding.modes.acp.mcp_servers import client_servers, server_name
from tests.coding.mcp.conftest import FAULT_SERVER

from .acp_client import AcpRun, acp_run
from .helpers import clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()
ARGS = ["--provider", "mock", "--model", "mock-model"]


def test_the_clients_mcp_server_is_connected_and_its_tool_runs(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    script = [
        {"type": "tool", "calls": [{"id": "call_echo", "name": "mcp__editor_tools__echo", "args": {"text": "hi there"}}]},
        {"type": "text", "text": "The server echoed."},
    ]
    servers = [
        McpServerStdio(name="editor tools", command=sys.executable, args=[str(FAULT_SERVER)],
                       env=[EnvVariable(name="FAULT_MARK", value="1")]),
        SseMcpServer(type="sse", name="old", url="http://127.0.0.1:9/sse", headers=[]),
    ]

    async def scenario(run: AcpRun) -> tuple[Any, Any]:
        init = await run.conn.initialize(protocol_version=1)
        new = await run.conn.new_session(cwd=str(project), mcp_servers=servers)
        run.client.answers = ["allow_once"]
        response = await run.conn.prompt(session_id=new.session_id,
                                         prompt=[{"type": "text", "text": "Echo hi there."}])
        return init, response

    # a server of the user's own mcp.json is connected in ACP mode too (before, none started there)
    (tmp_path / "agent" / "mcp.json").write_text(json.dumps(
        {"mcpServers": {"mine": {"command": sys.executable, "args": [str(FAULT_SERVER)]}}}))
    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)

        async def main() -> tuple[Any, Any]:
            async with acp_run(ARGS, project, env, tmp_path / "stderr.log") as run:
                return await scenario(run)

        init, response = asyncio.run(main())
        bodies = [r["body"] for r in server.requests]
    caps = init.agent_capabilities.mcp_capabilities
    assert caps.http is True and caps.sse is False
    assert response.stop_reason == "end_turn"
    tools = [t["function"]["name"] for t in bodies[0]["tools"]]
    assert "mcp__editor_tools__echo" in tools and "mcp__mine__echo" in tools
    tool_result = bodies[1]["messages"][-1]
    assert tool_result["role"] == "tool" and "echo: hi there" in str(tool_result["content"])
    stderr = (tmp_path / "stderr.log").read_text()
    assert "'old'" in stderr and "SSE" in stderr


def test_client_server_entries_are_converted_or_refused() -> None:
    configs, problems = client_servers([
        {"name": "git", "command": "uvx", "args": ["mcp-server-git"], "env": [{"name": "A", "value": "${HOME}"}]},
        {"type": "http", "name": "docs", "url": "https://example.test/mcp", "headers": [{"name": "X", "value": "y"}]},
        {"type": "http", "name": "bad", "url": "ftp://nope"},
        {"name": "git", "command": "other"},
        {"name": "empty"},
    ])
    assert [(c.name, c.transport, c.source) for c in configs] == [("git", "stdio", "client"), ("docs", "http", "client")]
    assert configs[0].env == {"A": "${HOME}"}  # taken as given, never expanded
    assert configs[1].headers == {"X": "y"}
    assert len(problems) == 3 and "ftp" not in problems[0] and "url must be" in problems[0]
    assert server_name("My Server!") == "My-Server" and server_name("???") == "client-server"
