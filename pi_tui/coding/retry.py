"""Auto-retry classification and back-off (pi-reference §3.10; cases 10 and 14).

A failed assistant message is retryable when ``stop_reason == "error"``, it has an ``error_message``, it is
not a context overflow, and the message matches pi's transient-error pattern. The delay is pi's
``base_delay_ms * 2**(attempt-1)`` unless the provider recorded a server-requested delay
(``Retry-After``) in ``assistant.diagnostics`` as ``{"type": "http_error", "details": {"retryAfterMs"}}``:
then that delay is used (beyond pi, case 14). A requested delay above ``max_delay_ms`` is not slept: the
retry is refused and the error surfaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pi_tui.ai.quota_errors import QUOTA_ERROR_PATTERN

RETRYABLE_PATTERN = re.compile(
    r"overloaded|provider.?returned.?error|rate.?limit|too many requests|"
    # HTTP statuses only as whole numbers: digits inside request ids or byte counts are not a status (pi 1.4.0)
    r"(?<![\w.-])(?:429|50[0-4]|52[0-4]|529)(?![\w-])|"
    r"service.?unavailable|server.?error|internal.?error|network.?error|connection.?error|"
    r"connection.?refused|connection.?lost|connection.?closed|connection.?reset|websocket.?closed|websocket.?error|"
    r"other side closed|fetch failed|upstream.?connect|reset before headers|socket hang up|ended without|"
    r"http2 request did not get a response|timed? out|timeout|terminated|retry delay|"
    # pi 0.74.1-1.6.0: socket error codes, DNS failures, gateways, early stream ends, explicit "please retry"
    r"\be(?:connreset|pipe|timedout|connrefused|connaborted|notfound|ai_again|hostunreach|netunreach)\b|"
    r"getaddrinfo|socket connection was closed|cut short|stream disconnected|"
    r"unable to forward upstream|temporarily unavailable|resource.?exhausted|bad gateway|gateway time|"
    r"upstream request buffer|(?:please|try) (?:again|retry)|retry (?:the|your) request|"
    # pi 1.0.1-1.2.0: gateway and capacity wordings, Mistral's finish_reason "error"
    r"provider.{0,4}returned.{0,4}error|server_busy|servers? (?:are|is) (?:currently )?(?:busy|overloaded)|"
    r"at capacity|finish_reason:? ?\"?error|"
    # Google's JSON error statuses for transient failures (pi 0.84.0), with or without the HTTP code
    r"\"status\": ?\"(?:UNAVAILABLE|INTERNAL|DEADLINE_EXCEEDED|ABORTED|CANCELLED)\"",
    re.IGNORECASE,
)
"""pi 0.73's transient-error pattern (pi-reference §3.10), case-insensitive, with the classes pi added up to 1.6.0
(tests/conformance/PI_FIXES.md, "Retry"): status codes match only as whole numbers."""

NOT_RETRYABLE_PATTERN = QUOTA_ERROR_PATTERN
"""Rate-limit-looking errors that no retry can fix until the user acts (quota, billing, usage caps such as
Zhipu's code 1308): pi 0.76.0 and 1.5.0 stopped retrying them. The one list of :mod:`pi_tui.ai.quota_errors`,
also used by the provider's HTTP retry."""

MAX_BACKOFF_DELAY_MS = 60000
"""Cap of pi's exponential back-off (``retry.maxAgentDelayMs``, 60 s by default since pi 0.86.0)."""


@dataclass
class RetrySettings:
    """``retry.*`` settings: ``enabled`` (True), ``max_retries`` (3), ``base_delay_ms`` (2000),
    ``max_delay_ms``: largest server-requested delay honoured (60000 ms, pi's provider cap)."""

    enabled: bool = True
    max_retries: int = 3
    base_delay_ms: int = 2000
    max_delay_ms: int = 60000


def _get(message: Any, name: str, alias: str) -> Any:
    if isinstance(message, dict):
        return message.get(alias, message.get(name))
    return getattr(message, name, None)


def _is_overflow(message: Any, context_window: int | None) -> bool:
    try:
        from pi_tui.ai.overflow import is_context_overflow
    except ImportError:  # overflow detection not available: fall back to the common wordings
        text = str(_get(message, "error_message", "errorMessage") or "").lower()
        return any(
            needle in text
            for needle in ("context length", "context window", "prompt is too long", "maximum context", "too many tokens")
        )
    return bool(is_context_overflow(message, context_window))


def is_retryable_error(message: Any, context_window: int | None = None) -> bool:
    """True when an assistant message is a transient provider failure worth retrying (pi-reference §3.10)."""
    if _get(message, "stop_reason", "stopReason") != "error":
        return False
    error = _get(message, "error_message", "errorMessage")
    if not error:
        return False
    if _is_overflow(message, context_window):
        return False
    text = str(error)
    if NOT_RETRYABLE_PATTERN.search(text):
        return False
    return RETRYABLE_PATTERN.search(text) is not None


def server_retry_after_ms(message: Any) -> int | None:
    """The last ``retryAfterMs`` the provider recorded in ``diagnostics`` (``http_error`` entries), or None."""
    diagnostics = _get(message, "diagnostics", "diagnostics") or []
    found: int | None = None
    for entry in diagnostics:
        if not isinstance(entry, dict) or entry.get("type") != "http_error":
            continue
        details = entry.get("details") or {}
        value = details.get("retryAfterMs") if isinstance(details, dict) else None
        if isinstance(value, (int, float)) and value >= 0:
            found = int(value)
    return found


def retry_delay_ms(message: Any, attempt: int, settings: RetrySettings) -> int | None:
    """Delay before retry ``attempt`` (1-based), in ms; ``None`` when the server asks for more than the cap.

    Server ``Retry-After`` (from diagnostics) wins over pi's exponential back-off (case 14). The back-off itself
    is capped at ``MAX_BACKOFF_DELAY_MS`` (pi 0.86.0), so a high ``max_retries`` never waits minutes.
    """
    requested = server_retry_after_ms(message)
    if requested is not None:
        if settings.max_delay_ms > 0 and requested > settings.max_delay_ms:
            return None
        return requested
    return int(min(settings.base_delay_ms * (2 ** (attempt - 1)), MAX_BACKOFF_DELAY_MS))
