"""The transcript's one wording for an aborted run (issue 9: three spellings of the abort message)."""

from __future__ import annotations

from typing import Any

ABORTED_TEXT = "Operation aborted"
_PROVIDER_ABORT_TEXTS = {"request was aborted", "request was aborted.", "this operation was aborted", "aborted",
                         "operation aborted", "the operation was aborted", "the operation was aborted."}


def abort_text(error_message: Any) -> str:
    """What the transcript says for an aborted run (pi-reference §3.14): pi's ``Operation aborted`` for every
    provider's own abort text (``Request was aborted``, ``Request was aborted.``, ``This operation was aborted``:
    one wording, issue 9); any other text (``Aborted after 2 retry attempts``) is kept."""
    text = str(error_message or "").strip()
    return ABORTED_TEXT if not text or text.lower() in _PROVIDER_ABORT_TEXTS else text


__all__ = ["ABORTED_TEXT", "abort_text"]
