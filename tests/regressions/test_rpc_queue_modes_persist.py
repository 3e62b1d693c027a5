"""RPC ``set_steering_mode`` / ``set_follow_up_mode`` are saved to settings.json, as pi 0.73.1 does
(``AgentSession.setSteeringMode``/``setFollowUpMode``: "Saves to settings."), so the next start uses them.
Found by a new-user run (issue 9): pi-tui changed only the live agent."""

from __future__ import annotations

import asyncio
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.modes.json_mode import JsonLineWriter
from pi_tui.coding.modes.rpc_mode import RpcServer
from pi_tui.coding.session_factory import create_agent_session

pytestmark = pytest.mark.anyio


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agent_dir = tmp_path / "home"
    agent_dir.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent_dir))
    for name in list(os.environ):
        if name.endswith("_API_KEY"):
            monkeypatch.delenv(name)
    return agent_dir


async def _run(session: Any, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    stream = io.BytesIO()
    server = RpcServer(session, JsonLineWriter(stream))
    for command in commands:
        server.handle_line(json.dumps(command).encode())
    await asyncio.sleep(0)
    await server.drain()
    lines = [json.loads(line) for line in stream.getvalue().decode().splitlines()]
    return [line for line in lines if line.get("type") == "response"]


async def test_queue_modes_set_over_rpc_are_the_next_start_defaults(home: Path, tmp_path: Path) -> None:
    cwd = tmp_path / "project"
    cwd.mkdir()
    session = create_agent_session(str(cwd), no_session=True, persist_settings=True)
    responses = await _run(session, [
        {"id": "1", "type": "set_steering_mode", "mode": "all"},
        {"id": "2", "type": "set_follow_up_mode", "mode": "all"},
    ])
    assert [r["success"] for r in responses] == [True, True]
    assert session.agent.steering_mode == "all" and session.agent.follow_up_mode == "all"
    saved = json.loads((home / "settings.json").read_text())
    assert saved["steeringMode"] == "all" and saved["followUpMode"] == "all"
    again = create_agent_session(str(cwd), no_session=True, persist_settings=True)
    assert again.agent.steering_mode == "all" and again.agent.follow_up_mode == "all"
    await _run(again, [{"id": "3", "type": "set_steering_mode", "mode": "one-at-a-time"}])
    assert json.loads((home / "settings.json").read_text())["steeringMode"] == "one-at-a-time"


async def test_a_session_that_persists_nothing_writes_no_settings(home: Path, tmp_path: Path) -> None:
    session = create_agent_session(str(tmp_path), no_session=True)  # SDK/tests: persist_settings off
    responses = await _run(session, [{"id": "1", "type": "set_steering_mode", "mode": "all"}])
    assert responses[0]["success"] is True and session.agent.steering_mode == "all"
    assert not (home / "settings.json").exists() or "steeringMode" not in (home / "settings.json").read_text()
