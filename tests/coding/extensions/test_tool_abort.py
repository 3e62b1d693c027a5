"""Esc during a slow async extension tool (tester2 #6): the tool's task is cancelled at once and the call ends
as ``Tool NAME aborted``, so the run stops without waiting for the tool; a sync tool still runs to its end.
Real AgentSession on the faux provider."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from tests.tui.helpers import make_session

SLOW_TOOL = """
import asyncio

state = {"started": False, "cancelled": False}

async def slow(call_id, params):
    state["started"] = True
    try:
        await asyncio.sleep(30)
    except asyncio.CancelledError:
        state["cancelled"] = True
        raise
    return "slow done"

def activate(pi):
    pi.register_tool("slow_tool", "Takes long", {"type": "object", "properties": {}}, slow)
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_abort_cancels_a_slow_async_extension_tool(tmp_path: Path) -> None:
    path = tmp_path / "slow_ext.py"
    path.write_text(textwrap.dedent(SLOW_TOOL), encoding="utf-8")
    steps = [faux_assistant_message([faux_tool_call("slow_tool", {}, id="s1")], stop_reason="toolUse"),
             faux_assistant_message("after")]
    session, _ = make_session(tmp_path, steps, extension_paths=[str(path)])
    await session.start()
    state = next(e.module.state for e in session.extensions.runtime.extensions if e.name == "slow_ext")
    run = asyncio.ensure_future(session.prompt("go"))
    for _ in range(500):
        if state["started"]:
            break
        await asyncio.sleep(0.01)
    assert state["started"]
    loop = asyncio.get_running_loop()
    started = loop.time()
    aborting = asyncio.ensure_future(session.abort())  # waits for the run to end, as the app does not
    await asyncio.wait_for(run, 10)
    await asyncio.wait_for(aborting, 10)
    assert loop.time() - started < 5  # not the tool's 30 s
    assert state["cancelled"]
    results = [m for m in session.messages if getattr(m, "role", None) == "toolResult"]
    assert len(results) == 1 and results[0].is_error
    assert "Tool slow_tool aborted" in results[0].content[0].text
