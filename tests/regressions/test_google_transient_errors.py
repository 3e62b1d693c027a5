"""Transient Google Generative AI / Vertex AI errors are auto-retried (pi 0.84.0, earendil-works/pi#7471).

Google reports failures as ``{"error": {"code", "message", "status"}}`` with gRPC status names; mid-stream the
HTTP code may be missing. Real cases: 503 "The model is overloaded. Please try again later." (UNAVAILABLE),
500 "An internal error has occurred" (INTERNAL), 504 "Deadline expired" (DEADLINE_EXCEEDED), 429
RESOURCE_EXHAUSTED per-minute limits, and 499 CANCELLED, which Google clients retry (livekit/agents#4637).
A quota or billing wording still wins.
"""

from __future__ import annotations

import json

import pytest

from pi_tui.coding.retry import is_retryable_error


def _google(code: int | None, status: str, message: str) -> str:
    error: dict[str, object] = {"message": message, "status": status}
    if code is not None:
        error["code"] = code
    return json.dumps({"error": error})


@pytest.mark.parametrize("text", [
    "503 " + _google(503, "UNAVAILABLE", "The model is overloaded. Please try again later."),
    "500 " + _google(500, "INTERNAL", "An internal error has occurred."),
    _google(None, "INTERNAL", "Internal error encountered."),
    _google(None, "UNAVAILABLE", "The service is currently unavailable."),
    _google(None, "DEADLINE_EXCEEDED", "Deadline expired before operation could complete."),
    "499 " + _google(499, "CANCELLED", "The operation was cancelled."),
    _google(None, "ABORTED", "The operation was aborted."),
    "429 " + _google(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."),
])
def test_transient_google_errors_are_retried(text: str) -> None:
    assert is_retryable_error({"stopReason": "error", "errorMessage": text})


@pytest.mark.parametrize("text", [
    "400 " + _google(400, "INVALID_ARGUMENT", "Request contains an invalid argument."),
    "403 " + _google(403, "PERMISSION_DENIED", "Permission denied on resource project."),
    "429 " + _google(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing details."),
])
def test_permanent_google_errors_are_not(text: str) -> None:
    assert not is_retryable_error({"stopReason": "error", "errorMessage": text})
