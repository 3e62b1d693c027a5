"""The last messages of a session file, for the ``/resume`` picker's preview (issue 12).

The preview shows what resuming the session would show at its end: the branch that ends at the file's last entry
(the leaf pi and pi-tui open a file at), its last few user/assistant/bash messages, each cut to one paragraph.
Read from the raw JSON objects (no pydantic parsing of the whole file), so one preview of a long session costs
one read of its file; the picker loads it in a worker thread only for the highlighted session.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from pi_tui.coding.session.session_file import read_session_file

PREVIEW_MESSAGES = 6
"""How many messages a preview holds (the last ones of the branch)."""

PREVIEW_CHARS = 400
"""Longest text kept of one message (cut with an ellipsis)."""


@dataclass(frozen=True)
class PreviewMessage:
    """One previewed message: ``role`` (``user``, ``assistant``, ``bash``, ``summary``) and its ``text``."""

    role: str
    text: str


def _clip(text: str, limit: int = PREVIEW_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif isinstance(block, dict) and block.get("type") == "image":
            parts.append("[image]")
    return " ".join(p for p in parts if p)


def _tool_calls(content: Any) -> list[str]:
    if not isinstance(content, list):
        return []
    return [str(b.get("name", "tool")) for b in content if isinstance(b, dict) and b.get("type") == "toolCall"]


def preview_of_entry(entry: dict[str, Any]) -> PreviewMessage | None:
    """The preview line of one entry object, or ``None`` for entries the preview skips (tool results, model
    and thinking changes, labels, custom entries, notifications)."""
    kind = entry.get("type")
    if kind in ("compaction", "branch_summary"):
        return PreviewMessage("summary", _clip(str(entry.get("summary", ""))))
    if kind != "message":
        return None
    message = entry.get("message")
    if not isinstance(message, dict):
        return None
    role = message.get("role")
    if role == "user":
        text = _content_text(message.get("content"))
        return PreviewMessage("user", _clip(text)) if text.strip() else None
    if role == "assistant":
        text = _content_text(message.get("content"))
        calls = _tool_calls(message.get("content"))
        if calls:
            text = (text + " " if text.strip() else "") + "→ " + ", ".join(calls)
        if not text.strip() and message.get("errorMessage"):
            text = f"Error: {message['errorMessage']}"
        return PreviewMessage("assistant", _clip(text)) if text.strip() else None
    if role == "bashExecution":
        return PreviewMessage("bash", _clip("$ " + str(message.get("command", ""))))
    return None


def _branch(objects: list[Any]) -> list[dict[str, Any]]:
    """Root → the last entry that has an id (the leaf a loaded file opens at), following ``parentId``."""
    by_id: dict[str, dict[str, Any]] = {}
    leaf: dict[str, Any] | None = None
    for obj in objects[1:]:
        if isinstance(obj, dict) and isinstance(obj.get("id"), str):
            by_id[obj["id"]] = obj
            leaf = obj
    path: list[dict[str, Any]] = []
    seen: set[str] = set()
    while leaf is not None and leaf["id"] not in seen:
        seen.add(leaf["id"])
        path.append(leaf)
        parent = leaf.get("parentId")
        leaf = by_id.get(parent) if isinstance(parent, str) else None
    path.reverse()
    return path


def session_preview(path: str | os.PathLike[str], limit: int = PREVIEW_MESSAGES) -> list[PreviewMessage]:
    """The last ``limit`` previewable messages of the session's current branch, oldest first; ``[]`` for an
    unreadable or empty file (never raises for content)."""
    raw = read_session_file(path)
    if raw.read_error or not raw.objects:
        return []
    out: list[PreviewMessage] = []
    for entry in reversed(_branch(raw.objects)):
        line = preview_of_entry(entry)
        if line is not None:
            out.append(line)
            if len(out) >= limit:
                break
    out.reverse()
    return out
