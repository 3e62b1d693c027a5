"""RPC ``prompt`` input checks (found by H11 driving ``--mode rpc`` by hand):

* ``{"type":"prompt"}`` (no message) was accepted and sent an empty user message to the model, and
  ``"message": 5`` was sent as the text "5";
* two prompts on consecutive lines were both answered ``success: true``; the second then failed
  ("Agent is already processing") as a notification event that no response id pointed to.
"""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.coding.modes.json_mode import JsonLineWriter
from pi_tui.coding.modes.rpc_mode import RpcServer

from ..coding.session_core.helpers import make_session

pytestmark = pytest.mark.anyio


def _responses(stream: io.BytesIO) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in stream.getvalue().decode().splitlines()]
    return [line for line in lines if line.get("type") == "response"]


async def _serve(tmp_path: Path, faux: FauxProvider, lines: list[bytes]) -> tuple[io.BytesIO, Any]:
    session = make_session(tmp_path, faux.get_model(), persist=False)
    stream = io.BytesIO()
    server = RpcServer(session, JsonLineWriter(stream))
    for line in lines:
        server.handle_line(line)
    await asyncio.sleep(0)
    await server.drain()
    return stream, session


async def test_prompt_message_must_be_a_string(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("never")])
    lines = [
        b'{"id":"a","type":"prompt"}',
        b'{"id":"b","type":"prompt","message":5}',
        b'{"id":"c","type":"steer","message":null}',
        b'{"id":"d","type":"follow_up","message":["x"]}',
    ]
    stream, session = await _serve(tmp_path, faux, lines)
    by_id = {r["id"]: r for r in _responses(stream)}
    assert set(by_id) == {"a", "b", "c", "d"}
    assert all(r["success"] is False and "string 'message'" in r["error"] for r in by_id.values())
    assert session.messages == []
    assert faux.state.call_count == 0


async def test_second_prompt_in_the_same_burst_is_refused_with_its_own_id(
    tmp_path: Path, faux: FauxProvider
) -> None:
    faux.set_responses([faux_assistant_message("first answer"), faux_assistant_message("queued answer")])
    lines = [
        b'{"id":"p1","type":"prompt","message":"one"}',
        b'{"id":"p2","type":"prompt","message":"two"}',
        b'{"id":"p3","type":"prompt","message":"three","streamingBehavior":"followUp"}',
    ]
    stream, session = await _serve(tmp_path, faux, lines)
    responses = _responses(stream)
    p2 = [r for r in responses if r.get("id") == "p2"]
    assert len(p2) == 1 and p2[0]["success"] is False and "already processing" in p2[0]["error"]
    assert [r["success"] for r in responses if r.get("id") == "p1"] == [True]
    assert [r["success"] for r in responses if r.get("id") == "p3"] == [True]
    users = [m.content[0].text for m in session.messages if m.role == "user"]
    assert users == ["one", "three"]


async def test_other_commands_check_their_fields(tmp_path: Path, faux: FauxProvider) -> None:
    lines = [
        b'{"id":"b","type":"bash","command":5}',
        b'{"id":"t","type":"set_thinking_level","level":"huge"}',
        b'{"id":"n","type":"set_session_name"}',
        b'{"id":"i","type":"prompt","message":"hi","images":[{"bad":1}]}',
    ]
    stream, session = await _serve(tmp_path, faux, lines)
    by_id = {r["id"]: r for r in _responses(stream)}
    assert by_id["b"] == {
        "id": "b",
        "type": "response",
        "command": "bash",
        "success": False,
        "error": "bash needs a string 'command' (got int)",
    }
    assert by_id["t"]["success"] is False and "Invalid thinking level 'huge'" in by_id["t"]["error"]
    assert by_id["n"]["success"] is False and "string 'name'" in by_id["n"]["error"]
    assert by_id["i"]["success"] is False and by_id["i"]["error"].startswith("images[0] is not an image")
    assert "pydantic" not in by_id["i"]["error"]
    assert session.messages == []
