"""Reading what handlers return (pi docs/extensions.md "Events"): a result is a ``dict`` (snake_case keys, or
pi's camelCase) or an instance of a result dataclass (``events.py``); :class:`Garbage` marks one an event does
not accept, which the runner reports (extension and event named) and ignores.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any


class Garbage(Exception):
    """A handler returned a value its event does not accept."""


def get(result: Any, *names: str) -> Any:
    """``result[name]`` / ``result.name`` for the first name present (snake_case, then pi's camelCase)."""
    for name in names:
        if isinstance(result, dict):
            if name in result:
                return result[name]
        elif hasattr(result, name):
            return getattr(result, name)
    return None


def has(result: Any, name: str, *more: str) -> bool:
    """True when ``result`` has one of the keys (a dict) or fields set to non-None (a dataclass)."""
    for key in (name, *more):
        if isinstance(result, dict):
            if key in result:
                return True
        elif is_dataclass(result) and key in {f.name for f in fields(result)}:
            return getattr(result, key) is not None
    return False


def is_record(result: Any) -> bool:
    """True for a dict or a dataclass instance (the shapes a result may have)."""
    return isinstance(result, dict) or (is_dataclass(result) and not isinstance(result, type))


def describe(value: Any) -> str:
    """``type repr`` of ``value``, cut to about 60 characters (for error messages)."""
    text = repr(value)
    return f"{type(value).__name__} {text[:60]}" if len(text) <= 60 else f"{type(value).__name__} {text[:57]}..."


def tool_result_patch(result: Any) -> tuple[list[Any] | None, Any, bool | None]:
    """``(content, details, is_error)`` of a ``tool_result`` result (None: unchanged; a ``str`` content is one
    text block); raises :class:`Garbage` for another shape."""
    if not is_record(result):
        raise Garbage(f"returned {describe(result)}, expected {{'content'?, 'details'?, 'is_error'?}}")
    content = get(result, "content")
    is_error = get(result, "is_error", "isError")
    if content is not None:
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            raise Garbage(f"content is {describe(content)}, expected a list of text/image blocks")
    if is_error is not None and not isinstance(is_error, bool):
        raise Garbage(f"is_error is {describe(is_error)}, expected a bool")
    return content, get(result, "details"), is_error
