"""JSON with comments (JSONC) for pi-tui's config files (pi-reference §3.16: "models.json, JSONC allowed").

:func:`strip_jsonc` removes ``// line`` and ``/* block */`` comments and trailing commas before ``}``/``]``,
leaving string literals untouched; :func:`loads_jsonc` parses the result with :func:`json.loads`.
"""

from __future__ import annotations

import json
import re
from typing import Any

_TOKENS = re.compile(r'"(?:\\.|[^"\\])*"|//[^\n]*|/\*.*?\*/', re.DOTALL)
_TRAILING_COMMA = re.compile(r'"(?:\\.|[^"\\])*"|,(\s*[}\]])', re.DOTALL)


def strip_jsonc(text: str) -> str:
    """Text without comments and trailing commas (strings kept verbatim; a BOM is dropped)."""
    text = text.removeprefix("\ufeff")
    without_comments = _TOKENS.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text)
    return _TRAILING_COMMA.sub(
        lambda m: m.group(1) if m.group(1) is not None else m.group(0), without_comments
    )


def loads_jsonc(text: str) -> Any:
    """Parse JSONC text. Raises ``json.JSONDecodeError`` (a ``ValueError``) with line/column on bad input."""
    return json.loads(strip_jsonc(text))
