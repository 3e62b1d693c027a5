"""``pi-tui --mode acp``: serve the Agent Client Protocol on stdin/stdout until stdin closes.

File descriptor 1 carries only ACP: it is duplicated for the protocol, and fd 1 itself (``print``, child
processes, C libraries) is pointed at stderr. Logs go to stderr (level from ``PI_TUI_LOG``, default
WARNING). The built-in offline model answers at once unless ``PI_TUI_OFFLINE_TPS`` says otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from typing import Any, cast

from pi_tui.coding.modes.acp.agent import PiAcpAgent
from pi_tui.coding.modes.acp.transport import CheckedNdjsonTransport

STREAM_LIMIT = 50 * 1024 * 1024
"""Longest input line (bytes); the SDK's default for images and embedded files."""


async def _streams() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    from acp.stdio import _WritePipeProtocol

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=STREAM_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    sys.stdout.flush()
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    out = os.fdopen(protocol_fd, "wb", buffering=0)
    transport, protocol = await loop.connect_write_pipe(_WritePipeProtocol, out)
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    return reader, writer


async def serve(options: dict[str, Any]) -> int:
    """Run the agent over stdio; returns the exit code (0 when the client closes stdin)."""
    from acp.agent.connection import AgentSideConnection

    from pi_tui.coding.offline_model import register_offline_provider

    if not os.environ.get("PI_TUI_OFFLINE_TPS"):
        register_offline_provider(tokens_per_second=0)
    reader, writer = await _streams()
    agent = PiAcpAgent(options)
    transport = CheckedNdjsonTransport(reader, writer)
    connection = AgentSideConnection(cast(Any, agent), transport, listening=False)
    try:
        await connection.listen()
    finally:
        with contextlib.suppress(Exception):
            await agent.close()
        with contextlib.suppress(Exception):
            await connection.close()
    return 0


def run_acp_mode(options: dict[str, Any]) -> int:
    """Serve ACP until stdin closes; returns the exit code (130 on Ctrl+C)."""
    level = os.environ.get("PI_TUI_LOG", "WARNING").upper()
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level, logging.WARNING),
                        format="%(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(serve(options))
    except KeyboardInterrupt:
        return 130
