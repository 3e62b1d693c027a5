"""Conversation → plain text for the summariser (pi-reference §3.9 "Serialisation")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

TOOL_RESULT_MAX_CHARS = 2000


def _get(obj: Any, name: str) -> Any:
    return obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(str(_get(b, "text") or "") for b in content or [] if _get(b, "type") == "text")


def truncate_for_summary(text: str, max_chars: int = TOOL_RESULT_MAX_CHARS) -> str:
    """``text`` cut to ``max_chars`` plus ``\\n\\n[... N more characters truncated]`` when longer."""
    if len(text) <= max_chars:
        return text
    return f"{text[:max_chars]}\n\n[... {len(text) - max_chars} more characters truncated]"


def serialize_conversation(messages: Sequence[Any]) -> str:
    """LLM messages (after ``convert_to_llm``) as ``[User]: …`` / ``[Assistant]: …`` blocks joined by blank lines.

    Assistant thinking → ``[Assistant thinking]:``; tool calls → ``[Assistant tool calls]: name(k=<json>, …); …``;
    tool results → ``[Tool result]:`` truncated to 2000 chars. Empty parts are skipped.
    """
    parts: list[str] = []
    for message in messages:
        role = _get(message, "role")
        if role == "user":
            text = _text_of(_get(message, "content"))
            if text:
                parts.append(f"[User]: {text}")
        elif role == "assistant":
            texts: list[str] = []
            thoughts: list[str] = []
            calls: list[str] = []
            for block in _get(message, "content") or []:
                kind = _get(block, "type")
                if kind == "text":
                    texts.append(str(_get(block, "text") or ""))
                elif kind == "thinking":
                    thoughts.append(str(_get(block, "thinking") or ""))
                elif kind == "toolCall":
                    args = _get(block, "arguments") or {}
                    rendered = ", ".join(
                        f"{k}={json.dumps(v, ensure_ascii=False, separators=(',', ':'))}" for k, v in args.items()
                    )
                    calls.append(f"{_get(block, 'name')}({rendered})")
            if thoughts:
                parts.append("[Assistant thinking]: " + "\n".join(thoughts))
            if texts:
                parts.append("[Assistant]: " + "\n".join(texts))
            if calls:
                parts.append("[Assistant tool calls]: " + "; ".join(calls))
        elif role == "toolResult":
            text = _text_of(_get(message, "content"))
            if text:
                parts.append(f"[Tool result]: {truncate_for_summary(text)}")
    return "\n\n".join(parts)
