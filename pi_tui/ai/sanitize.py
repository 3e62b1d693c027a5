"""Unicode sanitising of outgoing text (pi-reference §1.20, §6 "Unicode").

Python ``str`` can hold lone UTF-16 surrogate code points (U+D800–U+DFFF), for example from
``surrogateescape``-decoded bytes or JSON with unpaired ``\\ud83d`` escapes. ``json.dumps`` would emit them as
``\\udxxx`` escapes that providers reject, and ``str.encode("utf-8")`` raises on them. pi's
``sanitizeSurrogates`` removes unpaired surrogates and keeps valid pairs; here a *pair* of surrogate code points
(high followed by low) is joined into the real character it encodes, and every remaining lone surrogate is removed.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

_SURROGATE = re.compile("[\ud800-\udfff]")
_PAIR = re.compile("([\ud800-\udbff])([\udc00-\udfff])")

T = TypeVar("T")


def _join_pair(match: re.Match[str]) -> str:
    high = ord(match.group(1)) - 0xD800
    low = ord(match.group(2)) - 0xDC00
    return chr(0x10000 + (high << 10) + low)


def sanitize_surrogates(text: str) -> str:
    """Return ``text`` without lone surrogates; surrogate pairs become the character they encode.

    Text without surrogates is returned unchanged (same object). Non-``str`` input is returned as is.
    """
    if not isinstance(text, str) or _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub("", _PAIR.sub(_join_pair, text))


def sanitize_json_value(value: T) -> T:
    """Deep copy of a JSON-like value (dict/list/tuple/str/scalars) with every string sanitised.

    Dict keys are sanitised too. Scalars other than ``str`` are returned unchanged; tuples become lists
    (their JSON form).
    """
    return _sanitize(value)  # type: ignore[no-any-return]


def _sanitize(value: Any) -> Any:
    if isinstance(value, str):
        return sanitize_surrogates(value)
    if isinstance(value, dict):
        return {(sanitize_surrogates(k) if isinstance(k, str) else k): _sanitize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_sanitize(v) for v in value]
    return value
