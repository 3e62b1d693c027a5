"""Light names shared by the MCP modules (no SDK import): the error type and the server states."""

from __future__ import annotations

from typing import Literal

ServerState = Literal["disabled", "connecting", "connected", "failed", "disconnected"]
"""``disabled`` (config or this session), ``connecting``, ``connected``, ``failed`` (could not start, with a
reason), ``disconnected`` (was connected; the next call reconnects)."""


class McpError(Exception):
    """A failed MCP operation; ``str(exc)`` is the one-sentence message the model and the user see."""
