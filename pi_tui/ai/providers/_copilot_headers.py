"""GitHub Copilot per-request headers (pi-reference §1.13 "Other details").

``X-Initiator: user|agent`` (agent when a last message exists and is not a user message), ``Openai-Intent:
conversation-edits``, and ``Copilot-Vision-Request: true`` when any user or tool-result message holds an image.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def _role(message: Any) -> str | None:
    return message.get("role") if isinstance(message, dict) else getattr(message, "role", None)


def _content(message: Any) -> Any:
    return message.get("content") if isinstance(message, dict) else getattr(message, "content", None)


def has_vision_input(messages: Sequence[Any]) -> bool:
    """True when a user or toolResult message carries an image block."""
    for message in messages:
        if _role(message) not in ("user", "toolResult"):
            continue
        content = _content(message)
        if isinstance(content, list):
            for block in content:
                kind = block.get("type") if isinstance(block, dict) else getattr(block, "type", None)
                if kind == "image":
                    return True
    return False


def copilot_dynamic_headers(messages: Sequence[Any]) -> dict[str, str]:
    """The dynamic Copilot headers for a request built from ``messages``."""
    last_role = _role(messages[-1]) if messages else None
    headers = {
        "X-Initiator": "agent" if last_role is not None and last_role != "user" else "user",
        "Openai-Intent": "conversation-edits",
    }
    if has_vision_input(messages):
        headers["Copilot-Vision-Request"] = "true"
    return headers
