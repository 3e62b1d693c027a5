"""A real session writer for the SIGKILL tests (issue 10, class 1), run as a subprocess.

It imports everything once, then for each stdin line ``<session dir> <seed> <calls>`` forks a child that runs
one prompt through a real AgentSession (faux model, file-backed SessionManager): the model calls the ``sleepy``
tool ``calls`` times in one message, the calls run in parallel and finish after seeded random delays, then the
model answers ``done``. The child prints ``PID <pid>``, ``FILE <path>`` (at the first ``tool_execution_start``) and, from a session subscriber (so after
the session has processed the event), ``END <tool call id>`` for each ``tool_execution_end`` and ``FINISHED``
at the end; the test kills it with SIGKILL at a point of its choosing. The parent prints ``EXIT <status>`` once
the child is gone. Output lines are flushed one by one.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pi_tui.agent.types import AgentTool, AgentToolResult  # noqa: E402
from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call, register_faux_provider  # noqa: E402
from pi_tui.ai.types import TextContent  # noqa: E402
from pi_tui.coding.session.session_manager import SessionManager  # noqa: E402
from tests.coding.session_core.helpers import make_session  # noqa: E402


class SleepyTool(AgentTool):
    """Sleeps ``delay`` seconds, then returns ``output of <id>``."""

    def __init__(self) -> None:
        super().__init__(
            name="sleepy",
            description="sleeps",
            parameters={"type": "object", "properties": {"delay": {"type": "number"}}, "required": ["delay"]},
        )

    async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> AgentToolResult:
        await asyncio.sleep(float(params["delay"]))
        return AgentToolResult(content=[TextContent(text=f"output of {tool_call_id}")])


def _say(line: str) -> None:
    os.write(1, (line + "\n").encode())


async def _run(directory: Path, seed: int, calls: int) -> None:
    rng = random.Random(seed)
    faux = register_faux_provider(token_size={"min": 64, "max": 64})
    faux.set_responses([
        faux_assistant_message(
            [faux_tool_call("sleepy", {"delay": rng.uniform(0.0, 0.015)}, id=f"call_{i}") for i in range(calls)],
            stop_reason="toolUse",
        ),
        faux_assistant_message("done"),
    ])
    manager = SessionManager.create(str(directory), directory / "sessions")
    session = make_session(directory, faux.get_model(), tools=[SleepyTool()], manager=manager)

    def listen(event: Any) -> None:
        if event.type == "tool_execution_end":
            _say(f"END {event.tool_call_id}")
        elif event.type == "tool_execution_start" and event.tool_call_id == "call_0":
            _say(f"FILE {session.session_file}")  # the assistant message is on disk by now

    session.subscribe(listen)
    await session.prompt("run them all")
    _say("FINISHED")


def main() -> None:
    """Serve stdin requests until EOF (module docstring)."""
    for request in sys.stdin:
        directory, seed, calls = request.split()
        pid = os.fork()
        if pid == 0:
            try:
                _say(f"PID {os.getpid()}")
                asyncio.run(_run(Path(directory), int(seed), int(calls)))
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        _say(f"EXIT {status}")


if __name__ == "__main__":
    main()
