"""Token estimates and context-size maths (pi-reference §3.8).

Estimates are ``ceil(chars / 4)``; each image counts 4800 chars (1200 tokens). Messages may be pydantic
models or pi JSON dicts.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

IMAGE_CHARS = 4800


def _get(obj: Any, name: str, alias: str | None = None) -> Any:
    if isinstance(obj, dict):
        if name in obj:
            return obj[name]
        return obj.get(alias) if alias else None
    value = getattr(obj, name, None)
    if value is None and alias:
        value = getattr(obj, alias, None)
    return value


def _content_chars(content: Any) -> int:
    if isinstance(content, str):
        return len(content)
    chars = 0
    for block in content or []:
        kind = _get(block, "type")
        if kind == "text":
            chars += len(_get(block, "text") or "")
        elif kind == "image":
            chars += IMAGE_CHARS
    return chars


def estimate_tokens(message: Any) -> int:
    """Estimated tokens of one agent message (chars/4 rounded up; pi-reference §3.8)."""
    role = _get(message, "role")
    chars = 0
    if role in ("user", "custom"):
        chars = _content_chars(_get(message, "content"))
    elif role == "assistant":
        for block in _get(message, "content") or []:
            kind = _get(block, "type")
            if kind == "text":
                chars += len(_get(block, "text") or "")
            elif kind == "thinking":
                chars += len(_get(block, "thinking") or "")
            elif kind == "toolCall":
                chars += len(_get(block, "name") or "")
                chars += len(json.dumps(_get(block, "arguments") or {}, separators=(",", ":")))
    elif role == "toolResult":
        chars = _content_chars(_get(message, "content"))
    elif role == "bashExecution":
        chars = len(_get(message, "command") or "") + len(_get(message, "output") or "")
    elif role in ("branchSummary", "compactionSummary"):
        chars = len(_get(message, "summary") or "")
    else:
        return 0  # UI-only and unknown roles never reach the LLM
    return math.ceil(chars / 4)


def calculate_context_tokens(usage: Any) -> int:
    """``totalTokens`` or else ``input + output + cacheRead + cacheWrite`` of a usage object/dict."""
    total = _get(usage, "total_tokens", "totalTokens") or 0
    if total:
        return int(total)
    return int(
        (_get(usage, "input") or 0)
        + (_get(usage, "output") or 0)
        + (_get(usage, "cache_read", "cacheRead") or 0)
        + (_get(usage, "cache_write", "cacheWrite") or 0)
    )


def _usable_assistant(message: Any) -> bool:
    if _get(message, "role") != "assistant":
        return False
    if _get(message, "stop_reason", "stopReason") in ("aborted", "error"):
        return False
    usage = _get(message, "usage")
    return usage is not None and calculate_context_tokens(usage) > 0


def get_last_assistant_usage(messages: Sequence[Any]) -> Any | None:
    """Usage of the last assistant message that is neither aborted nor an error (and has tokens)."""
    for message in reversed(messages):
        if _usable_assistant(message):
            return _get(message, "usage")
    return None


@dataclass
class ContextEstimate:
    """``tokens`` in context; ``usage_tokens`` from the last usable assistant; ``trailing_tokens`` after it;
    ``last_usage_index`` its index (None when no usage)."""

    tokens: int
    usage_tokens: int
    trailing_tokens: int
    last_usage_index: int | None


def estimate_context_tokens(messages: Sequence[Any]) -> ContextEstimate:
    """Context tokens: last usable assistant's usage + estimates of later messages, else all estimates."""
    for index in range(len(messages) - 1, -1, -1):
        if _usable_assistant(messages[index]):
            usage_tokens = calculate_context_tokens(_get(messages[index], "usage"))
            trailing = sum(estimate_tokens(m) for m in messages[index + 1 :])
            return ContextEstimate(usage_tokens + trailing, usage_tokens, trailing, index)
    total = sum(estimate_tokens(m) for m in messages)
    return ContextEstimate(total, 0, total, None)


def should_compact(context_tokens: int, context_window: int, reserve_tokens: int, enabled: bool = True) -> bool:
    """True when ``context_tokens > context_window - reserve_tokens`` (and compaction is enabled)."""
    return enabled and context_window > 0 and context_tokens > context_window - reserve_tokens
