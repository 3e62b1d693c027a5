"""Lenient JSON parsing for streamed tool-call arguments (pi-reference §1.17).

* :func:`repair_json` fixes what LLMs get wrong inside string literals (raw control characters, invalid
  escapes, a dangling backslash) and touches nothing outside strings.
* :func:`parse_json_with_repair` is a strict parse that retries once on the repaired text.
* :func:`parse_streaming_json` never raises and always returns a dict: it parses complete JSON, else
  the longest meaningful prefix of partial JSON (open strings, arrays and objects closed) via
  ``pydantic_core.from_json(..., allow_partial="trailing-strings")``, else ``{}``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pydantic_core

_CONTROL = re.compile(r"[\x00-\x1f]")
# A lone backslash (after any number of escaped-backslash pairs) that does not start a valid escape.
_BAD_ESCAPE = re.compile(r'(?<!\\)((?:\\\\)*)\\(?!u[0-9a-fA-F]{4}|["\\/bfnrt])')
# A string literal, possibly unterminated at the end of the text (never fails once a quote is found).
_STRING = re.compile(r'"(?:[^"\\]+|\\.)*(?:"|\\?\Z)', re.S)
_CONTROL_ESCAPES = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_control(match: re.Match[str]) -> str:
    c = match.group()
    return _CONTROL_ESCAPES.get(c) or f"\\u{ord(c):04x}"


def _fix_string(literal: str) -> str:
    if "\\" in literal:
        literal = _BAD_ESCAPE.sub(r"\1\\\\", literal)
    return _CONTROL.sub(_escape_control, literal)


def repair_json(text: str) -> str:
    """Return ``text`` with string literals repaired (pi-reference §1.17).

    Inside a string: raw control characters (< U+0020) become escapes (``\\b \\f \\n \\r \\t``, others
    ``\\uXXXX``); valid escapes (``\\" \\\\ \\/ \\b \\f \\n \\r \\t`` and ``\\uXXXX`` with 4 hex digits)
    are kept; a backslash before any other character, or at the end of input, is doubled. Text outside
    strings is copied unchanged (a backslash outside a string, already invalid JSON, may be doubled).
    Returns the same string object when nothing needed fixing. Regex-based: linear and mostly in C,
    because it runs on every streamed tool-call delta.
    """
    has_control = _CONTROL.search(text) is not None
    if not has_control:
        if "\\" not in text:
            return text
        fixed = _BAD_ESCAPE.sub(r"\1\\\\", text)
        return text if fixed == text else fixed
    out: list[str] = []
    pos = 0
    for m in _STRING.finditer(text):
        out.append(text[pos : m.start()])
        literal = m.group()
        out.append(_fix_string(literal) if "\\" in literal or _CONTROL.search(literal) else literal)
        pos = m.end()
    out.append(text[pos:])
    result = "".join(out)
    return text if result == text else result


def parse_json_with_repair(text: str) -> Any:
    """Strict ``json.loads``; on failure parse :func:`repair_json` of the text if that differs.

    Raises ``json.JSONDecodeError`` (``ValueError``) when neither parses.
    """
    try:
        return json.loads(text)
    except ValueError:
        repaired = repair_json(text)
        if repaired is text or repaired == text:
            raise
        return json.loads(repaired)


def _partial(text: str) -> Any:
    return pydantic_core.from_json(text, allow_partial="trailing-strings")


def parse_streaming_json(text: str | None) -> dict[str, Any]:
    """Best-effort dict from possibly incomplete JSON; never raises (pi-reference §1.17).

    Empty/whitespace/None → ``{}``. Complete JSON (after repair) that is an object → that object.
    Otherwise a partial parse of the text, then of its repaired form; a non-object result → ``{}``.
    Order of attempts (same results as pi's, cheaper while streaming): strict parse, partial parse (an
    invalid escape or raw control character makes it fail, so repair still decides those), then the
    repaired text strictly and partially.
    """
    if not text or not text.strip():
        return {}
    try:
        value = json.loads(text)
        return value if isinstance(value, dict) else {}
    except (ValueError, RecursionError):
        pass
    try:
        value = _partial(text)
        return value if isinstance(value, dict) else {}
    except (ValueError, RecursionError):
        pass
    repaired = repair_json(text)
    if repaired is text:
        return {}
    for parse in (json.loads, _partial):
        try:
            value = parse(repaired)
            return value if isinstance(value, dict) else {}
        except (ValueError, RecursionError):
            continue
    return {}


def is_complete_json(text: str) -> bool:
    """True when ``text`` parses strictly (after repair) as JSON."""
    try:
        parse_json_with_repair(text)
        return True
    except (ValueError, RecursionError):
        return False


__all__ = ["is_complete_json", "parse_json_with_repair", "parse_streaming_json", "repair_json"]
