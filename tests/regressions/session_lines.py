"""Hand-written session file lines (pi's v3 JSONL format) for the durability regression tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

USAGE = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
         "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}
TS = "2026-01-01T00:00:00.000Z"


def header(session_id: str = "s-1", cwd: str = "/proj", version: int = 3) -> dict[str, Any]:
    """A session header line."""
    return {"type": "session", "version": version, "id": session_id, "timestamp": TS, "cwd": cwd}


def entry(entry_id: str, parent: str | None, message: dict[str, Any]) -> dict[str, Any]:
    """A ``message`` entry."""
    return {"type": "message", "id": entry_id, "parentId": parent, "timestamp": TS, "message": message}


def user(text: str) -> dict[str, Any]:
    """A user message (pi JSON)."""
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1}


def assistant(*blocks: Any, stop: str = "toolUse", api: str = "openai-completions") -> dict[str, Any]:
    """An assistant message; a ``str`` block is text, a ``(id, name)`` tuple a tool call."""
    content: list[dict[str, Any]] = []
    for block in blocks:
        if isinstance(block, str):
            content.append({"type": "text", "text": block})
        else:
            call_id, name = block
            content.append({"type": "toolCall", "id": call_id, "name": name, "arguments": {"text": call_id}})
    return {"role": "assistant", "content": content, "api": api, "provider": "mock", "model": "mock-model",
            "usage": USAGE, "stopReason": stop, "timestamp": 2}


def result(call_id: str, name: str, text: str) -> dict[str, Any]:
    """A tool result message."""
    return {"role": "toolResult", "toolCallId": call_id, "toolName": name,
            "content": [{"type": "text", "text": text}], "isError": False, "timestamp": 3}


def compaction(entry_id: str, parent: str, first_kept: str, summary: str) -> dict[str, Any]:
    """A ``compaction`` entry."""
    return {"type": "compaction", "id": entry_id, "parentId": parent, "timestamp": TS, "summary": summary,
            "firstKeptEntryId": first_kept, "tokensBefore": 1000}


def write(path: Path, lines: list[dict[str, Any]]) -> bytes:
    """Write the lines as JSONL; returns the bytes written."""
    data = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines).encode()
    path.write_bytes(data)
    return data
