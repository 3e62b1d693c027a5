"""The official ``mcp`` SDK names the client uses, in one module that is imported lazily, off the event loop.

Importing the SDK (``mcp``, ``mcp_types``, ``httpx2``, ``starlette``, ``opentelemetry``…) takes about a second
on a quiet machine, so nothing imports it at start-up: :func:`load` imports this module in a worker thread the
first time a server connects (``McpConnection._run``), and a session without MCP servers never loads it
(tests/coding/mcp/test_lazy_import.py).
"""

from __future__ import annotations

import asyncio
import importlib
from types import ModuleType

import mcp_types as mt
from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types.jsonrpc import CONNECTION_CLOSED, REQUEST_TIMEOUT

__all__ = [
    "CONNECTION_CLOSED",
    "REQUEST_TIMEOUT",
    "ClientSession",
    "MCPError",
    "StdioServerParameters",
    "create_mcp_http_client",
    "load",
    "mt",
    "stdio_client",
    "streamable_http_client",
]


async def load() -> ModuleType:
    """This module, imported in a worker thread on first use (the event loop keeps running meanwhile)."""
    return await asyncio.to_thread(importlib.import_module, __name__)
