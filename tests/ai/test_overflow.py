"""Context overflow detection (pi-reference §1.19, §4.2 overflow.test.ts)."""

from __future__ import annotations

import pytest

from pi_tui.ai.overflow import OVERFLOW_PATTERNS, is_context_overflow
from pi_tui.ai.types import AssistantMessage, Usage


def _error(text: str) -> AssistantMessage:
    return AssistantMessage(stop_reason="error", error_message=text)


@pytest.mark.parametrize(
    "text",
    [
        "prompt too long; exceeded max context length by 1543 tokens",  # Ollama
        "prompt too long; exceeded context length",
        '400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"}}',
        '413 {"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}',
        "Your input exceeds the context window of this model",
        "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)",
        "This model's maximum prompt length is 131072 but the request contains 537812 tokens",
        "Please reduce the length of the messages or completion.",
        "This endpoint's maximum context length is 200000 tokens. However, you requested about 300000 tokens",
        "prompt token count of 130001 exceeds the limit of 128000",
        "the request exceeds the available context size, try increasing it",
        "Trying to keep the first 5000 tokens when context the overflows. However, the model is loaded with context length of 4096 which is greater than the context length",
        "invalid params, context window exceeds limit (2013)",
        "Your request exceeded model token limit: 262144",
        "Prompt contains 140000 tokens, too large for model with 131072 maximum context length",
        "Provider finish_reason: model_context_window_exceeded",
        "context_length_exceeded",
        "Context length exceeded",
        "Input is too long for requested model.",
        "token limit exceeded",
        "PROMPT IS TOO LONG",
    ],
)
def test_overflow_error_texts(text: str) -> None:
    assert is_context_overflow(_error(text)) is True


@pytest.mark.parametrize(
    "text",
    [
        "model 'llama3' not found, try pulling it first",  # generic Ollama error
        "Throttling error: Too many tokens, please wait before trying again.",  # Bedrock ThrottlingException
        "Service unavailable: The service is temporarily unable to handle the request (too many tokens)",
        "Rate limit reached for requests; token limit exceeded",
        '429 {"error":{"message":"Too many requests"}}',
        "429 status code (no body)",
        "500 status code (no body)",
        "Connection error.",
        "",
    ],
)
def test_non_overflow_error_texts(text: str) -> None:
    assert is_context_overflow(_error(text)) is False


def test_overflow_text_only_counts_on_error_stop() -> None:
    msg = AssistantMessage(stop_reason="stop", error_message="prompt is too long")
    assert is_context_overflow(msg) is False
    assert (
        is_context_overflow(AssistantMessage(stop_reason="aborted", error_message="prompt is too long"))
        is False
    )


def test_silent_overflow_on_stop() -> None:
    msg = AssistantMessage(stop_reason="stop", usage=Usage(input=190_000, cache_read=20_000, output=10))
    assert is_context_overflow(msg, 200_000) is True
    assert is_context_overflow(msg, 210_000) is False  # equal is not more
    assert is_context_overflow(msg) is False  # no window → no check


def test_length_with_zero_output_on_full_window_is_overflow() -> None:
    xiaomi = AssistantMessage(stop_reason="length", usage=Usage(input=99_000, output=0))
    assert is_context_overflow(xiaomi, 100_000) is True
    assert (
        is_context_overflow(AssistantMessage(stop_reason="length", usage=Usage(input=98_999)), 100_000)
        is False
    )


def test_normal_length_stop_is_not_overflow() -> None:
    msg = AssistantMessage(stop_reason="length", usage=Usage(input=99_500, output=500))
    assert is_context_overflow(msg, 100_000) is False
    assert (
        is_context_overflow(AssistantMessage(stop_reason="length", usage=Usage(input=10, output=0)), 100_000)
        is False
    )


def test_accepts_pi_json_dicts() -> None:
    assert is_context_overflow({"stopReason": "error", "errorMessage": "context_length_exceeded"}) is True
    assert is_context_overflow({"stopReason": "stop", "usage": {"input": 10, "cacheRead": 5}}, 12) is True


def test_pattern_count_matches_pi() -> None:
    """pi 0.73.1's 20 patterns, less Cerebras' bodyless 400/413 (now checked by provider: BODYLESS_OVERFLOW), plus
    the three wordings pi added by 1.6.0 (tests/regressions/test_retry_classification.py)."""
    assert len(OVERFLOW_PATTERNS) == 20 - 1 + 3
