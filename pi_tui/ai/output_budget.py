"""The default output-token request, fitted to what the context window leaves free.

Most servers count the prompt and the reply against one window and reject a request whose
``prompt + max_tokens`` exceeds it (vLLM: "This model's maximum context length is 131072 tokens. However, you
requested 65536 output tokens and your prompt contains at least 65537 input tokens"; pi issues #4614, #4675,
#5595, #10497). pi 0.73.1 always asked for ``min(model.max_tokens, 32000)``: once the session grew past
``context_window - that``, every request was rejected, and for a local model whose output limit is its whole
window the first long prompt already was. pi fixed it in 0.75.0/0.75.4/0.80.3/1.1.0/1.5.1; pi-tui's rule:

* the input is estimated: the last successful reply's reported usage (input + cache + output) for everything up
  to it, plus 1 token per :data:`CHARS_PER_TOKEN` characters (:data:`IMAGE_TOKENS` per image) for the system
  prompt, the tool schemas and the messages after it (all of it when no usage is known);
* :data:`INPUT_MARGIN` of that estimate is kept spare, because the server's tokenizer may count more;
* the default request is ``min(model.max_tokens, 32000, context_window - estimate * (1 + margin))``, never below
  :data:`MIN_OUTPUT_TOKENS` (a prompt that no longer fits is an overflow: the server says so and pi-tui compacts).

A ``max_tokens`` the caller set explicitly is sent as given (the caller's choice, as in pi).
"""

from __future__ import annotations

import json
import math

from .types import AssistantMessage, Context, ImageContent, Model, TextContent, ThinkingContent, ToolCall

CHARS_PER_TOKEN = 3.5
"""Characters per token for the input estimate (pi 1.1.0 lowered it from 4 to 3.5: fewer rejected requests)."""

IMAGE_TOKENS = 1200
"""Estimated tokens of one image in the prompt."""

INPUT_MARGIN = 0.15
"""Share of the estimated input kept unused (pi 1.5.1: OpenRouter's tokenizer counted several percent more)."""

DEFAULT_MAX_TOKENS_CAP = 32000
"""Upper bound of the default output request (pi-reference §1.8)."""

MIN_OUTPUT_TOKENS = 1024
"""The default request never goes below this."""


def _block_chars(block: object) -> tuple[int, int]:
    """``(characters, images)`` of one content block."""
    if isinstance(block, TextContent):
        return len(block.text), 0
    if isinstance(block, ThinkingContent):
        return len(block.thinking), 0
    if isinstance(block, ImageContent):
        return 0, 1
    if isinstance(block, ToolCall):
        return len(block.name) + len(json.dumps(block.arguments, ensure_ascii=False)), 0
    return 0, 0


def _message_tokens(message: object) -> int:
    """Estimated tokens of one message (text, thinking, tool calls, images)."""
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return math.ceil(len(content) / CHARS_PER_TOKEN)
    chars = images = 0
    for block in content:
        c, i = _block_chars(block)
        chars += c
        images += i
    return math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS


def _reported_tokens(message: AssistantMessage) -> int:
    """Tokens the provider reported for the context up to and including ``message`` (0 when unknown)."""
    if message.stop_reason in ("error", "aborted"):
        return 0
    u = message.usage
    return u.input + u.cache_read + u.cache_write + u.output


def estimate_input_tokens(context: Context) -> int:
    """Estimated input tokens of a request for ``context`` (rule in the module docstring)."""
    fixed = len(context.system_prompt or "")
    for tool in context.tools or []:
        fixed += len(tool.name) + len(tool.description) + len(json.dumps(tool.parameters, ensure_ascii=False))
    total = math.ceil(fixed / CHARS_PER_TOKEN)
    messages = context.messages
    anchor = -1
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if isinstance(message, AssistantMessage) and _reported_tokens(message) > 0:
            anchor = index
            break
    if anchor >= 0:
        reported = _reported_tokens(messages[anchor])  # type: ignore[arg-type]
        # The reported input already includes the system prompt and the tools.
        total = max(reported, total)
    total += sum(_message_tokens(m) for m in messages[anchor + 1 :])
    return total


def window_room(model: Model, context: Context | None) -> int | None:
    """Output tokens the window leaves after the estimated input and its margin; None if it is unknown."""
    if context is None or model.context_window <= 0:
        return None
    estimate = estimate_input_tokens(context)
    return model.context_window - math.ceil(estimate * (1 + INPUT_MARGIN))


def default_max_tokens(model: Model, context: Context | None) -> int | None:
    """The default output request for ``model`` and ``context`` (rule in the module docstring).

    None when ``model.max_tokens`` is not positive (send no limit, as pi). Without a context the window is not
    considered: ``min(model.max_tokens, 32000)``.
    """
    if model.max_tokens <= 0:
        return None
    cap = min(model.max_tokens, DEFAULT_MAX_TOKENS_CAP)
    room = window_room(model, context)
    if room is not None and room < cap:
        cap = max(room, min(cap, MIN_OUTPUT_TOKENS))
    return cap


def fit_output_to_window(model: Model, context: Context | None, max_tokens: int) -> int:
    """``max_tokens`` lowered to the window's room (never below :data:`MIN_OUTPUT_TOKENS`, or below itself if
    smaller). Used after budget thinking raised a defaulted request by the thinking budget."""
    room = window_room(model, context)
    if room is None or room >= max_tokens:
        return max_tokens
    return max(room, min(max_tokens, MIN_OUTPUT_TOKENS))


__all__ = [
    "CHARS_PER_TOKEN",
    "DEFAULT_MAX_TOKENS_CAP",
    "IMAGE_TOKENS",
    "INPUT_MARGIN",
    "MIN_OUTPUT_TOKENS",
    "default_max_tokens",
    "estimate_input_tokens",
    "fit_output_to_window",
    "window_room",
]
