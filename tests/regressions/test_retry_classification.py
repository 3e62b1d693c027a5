"""Auto-retry classification: the transient failures pi learnt to retry after 0.73.1, and the ones it stopped
retrying (tests/conformance/PI_FIXES.md, "Retry"). Each message is the wording of a real report or of the error
text pi-tui's own providers produce for that failure."""

from __future__ import annotations

import pytest

from pi_tui.coding.retry import RetrySettings, is_retryable_error, retry_delay_ms


def _err(text: str) -> dict[str, str]:
    return {"stopReason": "error", "errorMessage": text}


@pytest.mark.parametrize(
    "text",
    [
        "Connection closed.",  # pi 1.6.0
        "read ECONNRESET",  # pi 1.6.0: bare socket error codes
        "write EPIPE",
        "connect ETIMEDOUT 10.0.0.1:443",
        "getaddrinfo ENOTFOUND api.example.com",  # pi 0.82.0: DNS failures
        "getaddrinfo EAI_AGAIN api.anthropic.com",
        "The provider stream was cut short after the reply had begun",  # pi 1.5.1
        "Unable to forward upstream stream",  # pi 1.3.0: gateways
        "The service is temporarily unavailable",  # pi 1.3.0
        "stream disconnected before completion: error sending request",  # pi 1.4.0: Codex CLI proxies
        "520 <html>Cloudflare: web server is returning an unknown error</html>",  # pi 0.86.0
        "524 A timeout occurred",  # pi 0.80.4
        "8 RESOURCE_EXHAUSTED: ResourceExhausted: too many concurrent requests",  # pi 0.80.4 (gRPC, NVIDIA NIM)
        "The socket connection was closed unexpectedly.",  # pi 0.80.4 (Bun)
        "An error occurred while processing your request. Please retry your request.",  # pi 0.80.3
        "upstream request buffer failure",  # pi 0.84.2
        "HTTP 503.",
        "Connection error: peer closed connection without sending complete message body (incomplete chunked read)",
    ],
)
def test_transient_failures_are_retried(text: str) -> None:
    assert is_retryable_error(_err(text)), text


@pytest.mark.parametrize(
    "text",
    [
        # pi 1.4.0: digits inside request ids or byte counts are not HTTP statuses
        "400 invalid_request_error: request req_01J5003XYZ rejected",
        "400 Bad Request: body of 1500123 bytes is not valid JSON",
        "401 invalid x-api-key (request id 4290abc)",
        # pi 0.76.0 / 1.5.0: quota, billing and usage caps are not fixed by waiting a few seconds
        "429 You exceeded your current quota, please check your plan and billing details (insufficient_quota)",
        '429 {"error":{"code":"1308","message":"Usage limit reached for 5 hour. Your limit will reset at 2026-05-01"}}',
        "400 Your credit balance is too low to access the Anthropic API.",
    ],
)
def test_permanent_failures_are_not_retried(text: str) -> None:
    assert not is_retryable_error(_err(text)), text


def test_backoff_is_capped_at_sixty_seconds() -> None:
    """pi 0.86.0 (retry.maxAgentDelayMs): a long retry run never waits more than 60 s between attempts."""
    settings = RetrySettings(max_retries=10)
    delays = [retry_delay_ms(_err("503"), n, settings) for n in range(1, 11)]
    assert delays[:5] == [2000, 4000, 8000, 16000, 32000]
    assert delays[5:] == [60000] * 5


def test_provider_level_retry_skips_quota_errors() -> None:
    """pi 0.76.0: an HTTP 429 that reports an exhausted quota is not retried by the provider's own retry loop."""
    from pi_tui.ai.providers._http import is_retryable_status

    assert is_retryable_status(429, '{"error":{"message":"Rate limit reached for requests"}}')
    assert is_retryable_status(503, "")
    assert not is_retryable_status(429, '{"error":{"type":"insufficient_quota","message":"You exceeded your current quota"}}')


def test_unparseable_retry_after_date_falls_back_to_backoff() -> None:
    """pi 0.99.2: a Retry-After with an unparseable date is ignored (exponential back-off), not a 0 s retry."""
    from pi_tui.ai.providers._http import parse_retry_after_ms

    assert parse_retry_after_ms({"retry-after": "Someday, 99 Foo 20xx"}) is None
    assert parse_retry_after_ms({"retry-after": "3"}) == 3000


@pytest.mark.parametrize(
    "text",
    [
        "The upstream provider returned an error",  # pi 1.2.0 (gateways)
        '503 {"error":{"code":"server_busy","message":"Server busy"}}',  # pi 1.1.0
        "Our servers are currently busy. Please try later.",
        "Selected model is at capacity. Please try a different model.",  # pi 1.0.1
        "Provider finish_reason: error",  # pi 1.1.0 (Mistral)
    ],
)
def test_gateway_and_capacity_wordings_are_retried(text: str) -> None:
    assert is_retryable_error(_err(text)), text


def _overflow(text: str, provider: str = "openai") -> dict[str, str]:
    return {"stopReason": "error", "errorMessage": text, "provider": provider}


@pytest.mark.parametrize(
    "text",
    [
        "This model's maximum context length (32768) was exceeded",  # pi 0.79.2 (parenthesised limit)
        "Input exceeds the maximum allowed input length of 131072 tokens",  # pi 0.76.0 (OpenRouter/Poolside)
        "Prompt has 40000 tokens, but the configured context size is 32768 tokens",  # pi 0.80.4 (DS4)
    ],
)
def test_more_overflow_wordings(text: str) -> None:
    """An overflow is compacted and retried, never retried as is: these wordings were not recognised."""
    from pi_tui.ai.overflow import is_context_overflow

    assert is_context_overflow(_overflow(text)), text
    assert not is_retryable_error(_overflow(text)), text


def test_bodyless_400_is_an_overflow_only_from_cerebras() -> None:
    """pi 0.86.0: only Cerebras answers an overflow with a bodyless 400/413; from anyone else it is not one."""
    from pi_tui.ai.overflow import is_context_overflow

    for text in ("400 status code (no body)", "413 (no body)"):
        assert is_context_overflow(_overflow(text, "cerebras")), text
        assert not is_context_overflow(_overflow(text, "openai")), text
