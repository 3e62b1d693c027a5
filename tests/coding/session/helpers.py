"""Message builders shared by the session tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_tui.ai.types import AssistantMessage, TextContent, ToolCall, ToolResultMessage, UserMessage


def user(text: str, timestamp: int = 1) -> UserMessage:
    return UserMessage(content=[TextContent(text=text)], timestamp=timestamp)


def assistant(
    text: str, provider: str = "mock", model: str = "mock-model", timestamp: int = 2
) -> AssistantMessage:
    return AssistantMessage(
        content=[TextContent(text=text)],
        api="openai-completions",
        provider=provider,
        model=model,
        timestamp=timestamp,
    )


def tool_call(name: str, args: dict[str, Any], call_id: str = "call_1") -> AssistantMessage:
    return AssistantMessage(
        content=[ToolCall(id=call_id, name=name, arguments=args)],
        api="openai-completions",
        provider="mock",
        model="mock-model",
        stop_reason="toolUse",
    )


def tool_result(text: str, call_id: str = "call_1", name: str = "bash") -> ToolResultMessage:
    return ToolResultMessage(tool_call_id=call_id, tool_name=name, content=[TextContent(text=text)])


def texts(messages: list[Any]) -> list[str]:
    """Compact description of a context: ``role:text`` per message."""
    out = []
    for message in messages:
        data = message if isinstance(message, dict) else message.to_json_dict()
        role = data["role"]
        if role in ("compactionSummary", "branchSummary"):
            out.append(f"{role}:{data['summary']}")
            continue
        content = data.get("content", data.get("text", ""))
        if isinstance(content, list):
            content = "".join(block.get("text", "") for block in content if isinstance(block, dict))
        out.append(f"{role}:{content}")
    return out


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
