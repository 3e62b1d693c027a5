"""RPC ``get_commands`` reads the session's command registry and answers in pi 0.73.1's shape
(``{name, description, source, sourceInfo}``; extension commands, then prompt templates, then skills; the
TUI's built-ins left out). In-process ``RpcServer`` over a real AgentSession."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.extensions.registries import CommandSpec
from pi_tui.coding.modes.json_mode import JsonLineWriter
from pi_tui.coding.modes.rpc_mode import RpcServer

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _noop(arg: str, context: Any) -> None:
    return None


async def _get_commands(session: Any) -> dict[str, Any]:
    stream = io.BytesIO()
    server = RpcServer(session, JsonLineWriter(stream))
    server.handle_line(b'{"id":"c","type":"get_commands"}')
    await asyncio.sleep(0)
    await server.drain()
    lines = [json.loads(line) for line in stream.getvalue().decode().splitlines()]
    (response,) = [line for line in lines if line.get("type") == "response"]
    return response


async def test_get_commands_lists_the_registry_in_pis_shape(tmp_path: Path) -> None:
    session = create_agent_session(str(tmp_path), no_session=True)
    assert (await _get_commands(session))["data"] == {"commands": []}  # nothing registered: pi's empty list
    reg = session.commands
    reg.register(CommandSpec("skill:review", "Review a diff", _noop, source="skill", owner="/s/review/SKILL.md"))
    reg.register(CommandSpec("model", "Select a model", _noop))  # a TUI built-in: never listed
    reg.register(CommandSpec("fix-tests", "Fix failing tests", _noop, source="template", owner="/p/fix-tests.md"))
    reg.register(CommandSpec("mcp:git:status", "git status prompt", _noop, source="mcp", owner="git"))
    reg.register(CommandSpec("session-name", "Set or clear session name", _noop, source="extension",
                             owner="/e/session.py"))
    response = await _get_commands(session)
    assert response["id"] == "c" and response["success"] is True and response["command"] == "get_commands"
    assert response["data"]["commands"] == [
        {"name": "session-name", "description": "Set or clear session name", "source": "extension",
         "sourceInfo": {"path": "/e/session.py"}},
        {"name": "fix-tests", "description": "Fix failing tests", "source": "prompt",
         "sourceInfo": {"path": "/p/fix-tests.md"}},
        {"name": "skill:review", "description": "Review a diff", "source": "skill",
         "sourceInfo": {"path": "/s/review/SKILL.md"}},
        {"name": "mcp:git:status", "description": "git status prompt", "source": "mcp",
         "sourceInfo": {"path": "git"}},
    ]
    reg.remove_owner("extension")
    names = [c["name"] for c in (await _get_commands(session))["data"]["commands"]]
    assert names == ["fix-tests", "skill:review", "mcp:git:status"]  # read live, not cached
