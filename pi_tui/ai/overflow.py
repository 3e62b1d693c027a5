"""Context-overflow detection on assistant messages (pi-reference §1.19).

:func:`is_context_overflow` is true when the provider rejected the prompt as too long (error text matches one
of :data:`OVERFLOW_PATTERNS` and none of :data:`NON_OVERFLOW_PATTERNS`), or — given the model's context
window — when the provider silently accepted an overflowing prompt (z.ai: ``stop`` with more input tokens than
the window) or stopped for length without output on a full window (Xiaomi). Patterns are pi's, verbatim,
case-insensitive.
"""

from __future__ import annotations

import re
from typing import Any

OVERFLOW_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"prompt is too long",  # Anthropic token overflow
        r"request_too_large",  # Anthropic request byte-size overflow (HTTP 413)
        r"input is too long for requested model",  # Amazon Bedrock
        r"exceeds the context window",  # OpenAI (Completions & Responses)
        r"input token count.*exceeds the maximum",  # Google Gemini
        r"maximum prompt length is \d+",  # xAI
        r"reduce the length of the messages",  # Groq
        r"maximum context length is \d+ tokens",  # OpenRouter
        r"maximum context length \(\d+\)",  # vLLM-style parenthesised limit (pi 0.79.2)
        r"maximum allowed input length",  # OpenRouter / Poolside (pi 0.76.0)
        r"prompt has \d+ tokens, but the configured context size is \d+",  # DS4 server (pi 0.80.4)
        r"exceeds the limit of \d+",  # GitHub Copilot
        r"exceeds the available context size",  # llama.cpp server
        r"greater than the context length",  # LM Studio
        r"context window exceeds limit",  # MiniMax
        r"exceeded model token limit",  # Kimi For Coding
        r"too large for model with \d+ maximum context length",  # Mistral
        r"model_context_window_exceeded",  # z.ai finish_reason surfaced as error text
        r"prompt too long; exceeded (?:max )?context length",  # Ollama
        r"context[_ ]length[_ ]exceeded",  # generic
        r"too many tokens",  # generic
        r"token limit exceeded",  # generic
    )
)
"""Error texts that mean "the prompt does not fit" (pi-reference §1.19, with the wordings pi added up to 1.6.0)."""

BODYLESS_OVERFLOW = re.compile(r"^4(?:00|13)\s*(?:status code)?\s*\(no body\)", re.IGNORECASE)
"""Cerebras answers an overflowing prompt with a 400/413 and no body. Only Cerebras: from any other provider a
bodyless 400 is some other rejection (pi 0.86.0)."""

NON_OVERFLOW_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^(Throttling error|Service unavailable):",  # Bedrock non-overflow errors
        r"rate limit",
        r"too many requests",
    )
)
"""Error texts that are never an overflow even if an overflow pattern also matches."""


def _field(message: Any, name: str, alias: str) -> Any:
    if isinstance(message, dict):
        return message.get(alias, message.get(name))
    return getattr(message, name, None)


def is_overflow_error_text(error_message: str | None) -> bool:
    """True when ``error_message`` matches an overflow pattern and no non-overflow pattern."""
    if not error_message:
        return False
    if any(p.search(error_message) for p in NON_OVERFLOW_PATTERNS):
        return False
    return any(p.search(error_message) for p in OVERFLOW_PATTERNS)


def is_context_overflow(message: Any, context_window: int | None = None) -> bool:
    """Whether the assistant ``message`` (an :class:`~pi_tui.ai.types.AssistantMessage` or its pi JSON) shows
    a context overflow (pi-reference §1.19).

    1. ``stop_reason == "error"`` and :func:`is_overflow_error_text` of ``error_message``;
    2. ``context_window`` given, ``stop_reason == "stop"`` and ``usage.input + usage.cache_read > context_window``;
    3. ``context_window`` given, ``stop_reason == "length"``, ``usage.output == 0`` and
       ``usage.input + usage.cache_read >= 0.99 * context_window``;
    4. (pi-tui) ``stop_reason == "length"`` with a ``context_window_exceeded`` diagnostic: the provider said
       ``model_context_window_exceeded`` (Anthropic, z.ai, Bedrock; DIFFERENCES.md P4).
    """
    stop_reason = _field(message, "stop_reason", "stopReason")
    error_text = _field(message, "error_message", "errorMessage")
    if (
        stop_reason == "error"
        and _field(message, "provider", "provider") == "cerebras"
        and isinstance(error_text, str)
        and BODYLESS_OVERFLOW.search(error_text)
    ):
        return True
    if stop_reason == "error" and is_overflow_error_text(error_text):
        return True
    if stop_reason == "length" and _has_window_exceeded(message):
        return True
    if not context_window:
        return False
    usage = _field(message, "usage", "usage")
    if usage is None:
        return False
    input_tokens = (_field(usage, "input", "input") or 0) + (_field(usage, "cache_read", "cacheRead") or 0)
    if stop_reason == "stop" and input_tokens > context_window:
        return True
    output = _field(usage, "output", "output") or 0
    return stop_reason == "length" and output == 0 and input_tokens >= context_window * 0.99


def _has_window_exceeded(message: Any) -> bool:
    diagnostics = _field(message, "diagnostics", "diagnostics") or []
    for d in diagnostics if isinstance(diagnostics, list) else []:
        kind = d.get("type") if isinstance(d, dict) else getattr(d, "type", None)
        if kind == "context_window_exceeded":
            return True
    return False
