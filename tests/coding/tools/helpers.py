"""Helpers for the coding tool tests."""

from __future__ import annotations

import os
from typing import Any

from pi_tui.agent.types import AgentTool, AgentToolResult
from pi_tui.ai.abort import AbortSignal


async def run(
    tool: AgentTool, params: dict[str, Any], signal: AbortSignal | None = None, on_update: Any = None
) -> AgentToolResult:
    """Execute ``tool`` like the agent loop does (prepare_arguments first)."""
    return await tool.execute("call_1", tool.prepare_arguments(params), signal, on_update)


def text_of(result: AgentToolResult) -> str:
    """The text of the first content block."""
    block = result.content[0]
    assert block.type == "text"
    return block.text


def read_text(path: str) -> str:
    """Contents of ``path`` (sync helper so async tests stay lint-clean)."""
    with open(path, encoding="utf-8") as f:
        return f.read()


def take_log(path: str) -> str:
    """Contents of a full-output log, which is then deleted (the tool keeps them, like pi)."""
    try:
        return read_text(path)
    finally:
        os.remove(path)
