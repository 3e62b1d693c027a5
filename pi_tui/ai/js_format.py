"""JavaScript-compatible number and JSON formatting (used for pi-identical error texts).

pi builds messages with JavaScript's ``String(number)`` and ``JSON.stringify(value, null, 2)``; Python's
``str``/``json.dumps`` differ for floats (``1.0`` vs ``1``, ``1e-07`` vs ``1e-7``). These helpers reproduce
the JavaScript output for JSON-like values.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def js_number_to_string(value: float | int) -> str:
    """``String(value)`` as JavaScript prints a number (shortest round-trip digits, JS exponent rules)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) < 10**21:
        return str(value)
    number = float(value)
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "0"
    sign, digit_tuple, exponent = Decimal(repr(abs(number))).as_tuple()
    digits = "".join(str(d) for d in digit_tuple).rstrip("0") or "0"
    assert isinstance(exponent, int)
    # value = 0.digits * 10**n
    n = exponent + len(digit_tuple)
    k = len(digits)
    prefix = "-" if number < 0 else ""
    if k <= n <= 21:
        return prefix + digits + "0" * (n - k)
    if 0 < n <= 21:
        return prefix + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return prefix + "0." + "0" * (-n) + digits
    e = n - 1
    exp = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return prefix + digits + "e" + exp
    return prefix + digits[0] + "." + digits[1:] + "e" + exp


def _escape_surrogates(text: str) -> str:
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def _string(text: str) -> str:
    return _escape_surrogates(json.dumps(text, ensure_ascii=False))


def js_json_compact(value: Any) -> str:
    """``JSON.stringify(value)`` (no indent) for JSON-like Python values: ``{"a":1,"b":[2,"ü"]}``.

    Non-ASCII text is kept, lone surrogates are escaped (``\\ud83d``) and numbers print as JavaScript does
    (``2.0`` → ``2``, ``1e-07`` → ``1e-7``, non-finite → ``null``), so a parsed-and-restringified tool-call
    argument is byte-identical to pi's (the OpenAI ``function.arguments`` and Responses ``arguments``
    strings). Values without floats take ``json.dumps``'s C encoder; others are written recursively.
    """
    if _has_float(value):
        return _compact(value)
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return _escape_surrogates(text) if _LONE_SURROGATE.search(text) else text


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_float(v) for v in value)
    return False


def _compact(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return "null"
        return js_number_to_string(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{_string(str(k))}:{_compact(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_compact(v) for v in value) + "]"
    return _string(str(value))


def js_json_stringify(value: Any, indent: int = 2) -> str:
    """``JSON.stringify(value, null, indent)`` for JSON-like Python values (dict/list/tuple/str/number/bool/None).

    Non-finite floats print as ``null`` (as in JavaScript); other objects are printed via ``str``.
    """
    return _stringify(value, indent, 0)


def _stringify(value: Any, indent: int, level: int) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return "null"
        return js_number_to_string(value)
    if isinstance(value, str):
        return _string(value)
    pad = " " * (indent * (level + 1))
    end = " " * (indent * level)
    if isinstance(value, dict):
        if not value:
            return "{}"
        items = [f"{pad}{_string(str(k))}: {_stringify(v, indent, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        items = [f"{pad}{_stringify(v, indent, level + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + "\n" + end + "]"
    return _string(str(value))
