"""The ``anthropic-messages`` provider over httpx + SSE, no vendor SDK (pi-reference §7.2, §1.18).

``stream(model, context, options)`` sends ``POST {baseUrl}/v1/messages`` (body and headers from
:mod:`._anthropic_convert`) and turns the SSE reply into AssistantMessageEvents
(:mod:`._anthropic_parse`). ``start`` is pushed once the response arrived, when the SSE ``message_start`` has
been applied (its snapshot carries the initial usage, as pi's ``message_start`` does); HTTP failures before
that give only an ``error`` event whose message is ``<status> <body>``. Every failure, an abort included, is
one terminal ``error`` event (``stop_reason`` "aborted" when the signal fired), keeping the partial content
and usage (:func:`._provider_run.run_provider`). Abort texts as in pi 0.73.1: ``Request was aborted.`` before the
response, ``This operation was aborted`` while the body streams (open blocks get no ``*_end``).

A reply that ends with ``pause_turn`` is not the end of the turn: it is sent back as the assistant's turn so
far and the continuation streams into the same message (new blocks appended; at most
:data:`MAX_PAUSE_CONTINUATIONS` times). pi 0.73.1 ends the turn there (DIFFERENCES.md P4).

``stream_simple(model, context, options)`` maps a provider-neutral reasoning level onto Anthropic thinking:
no level → thinking disabled; adaptive models → ``effort`` (``thinking_level_map`` literal, else
minimal/low→low, medium→medium, high→high, other→high); other models → budget thinking via
:func:`adjust_max_tokens_for_thinking`. Without ``options.api_key`` and an env key it returns a stream with
one error event ``No API key for provider: <provider>``.
"""

from __future__ import annotations

from ..env_keys import get_env_api_key
from ..events import AssistantMessageEventStream
from ..options import SimpleStreamOptions, StreamOptions
from ..output_budget import MIN_OUTPUT_TOKENS, fit_output_to_window
from ..registry import error_stream
from ..simple_options import adjust_max_tokens_for_thinking, build_base_options
from ..types import AssistantMessage, Context, Model, TextContent, UsageCost
from ._anthropic_convert import (
    build_headers,
    build_params,
    is_oauth_token,
    messages_url,
    supports_adaptive_thinking,
)
from ._anthropic_parse import AnthropicStreamParser
from ._http import FETCH_ABORT_MESSAGE, SDK_ABORT_MESSAGE, open_sse
from ._provider_run import run_provider
from ._stream_blocks import BlockWriter

API = "anthropic-messages"

ABORT_MESSAGES = (SDK_ABORT_MESSAGE, FETCH_ABORT_MESSAGE)
"""``error_message`` of an aborted request: before the response arrived (the Anthropic SDK's text) and while
the body streams (the fetch ``AbortError`` that ends the pending read; no ``*_end`` for open blocks), as
measured with pi 0.73.1 on Node 20."""


def stream(model: Model, context: Context, options: StreamOptions | None = None) -> AssistantMessageEventStream:
    """Stream one Anthropic Messages reply (see the module docstring). Call inside a running event loop."""
    opts = options if options is not None else StreamOptions()

    async def produce(output: AssistantMessage, events: AssistantMessageEventStream) -> None:
        api_key = opts.api_key or get_env_api_key(model.provider) or ""
        is_oauth = model.provider != "github-copilot" and is_oauth_token(api_key)
        headers = build_headers(model, context, api_key, opts)
        writer = BlockWriter(output, events)
        request_context = context
        earlier_cost = UsageCost()
        for continuation in range(MAX_PAUSE_CONTINUATIONS + 1):
            body = build_params(model, request_context, is_oauth, opts)
            async with open_sse(
                url=messages_url(model), headers=headers, body=body, model=model, options=opts
            ) as sse:
                parser = AnthropicStreamParser(writer, model, context.tools, is_oauth)
                try:
                    async for event in sse:
                        parser.feed(event.event, event.data)
                finally:
                    writer.start()  # the response arrived: ``start`` precedes the terminal event whatever happens
                parser.finish()
            if not parser.paused or continuation == MAX_PAUSE_CONTINUATIONS:
                break
            _add_cost(earlier_cost, output.usage.cost)
            request_context = _continuation_context(context, output)
        _add_cost(output.usage.cost, earlier_cost)

    return run_provider(model, opts, produce, abort_messages=ABORT_MESSAGES)


MAX_PAUSE_CONTINUATIONS = 5
"""How many times one reply ending in ``pause_turn`` is sent back to be continued (laravel/ai#493 and
vellum-assistant#40897 bound it the same way); after that the reply ends as a plain ``stop``."""


def _add_cost(total: UsageCost, more: UsageCost) -> None:
    """``total += more``; the sum is provider-billed (OpenRouter) only when every non-empty part was."""
    if _is_empty(more):
        return
    billed = more.total_from_provider if _is_empty(total) else total.total_from_provider and more.total_from_provider
    total.input += more.input
    total.output += more.output
    total.cache_read += more.cache_read
    total.cache_write += more.cache_write
    total.total += more.total
    total.total_from_provider = True if billed else None


def _is_empty(cost: UsageCost) -> bool:
    return not (cost.input or cost.output or cost.cache_read or cost.cache_write or cost.total)


def _continuation_context(context: Context, output: AssistantMessage) -> Context:
    """``context`` plus the paused reply as the assistant's turn so far (Anthropic's ``pause_turn`` handling).

    The API rejects a final assistant text that ends in whitespace, so the copy's last text is right-stripped
    (and dropped if nothing is left); an empty reply adds nothing, so the request is sent again as it was.
    The streamed message itself is not changed; usage is that of the last request, cost the sum of all.
    """
    paused = output.model_copy(deep=True)
    paused.stop_reason = "stop"
    while paused.content and isinstance(paused.content[-1], TextContent):
        last = paused.content[-1]
        last.text = last.text.rstrip()
        if last.text:
            break
        paused.content.pop()
    if not paused.content:
        return context
    return context.model_copy(update={"messages": [*context.messages, paused]})


def map_thinking_level_to_effort(model: Model, level: str | None) -> str:
    """Adaptive-thinking effort for ``level`` (``thinking_level_map`` literal first)."""
    mapped = (model.thinking_level_map or {}).get(level) if level else None
    if isinstance(mapped, str):
        return mapped
    return {"minimal": "low", "low": "low", "medium": "medium", "high": "high"}.get(level or "", "high")


def stream_simple(
    model: Model, context: Context, options: SimpleStreamOptions | None = None
) -> AssistantMessageEventStream:
    """Stream with a provider-neutral reasoning level (see the module docstring)."""
    api_key = (options.api_key if options else None) or get_env_api_key(model.provider)
    if not api_key:
        return error_stream(model, f"No API key for provider: {model.provider}")
    base = build_base_options(model, options, api_key, context)
    reasoning = options.reasoning if options else None
    if not reasoning:
        base.extra["thinking_enabled"] = False
        return stream(model, context, base)
    if supports_adaptive_thinking(model.id):
        base.extra["thinking_enabled"] = True
        base.extra["effort"] = map_thinking_level_to_effort(model, reasoning)
        return stream(model, context, base)
    explicit = options is not None and options.max_tokens is not None
    max_tokens, budget = adjust_max_tokens_for_thinking(
        base.max_tokens or 0, model.max_tokens, reasoning, options.thinking_budgets if options else None
    )
    if not explicit:
        # The thinking budget rides on top of the default request: keep the sum inside the window too.
        fitted = fit_output_to_window(model, context, max_tokens)
        if fitted < max_tokens:
            max_tokens, budget = fitted, min(budget, max(0, fitted - MIN_OUTPUT_TOKENS))
    base.max_tokens = max_tokens
    base.extra["thinking_enabled"] = True
    base.extra["thinking_budget_tokens"] = budget
    return stream(model, context, base)
