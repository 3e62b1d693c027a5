"""Gaps found by driving pi-tui with pi 0.73.1's own ``RpcClient`` (issue 10, class 9).

Measured against the real pi 0.73.1 (``npm ci`` with tests/fixtures/piref's lock file, RpcClient from
``dist/modes/rpc/rpc-client.js``, loopback mock server), on a session file with two branches:

* ``get_fork_messages`` — pi lists the user messages of every branch, in file order (``first``, ``branch A``,
  ``branch B``); pi-tui listed only the active branch (``first``, ``branch B``);
* ``switch_session``/``fork``/``clone``/``new_session`` — pi writes no event (it builds a new AgentSession);
  pi-tui wrote ``queue_update``, ``model_changed`` and ``session_info_changed``. ``set_session_name`` still
  writes ``session_info_changed``, as pi does.
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

USAGE = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}


def _branches_file(tmp_path: Path, model: Any) -> Path:
    def msg(entry_id: str, parent: str | None, role: str, content: Any) -> dict[str, Any]:
        m: dict[str, Any] = {"role": role, "content": content, "timestamp": 1795989738286}
        if role == "assistant":
            m.update(api=model.api, provider=model.provider, model=model.id, stopReason="stop", usage=USAGE)
        return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": "2026-11-29T22:02:18.289Z",
                "message": m}

    def text(t: str) -> list[dict[str, str]]:
        return [{"type": "text", "text": t}]

    lines = [
        {"type": "session", "version": 3, "id": "0190a000-0000-7000-8000-000000000001",
         "timestamp": "2026-11-29T22:02:18.257Z", "cwd": str(tmp_path)},
        msg("u1", None, "user", text("first")), msg("a1", "u1", "assistant", text("one")),
        msg("u2", "a1", "user", "branch A"), msg("a2", "u2", "assistant", text("two A")),
        msg("ui", "a2", "user", [{"type": "image", "data": "QUJD", "mimeType": "image/png"}]),  # no text: left out
        msg("u3", "a1", "user", text("branch B")), msg("a3", "u3", "assistant", text("two B")),
    ]
    path = tmp_path / "branches.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


async def _drive(tmp_path: Path, faux: FauxProvider, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the commands one after another; every written line, tagged with the command it followed."""
    session = make_session(tmp_path, faux.get_model())
    stream = io.BytesIO()
    server = RpcServer(session, JsonLineWriter(stream))
    out: list[dict[str, Any]] = []
    for command in commands:
        start = len(stream.getvalue())
        server.handle_line(json.dumps(command).encode())
        await asyncio.sleep(0)
        await server.drain()
        for line in stream.getvalue()[start:].decode().splitlines():
            out.append({"after": command["type"], **json.loads(line)})
    return out


async def test_fork_messages_come_from_every_branch(tmp_path: Path, faux: FauxProvider) -> None:
    path = _branches_file(tmp_path, faux.get_model())
    lines = await _drive(tmp_path, faux, [
        {"id": "s", "type": "switch_session", "sessionPath": str(path)},
        {"id": "f", "type": "get_fork_messages"},
    ])
    (response,) = [x for x in lines if x.get("id") == "f"]
    assert response["data"]["messages"] == [
        {"entryId": "u1", "text": "first"}, {"entryId": "u2", "text": "branch A"}, {"entryId": "u3", "text": "branch B"},
    ]


async def test_forking_from_another_branch_works(tmp_path: Path, faux: FauxProvider) -> None:
    path = _branches_file(tmp_path, faux.get_model())
    lines = await _drive(tmp_path, faux, [
        {"id": "s", "type": "switch_session", "sessionPath": str(path)},
        {"id": "k", "type": "fork", "entryId": "u2"},
        {"id": "m", "type": "get_messages"},
    ])
    fork = [x for x in lines if x.get("id") == "k"][0]
    assert fork["success"] is True and fork["data"] == {"text": "branch A", "cancelled": False}
    messages = [x for x in lines if x.get("id") == "m"][0]["data"]["messages"]
    assert [m["content"][0]["text"] for m in messages] == ["first", "one"]


async def test_replacing_the_session_writes_only_the_response(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("hello")])
    path = _branches_file(tmp_path, faux.get_model())
    lines = await _drive(tmp_path, faux, [
        {"id": "p", "type": "prompt", "message": "hi"},
        {"id": "s", "type": "switch_session", "sessionPath": str(path)},
        {"id": "k", "type": "fork", "entryId": "u1"},
        {"id": "c", "type": "clone"},
        {"id": "n", "type": "new_session"},
        {"id": "r", "type": "set_session_name", "name": "named"},
    ])
    for kind in ("switch_session", "fork", "clone", "new_session"):
        written = [x for x in lines if x["after"] == kind]
        assert [x["type"] for x in written] == ["response"], written
        assert written[0]["success"] is True
    named = [x for x in lines if x["after"] == "set_session_name"]
    assert [x["type"] for x in named] == ["session_info_changed", "response"]


async def test_queue_mode_errors_name_the_value_not_a_python_repr(tmp_path: Path, faux: FauxProvider) -> None:
    lines = await _drive(tmp_path, faux, [
        {"id": "a", "type": "set_steering_mode"},
        {"id": "b", "type": "set_follow_up_mode", "mode": "bogus"},
    ])
    errors = {x["id"]: x["error"] for x in lines if x.get("type") == "response"}
    assert errors == {"a": "Invalid mode: missing (expected 'all' or 'one-at-a-time')",
                      "b": "Invalid mode: \"bogus\" (expected 'all' or 'one-at-a-time')"}
