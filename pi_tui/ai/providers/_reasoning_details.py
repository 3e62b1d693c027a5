"""OpenRouter-style ``reasoning_details`` on Chat Completions: collected while streaming, replayed verbatim.

OpenRouter (and proxies in front of it) return a provider's own reasoning blocks beside the plain ``reasoning``
text, as ``delta.reasoning_details``: ``{type: "reasoning.text", text, signature?}`` (Anthropic's signed
thinking), ``{type: "reasoning.summary", summary}`` (OpenAI summaries), ``{type: "reasoning.encrypted", data}``
(OpenAI/Gemini opaque reasoning), each with optional ``id``, ``format`` and ``index``. The model needs the
array back unchanged and in order on the next request to continue its reasoning (OpenRouter's "preserving
reasoning blocks"; pi 0.84.3, #7994). While streaming, consecutive ``reasoning.text`` pieces and consecutive
``reasoning.summary`` pieces are one detail each (pi 0.84.4): the stream sends a detail's text in slices.

Stored form (pi 1.x's): the message's thinking block carries ``thinkingSignature`` = the JSON array. Messages
written before (pi 0.73, earlier pi-tui) kept only each tool call's own ``reasoning.encrypted`` detail in the
call's ``thoughtSignature``; those are still replayed when no thinking block holds an array.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ._stream_blocks import json_compact

_COMMON_FIELDS = ("id", "format", "index")


def is_reasoning_detail(value: Any) -> bool:
    """Whether ``value`` is one well-formed reasoning detail of the three known types.

    ``id``/``format`` must be strings (or absent/None), ``index`` an int (or absent/None); a text detail's
    ``signature`` a string (or absent/None). Anything else (unknown types, wrong shapes) is ignored.
    """
    if not isinstance(value, dict):
        return False
    for key in ("id", "format"):
        if value.get(key) is not None and not isinstance(value[key], str):
            return False
    index = value.get("index")
    if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
        return False
    kind = value.get("type")
    if kind == "reasoning.summary":
        return isinstance(value.get("summary"), str)
    if kind == "reasoning.encrypted":
        return isinstance(value.get("data"), str)
    if kind == "reasoning.text":
        signature = value.get("signature")
        return isinstance(value.get("text"), str) and (signature is None or isinstance(signature, str))
    return False


def append_reasoning_detail(details: list[dict[str, Any]], detail: dict[str, Any]) -> None:
    """Add one streamed ``detail`` to ``details`` (mutated): a text or summary slice that follows a detail of
    the same type extends it (text appended, the first signature kept, missing id/format/index filled in);
    anything else is appended as a copy."""
    last = details[-1] if details else None
    kind = detail.get("type")
    if last is not None and kind == last.get("type") and kind in ("reasoning.text", "reasoning.summary"):
        field = "text" if kind == "reasoning.text" else "summary"
        last[field] = str(last.get(field, "")) + str(detail.get(field, ""))
        if kind == "reasoning.text" and not last.get("signature") and detail.get("signature"):
            last["signature"] = detail["signature"]
        for key in _COMMON_FIELDS:
            if last.get(key) is None and detail.get(key) is not None:
                last[key] = detail[key]
            elif key == "format" and not last.get(key) and detail.get(key):
                last[key] = detail[key]
        return
    details.append(dict(detail))


def encode_reasoning_details(details: list[dict[str, Any]]) -> str:
    """The ``thinkingSignature`` that stores ``details`` (compact JSON array, serialized once per reply)."""
    return json_compact(details)


def decode_reasoning_details(signature: str | None) -> list[dict[str, Any]] | None:
    """The details array a ``thinkingSignature`` holds, or None (a field name such as ``"reasoning"``, an
    empty array, invalid JSON or any element that is not a well-formed detail)."""
    if not signature or not signature.startswith("["):
        return None
    try:
        parsed = json.loads(signature)
    except ValueError:
        return None
    if isinstance(parsed, list) and parsed and all(is_reasoning_detail(d) for d in parsed):
        return parsed
    return None


def _legacy_encrypted(signature: str | None) -> dict[str, Any] | None:
    if not signature:
        return None
    try:
        parsed = json.loads(signature)
    except ValueError:
        return None
    if (
        is_reasoning_detail(parsed)
        and parsed.get("type") == "reasoning.encrypted"
        and isinstance(parsed.get("id"), str)
        and parsed["id"]
        and parsed["data"]
    ):
        return parsed  # type: ignore[no-any-return]
    return None


def details_for_replay(
    thinking_signatures: Iterable[str | None], call_signatures: Iterable[str | None]
) -> list[dict[str, Any]] | None:
    """The ``reasoning_details`` an assistant message sends back, or None.

    The first thinking block whose signature holds a details array wins (sent verbatim, in order); otherwise
    the tool calls' own encrypted details (the older stored form), in call order.
    """
    for signature in thinking_signatures:
        details = decode_reasoning_details(signature)
        if details is not None:
            return details
    legacy = [d for d in (_legacy_encrypted(s) for s in call_signatures) if d is not None]
    return legacy or None
