"""A recording ACP client (the official SDK's client side) for the ``--mode acp`` end-to-end tests.

``AcpRun`` spawns ``pi-tui --mode acp`` with :func:`acp.spawn_agent_process` over real pipes; every message
the agent writes is recorded in wire order (``incoming``); permission requests are answered from
``answers`` (option ids, in order; ``"cancel"`` answers cancelled) and recorded in ``permission_requests``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from acp import spawn_agent_process
from acp.connection import StreamDirection, StreamEvent
from acp.schema import AllowedOutcome, DeniedOutcome, RequestPermissionResponse


class RecordingClient:
    """The SDK ``Client``: answers permission requests from ``answers``; file and terminal methods absent."""

    def __init__(self) -> None:
        self.answers: list[str] = []
        self.permission_requests: list[dict[str, Any]] = []
        self.permission_asked = asyncio.Event()

    async def request_permission(self, session_id: str, tool_call: Any, options: Any, **kwargs: Any) -> Any:
        self.permission_requests.append({"toolCall": tool_call.model_dump(by_alias=True, exclude_none=True),
                                         "options": [o.option_id for o in options]})
        self.permission_asked.set()
        answer = self.answers.pop(0) if self.answers else "cancel"
        if answer == "cancel":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=answer))

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        return None


class AcpRun:
    """One agent process and its client connection (module docstring)."""

    def __init__(self, conn: Any, process: Any, client: RecordingClient) -> None:
        self.conn = conn
        self.process = process
        self.client = client
        self.incoming: list[dict[str, Any]] = []

    def observe(self, event: StreamEvent) -> None:
        if event.direction == StreamDirection.INCOMING:
            self.incoming.append(event.message)

    def updates(self, session_id: str | None = None) -> list[dict[str, Any]]:
        """The ``session/update`` payloads received so far (optionally of one session)."""
        return [m["params"]["update"] for m in self.incoming if m.get("method") == "session/update"
                and (session_id is None or m["params"]["sessionId"] == session_id)]

    async def wait_for(self, predicate: Any, limit_s: float = 60) -> dict[str, Any]:
        """The first received message matching ``predicate``, waiting for it."""
        async def poll() -> dict[str, Any]:
            while True:
                for message in self.incoming:
                    if predicate(message):
                        return message
                await asyncio.sleep(0.02)
        return await asyncio.wait_for(poll(), limit_s)

    async def send_raw(self, line: bytes) -> None:
        """Write bytes to the agent's stdin as they are (malformed input)."""
        self.process.stdin.write(line)
        await self.process.stdin.drain()


@contextlib.asynccontextmanager
async def acp_run(args: list[str], cwd: Path, env: dict[str, str], stderr_path: Path,
                  client: RecordingClient | None = None) -> AsyncIterator[AcpRun]:
    """Spawn ``python -m pi_tui.cli --mode acp *args`` in ``cwd``; stderr goes to ``stderr_path``; ``client``:
    a :class:`RecordingClient` (subclass) to use instead of a new one."""
    client = client if client is not None else RecordingClient()
    run: AcpRun | None = None

    def observer(event: StreamEvent) -> None:
        if run is not None:
            run.observe(event)

    with stderr_path.open("ab") as err:
        async with spawn_agent_process(client, sys.executable, "-m", "pi_tui.cli", "--mode", "acp", *args,
                                       env=env, cwd=str(cwd), transport_kwargs={"stderr": err.fileno()},
                                       observers=[observer]) as (conn, process):
            run = AcpRun(conn, process, client)
            yield run


def dump(value: Any) -> str:
    """Compact JSON for assertion messages."""
    return json.dumps(value, indent=1)[:4000]
