"""How a pi-tui tool call looks to an ACP client: kind, title, locations and content (ACP "Tool Calls").

Pure functions over a tool name, its arguments and its result; :class:`FileSnapshots` keeps the text of a
file an ``edit``/``write`` call is about to change, so the finished call can carry an ACP diff (old and new
text) instead of the tool's one-line summary. Files over :data:`SNAPSHOT_LIMIT` bytes or not UTF-8 text get
no diff (the text result is still shown).
"""

from __future__ import annotations

import os
from typing import Any

from acp import text_block, tool_content, tool_diff_content
from acp.schema import ContentToolCallContent, FileEditToolCallContent, ToolCallLocation, ToolKind

SNAPSHOT_LIMIT = 2_000_000
"""Largest file (bytes) whose old and new text are sent as a diff."""

TITLE_LIMIT = 120
"""Longest title (characters); longer bash commands end with an ellipsis."""

_KINDS: dict[str, ToolKind] = {
    "read": "read",
    "edit": "edit",
    "write": "edit",
    "bash": "execute",
    "grep": "search",
    "find": "search",
    "ls": "search",
}


def _args(args: Any) -> dict[str, Any]:
    return args if isinstance(args, dict) else {}


def tool_kind(name: str) -> ToolKind:
    """The ACP kind of the built-in tool ``name`` (``"other"`` for extension and MCP tools)."""
    return _KINDS.get(name, "other")


def _short(text: str) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= TITLE_LIMIT else one_line[: TITLE_LIMIT - 1] + "…"


def tool_title(name: str, args: Any) -> str:
    """A one-line title: ``Read src/app.py``, ``Edit …``, ``Write …``, the bash command, ``grep PATTERN``."""
    a = _args(args)
    path = a.get("path") if isinstance(a.get("path"), str) else None
    if name == "read" and path:
        return f"Read {path}"
    if name == "edit" and path:
        return f"Edit {path}"
    if name == "write" and path:
        return f"Write {path}"
    if name == "bash" and isinstance(a.get("command"), str):
        return _short(a["command"])
    if name in ("grep", "find") and isinstance(a.get("pattern"), str):
        return _short(f"{name} {a['pattern']}" + (f" in {path}" if path else ""))
    if name == "ls":
        return f"ls {path or '.'}"
    return name


def absolute_path(cwd: str, path: str) -> str:
    """``path`` made absolute against ``cwd`` (``~`` expanded); ACP locations are absolute paths."""
    return os.path.abspath(os.path.join(cwd, os.path.expanduser(path)))


def tool_locations(name: str, args: Any, cwd: str) -> list[ToolCallLocation]:
    """The files a call touches (``path`` of read/edit/write/ls/grep/find; read's ``offset`` as the line)."""
    a = _args(args)
    path = a.get("path")
    if not isinstance(path, str) or not path:
        return []
    line = a.get("offset") if name == "read" and isinstance(a.get("offset"), int) and a["offset"] >= 0 else None
    return [ToolCallLocation(path=absolute_path(cwd, path), line=line)]


def result_text(result: Any) -> str:
    """The text blocks of a tool result (an ``AgentToolResult`` or its JSON dict), joined by newlines."""
    content = result.get("content") if isinstance(result, dict) else getattr(result, "content", None)
    parts: list[str] = []
    for block in content or ():
        kind = block.get("type") if isinstance(block, dict) else getattr(block, "type", None)
        text = block.get("text") if isinstance(block, dict) else getattr(block, "text", None)
        if kind == "text" and isinstance(text, str):
            parts.append(text)
        elif kind == "image":
            parts.append("[image]")
    return "\n".join(parts)


def text_content(text: str) -> list[ContentToolCallContent]:
    """One text content item (none for empty text)."""
    return [tool_content(text_block(text))] if text else []


def _read_text(path: str) -> str | None:
    try:
        if os.path.getsize(path) > SNAPSHOT_LIMIT:
            return None
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8")
    except FileNotFoundError:
        return ""
    except (OSError, UnicodeDecodeError):
        return None


class FileSnapshots:
    """Old text of the file each running ``edit``/``write`` call changes, by tool call id."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self._old: dict[str, tuple[str, str | None, bool]] = {}

    def before(self, call_id: str, name: str, args: Any) -> None:
        """Remember the file's text before an edit/write runs (other tools are ignored)."""
        path = _args(args).get("path")
        if name not in ("edit", "write") or not isinstance(path, str) or not path:
            return
        absolute = absolute_path(self.cwd, path)
        self._old[call_id] = (absolute, _read_text(absolute), os.path.exists(absolute))

    def diff(self, call_id: str, succeeded: bool) -> list[FileEditToolCallContent]:
        """The diff of a finished call (old → new text), or nothing when it failed or the text is unknown."""
        entry = self._old.pop(call_id, None)
        if entry is None or not succeeded:
            return []
        path, old, existed = entry
        new = _read_text(path)
        if old is None or new is None or old == new:
            return []
        return [tool_diff_content(path, new, old if existed else None)]
