"""An abort that arrives after a prompt was accepted but before its run started stops that prompt (new-user run
#36: RPC ``prompt`` then ``abort`` at once: both answered success, and the reply streamed to its end). A prompt
spends time before its run starts (the input hook, attachers such as the MCP first-prompt wait of up to 10 s, the
compaction check, ``before_agent_start``); a stop requested then makes the run start and end aborted at once, so
the user message is kept, no model reply is streamed, and a client waiting for ``agent_end`` gets it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from tests.tui.helpers import make_session

pytestmark = pytest.mark.anyio


async def test_abort_during_the_pre_run_steps_ends_the_prompt_aborted(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("a long reply that must not be streamed")])
    started = asyncio.Event()

    async def slow_attacher(text: str) -> list[Any]:  # like the MCP first-prompt wait
        started.set()
        await asyncio.sleep(0.5)
        return []

    session.prompt_attachers.add(slow_attacher)
    events: list[str] = []
    session.subscribe(lambda e: events.append(getattr(e, "type", "")))
    run = asyncio.ensure_future(session.prompt("slow answer please"))
    await started.wait()
    await session.abort()  # arrives before the agent run exists
    await asyncio.wait_for(run, 10)
    assistants = [m for m in session.messages if getattr(m, "role", None) == "assistant"]
    assert assistants and assistants[-1].stop_reason == "aborted"
    assert not any("must not be streamed" in str(m.content) for m in assistants)
    assert "agent_end" in events  # a client waiting for the end of its prompt gets it
    users = [m for m in session.messages if getattr(m, "role", None) == "user"]
    assert len(users) == 1  # what the user sent is kept


async def test_rpc_abort_on_the_line_after_prompt_stops_it(tmp_path: Path) -> None:
    """The user's steps: ``prompt`` and ``abort`` written together; both answered success, and the prompt ends
    aborted (with ``agent_end``) instead of streaming its reply to the end."""
    import io
    import json

    from pi_tui.coding.modes.json_mode import JsonLineWriter
    from pi_tui.coding.modes.rpc_mode import RpcServer

    session, _ = make_session(tmp_path, [faux_assistant_message("a long reply that must not be streamed")])
    stream = io.BytesIO()
    server = RpcServer(session, JsonLineWriter(stream))
    server.handle_line(b'{"id":"p1","type":"prompt","message":"slow answer rpc5"}')
    server.handle_line(b'{"id":"a1","type":"abort"}')
    await asyncio.sleep(0)
    await server.drain()
    lines = [json.loads(line) for line in stream.getvalue().decode().splitlines()]
    responses = {line["id"]: line for line in lines if line.get("type") == "response"}
    assert responses["p1"]["success"] and responses["a1"]["success"]
    assert any(line.get("type") == "agent_end" for line in lines)
    assistants = [m for m in session.messages if getattr(m, "role", None) == "assistant"]
    assert assistants and assistants[-1].stop_reason == "aborted"
    assert not any("must not be streamed" in str(m.content) for m in assistants)
