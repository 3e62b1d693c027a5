"""Tool-call ids for providers with strict id rules, mapped when the request is built.

Mistral (its API, and vLLM/MLX servers running a Mistral tokenizer) rejects any tool-call id that is not
exactly 9 letters or digits: ``Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9``
(karthink/gptel#1203, anomalyco/opencode#1680, jundot/omlx#1995). Ids made by other providers, by pi-tui for
calls that came without one, or by the same server in another format all hit it on the next request.

The session keeps the original ids; only the request body carries the mapped ones, and a tool result gets
exactly the id of its call, so each call still matches its result.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

MISTRAL_ID_LENGTH = 9
_MISTRAL_ID = re.compile(r"^[A-Za-z0-9]{9}$")
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _base62_id(original: str, attempt: int) -> str:
    digest = int.from_bytes(hashlib.sha256(f"{attempt}:{original}".encode()).digest(), "big")
    chars = []
    for _ in range(MISTRAL_ID_LENGTH):
        digest, rem = divmod(digest, 62)
        chars.append(_ALPHABET[rem])
    return "".join(chars)


def mistral_tool_call_ids(originals: Iterable[str]) -> dict[str, str]:
    """``{original id: 9-character id}`` for ``originals`` in order of first appearance.

    A valid id (9 letters/digits) is kept; any other id becomes 9 base-62 characters of its SHA-256, so the
    same id maps the same way in every request. Distinct originals always get distinct ids: a clash (with an
    earlier kept or mapped id) rehashes with a counter. Earlier ids never change when later ones are added
    (the history only grows), so prompt caches keep matching.
    """
    mapping: dict[str, str] = {}
    used: set[str] = set()
    for original in originals:
        if original in mapping:
            continue
        candidate = original if _MISTRAL_ID.match(original) else _base62_id(original, 0)
        attempt = 0
        while candidate in used:
            attempt += 1
            candidate = _base62_id(original, attempt)
        mapping[original] = candidate
        used.add(candidate)
    return mapping


def apply_mistral_ids(messages: list[dict[str, Any]]) -> None:
    """Rewrite, in place, the ``tool_calls[].id`` and ``tool_call_id`` of Chat Completions ``messages``."""
    originals: list[str] = []
    for m in messages:
        for call in m.get("tool_calls") or []:
            if isinstance(call.get("id"), str):
                originals.append(call["id"])
        if m.get("role") == "tool" and isinstance(m.get("tool_call_id"), str):
            originals.append(m["tool_call_id"])
    mapping = mistral_tool_call_ids(originals)
    for m in messages:
        for call in m.get("tool_calls") or []:
            if isinstance(call.get("id"), str):
                call["id"] = mapping[call["id"]]
        if m.get("role") == "tool" and isinstance(m.get("tool_call_id"), str):
            m["tool_call_id"] = mapping[m["tool_call_id"]]
