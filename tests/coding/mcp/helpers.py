"""Builders for MCP tests: a manager over given server entries, a session whose faux model calls MCP tools."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.ai.types import Context
from pi_tui.coding.mcp.config import McpConfigLoad, McpServerConfig
from pi_tui.coding.mcp.manager import McpManager
from tests.coding.mcp.conftest import FAULT_SERVER


def stdio(name: str, command: str, *args: str, timeout: float = 60.0, **extra: Any) -> McpServerConfig:
    """A stdio server entry."""
    return McpServerConfig(name=name, transport="stdio", command=command, args=tuple(args), timeout=timeout, **extra)


def fault(name: str = "fault", *args: str, timeout: float = 60.0) -> McpServerConfig:
    """The fault server of tests/fixtures/mcp/fault_server.py."""
    return stdio(name, sys.executable, str(FAULT_SERVER), *args, timeout=timeout)


def manager(tmp_path: Path, *servers: McpServerConfig) -> McpManager:
    """A manager logging under ``tmp_path/logs`` (not started)."""
    return McpManager(McpConfigLoad(servers={s.name: s for s in servers}), log_dir=tmp_path / "logs")


class ModelSees:
    """Faux steps that call tools one per turn, recording the tool results each next request carries."""

    def __init__(self) -> None:
        self.results: list[dict[str, Any]] = []

    def step_after_tool(self, then: Any) -> Any:
        def step(context: Context, options: Any, state: Any, model: Any) -> Any:
            last = context.messages[-1]
            self.results.append(last.model_dump(mode="json", by_alias=True, exclude_none=True))
            return then

        return step


def script_calls(faux: FauxProvider, calls: list[tuple[str, dict[str, Any]]], final: str = "done") -> ModelSees:
    """Make the faux model call each ``(tool, args)`` in turn, then answer ``final``; returns the recorder."""
    sees = ModelSees()
    steps: list[Any] = []
    for index, (tool, args) in enumerate(calls):
        message = faux_assistant_message([faux_tool_call(tool, args, id=f"call-{index}")], stop_reason="toolUse")
        steps.append(message if index == 0 else sees.step_after_tool(message))
    steps.append(sees.step_after_tool(faux_assistant_message(final)))
    faux.set_responses(steps)
    return sees


def result_text(result: dict[str, Any]) -> str:
    """Text of a recorded toolResult message."""
    return "\n".join(block.get("text", "") for block in result["content"] if block["type"] == "text")


def collect_notices(session: Any) -> list[str]:
    """The texts of the notifications ``session`` shows from now on (MCP states are shown, not saved: they are
    about this run, so they reach the listeners but not ``session.messages`` or the file)."""
    texts: list[str] = []

    def on_event(event: Any) -> None:
        message = getattr(event, "message", None)
        if getattr(event, "type", None) == "message_end" and getattr(message, "role", None) == "notification":
            texts.append(message.text)

    session.subscribe(on_event)
    return texts
