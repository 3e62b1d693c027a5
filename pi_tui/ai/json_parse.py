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
from typing import Any

import pydantic_core

_VALID_ESCAPES = frozenset('"\\/bfnrt')
_HEX = frozenset("0123456789abcdefABCDEF")
_CONTROL_ESCAPES = {"\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def repair_json(text: str) -> str:
    """Return ``text`` with string literals repaired (pi-reference §1.17).

    Inside a string: raw control characters (< U+0020) become escapes (``\\b \\f \\n \\r \\t``, others
    ``\\uXXXX``); valid escapes (``\\" \\\\ \\/ \\b \\f \\n \\r \\t`` and ``\\uXXXX`` with 4 hex digits)
    are kept; a backslash before any other character, or at the end of input, is doubled. Text outside
    strings is copied unchanged. Returns the same string object when nothing needed fixing.
    """
    if "\\" not in text and not any(ord(c) < 0x20 for c in text):
        return text
    out: list[str] = []
    in_string = False
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if not in_string:
            out.append(c)
            if c == '"':
                in_string = True
            i += 1
            continue
        if c == '"':
            out.append(c)
            in_string = False
            i += 1
        elif c == "\\":
            if i + 1 >= n:
                out.append("\\\\")
                i += 1
            else:
                nxt = text[i + 1]
                if nxt == "u":
                    hex_part = text[i + 2 : i + 6]
                    if len(hex_part) == 4 and all(h in _HEX for h in hex_part):
                        out.append(text[i : i + 6])
                        i += 6
                    else:
                        out.append("\\\\")
                        i += 1
                elif nxt in _VALID_ESCAPES:
                    out.append(text[i : i + 2])
                    i += 2
                else:
                    out.append("\\\\")
                    i += 1
        elif ord(c) < 0x20:
            out.append(_CONTROL_ESCAPES.get(c) or f"\\u{ord(c):04x}")
            i += 1
        else:
            out.append(c)
            i += 1
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
    """
    if not text or not text.strip():
        return {}
    try:
        value = parse_json_with_repair(text)
        return value if isinstance(value, dict) else {}
    except (ValueError, RecursionError):
        pass
    for candidate in (text, repair_json(text)):
        try:
            value = _partial(candidate)
        except (ValueError, RecursionError):
            continue
        return value if isinstance(value, dict) else {}
    return {}


def is_complete_json(text: str) -> bool:
    """True when ``text`` parses strictly (after repair) as JSON."""
    try:
        parse_json_with_repair(text)
        return True
    except (ValueError, RecursionError):
        return False


__all__ = ["is_complete_json", "parse_json_with_repair", "parse_streaming_json", "repair_json"]
