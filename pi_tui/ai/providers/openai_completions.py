"""The ``openai-completions`` provider: OpenAI Chat Completions and every OpenAI-compatible server.

Wire format and consumption rules: pi-reference §7.1; compat flags §1.9 (:mod:`.openai_compat`); error and
abort handling §1.18 (:func:`._provider_run.run_provider`). ``stream(model, context, options)`` takes provider
options (``options.extra`` may hold ``tool_choice`` and ``reasoning_effort``); ``stream_simple`` maps a
provider-neutral reasoning level. Both return an :class:`AssistantMessageEventStream` at once and encode
every failure in it.

Beyond pi 0.73 (cases/README.md 1, 5, 7, 8, 18):

* Tool-call deltas are keyed by ``index``, but a NEW non-empty ``id`` at a known index (Ollama sends
  ``index: 0`` for every call) starts a new call; without ``index``, a new id starts a new call and any other
  delta continues the active call; a delta whose arguments start a fresh JSON object while the active call's
  arguments are already complete JSON, or that names a different function, starts a new call (calls with
  neither id nor index). Argument-only deltas (no id, no name) never open a call while one is active, and
  an id arriving for a call opened without one fills it in. A call that never got an id gets a made-up one.
* ``stop_reason`` is ``length`` when ``finish_reason`` is ``length`` or ``completion_tokens`` equals the
  requested max tokens, whatever else ``finish_reason`` says (routers rewrite it to ``tool_calls``).
* A tool call whose final arguments do not parse strictly (after repair), and the last tool call of a
  ``length`` stop, get a diagnostic ``{"type": "tool_call_arguments_invalid", "timestamp", "details":
  {"toolCallId", "reason": "truncated" | "invalid_json"}}``; ``arguments`` stays the best-effort dict.
* Usage also reads Moonshot's top-level ``usage.cached_tokens``.
* A ``stop`` finish next to tool calls becomes ``toolUse`` (Ollama sends ``stop``); pi keeps ``stop``.

As in pi 0.73.1: the ``start`` event's ``partial`` is a snapshot (empty content, zero usage, no
``responseId``), block events alias the live message. An abort before the response gives ``Request was
aborted.`` (the OpenAI SDK's text); an abort while the body streams first pushes ``*_end`` for every block
(tool-call arguments parsed), then fails with ``Request was aborted``, partial content and usage kept
(pi traces, observations 8 and 9).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from ..abort import AbortError
from ..env_keys import get_env_api_key
from ..events import AssistantMessageEventStream, StartEvent
from ..models import clamp_thinking_level
from ..options import SimpleStreamOptions, StreamOptions
from ..simple_options import build_base_options
from ..types import AssistantMessage, Context, Model
from ._http import SDK_ABORT_MESSAGE, STREAM_ABORT_MESSAGE, ProviderHTTPError, open_sse
from ._openai_completions_convert import (
    build_headers,
    build_params,
    convert_messages,
    convert_tools,
    is_local_base_url,
    resolve_base_url,
    resolve_cache_retention,
)
from ._openai_completions_parse import (
    ChunkConsumer,
    ProviderStreamError,
    map_finish_reason,
    openrouter_error_detail,
    parse_chunk_usage,
)
from ._openrouter_reasoning import rejects_disabled_reasoning, without_disabled_reasoning
from ._provider_run import run_provider
from ._stream_blocks import snapshot
from .openai_compat import resolve_completions_compat

# ---------------------------------------------------------------- entry points


def _api_key(model: Model, options: StreamOptions | None) -> str | None:
    key = (options.api_key if options is not None else None) or get_env_api_key(model.provider)
    return key or None


def stream(
    model: Model, context: Context, options: StreamOptions | None = None
) -> AssistantMessageEventStream:
    """Stream one Chat Completions reply (pi-reference §7.1). Failures are ``error`` events, never raised.

    API key: ``options.api_key``, else the provider's env var; loopback base URLs need none; otherwise the
    error is ``No API key for provider: <provider>``.
    """

    async def produce(output: AssistantMessage, events: AssistantMessageEventStream) -> None:
        api_key = _api_key(model, options)
        if not api_key and not is_local_base_url(model.base_url):
            raise ValueError(f"No API key for provider: {model.provider}")
        compat = resolve_completions_compat(model)
        retention = resolve_cache_retention(options.cache_retention if options else None)
        session = options.session_id if options is not None and retention != "none" else None
        base_url = resolve_base_url(model)
        headers = build_headers(model, context, api_key, options, compat, session)
        body = build_params(model, context, options, compat, retention)
        consumer = ChunkConsumer(model, output, events, options.max_tokens if options else None)
        url = base_url.rstrip("/") + "/chat/completions"
        try:
            await _consume(url, headers, body, consumer, output, events)
        except ProviderHTTPError as exc:
            retry_body = without_disabled_reasoning(body) if rejects_disabled_reasoning(exc.status, exc.body) else None
            if retry_body is None:
                raise
            # An always-reasoning model refused `effort: "none"`: ask again without the field (pi 0.84.4).
            await _consume(url, headers, retry_body, consumer, output, events)

    async def _consume(url: str, headers: dict[str, str], body: dict[str, Any], consumer: ChunkConsumer,
                       output: AssistantMessage, events: AssistantMessageEventStream) -> None:
        signal = options.signal if options is not None else None
        async with open_sse(url=url, headers=headers, body=body, model=model, options=options) as sse:
            events.push(StartEvent(partial=snapshot(output)))
            saw_done = False
            try:
                async for ev in sse:
                    data = ev.data
                    if data.strip() == "[DONE]":
                        saw_done = True
                        break
                    try:
                        chunk = json.loads(data)
                    except ValueError as exc:
                        raise ProviderStreamError(
                            f"Could not parse SSE data as JSON: {exc}; data={data[:500]}"
                        ) from exc
                    if ev.event == "error":
                        err = chunk.get("error", chunk) if isinstance(chunk, dict) else chunk
                        msg = err.get("message") if isinstance(err, dict) else None
                        raise ProviderStreamError(msg if isinstance(msg, str) and msg else json.dumps(err), err)
                    consumer.consume(chunk)
            except (asyncio.CancelledError, AbortError):
                if signal is not None and signal.aborted:
                    consumer.end_blocks()  # aborted mid-stream: open blocks still get their *_end (observation 8)
                raise
            if not saw_done and consumer.finish_reason is None:
                # The connection closed with neither a finish_reason nor [DONE]: the reply was cut off, not finished
                # (a dropped proxy or a crashed server). An error keeps the partial text and is retried.
                raise ProviderStreamError(
                    "The stream ended without a finish_reason or [DONE]: the reply was cut off"
                )
        consumer.finish()

    return run_provider(
        model,
        options,
        produce,
        error_stop_message="Provider returned an error stop reason",
        error_detail=openrouter_error_detail,
        abort_messages=(SDK_ABORT_MESSAGE, STREAM_ABORT_MESSAGE),
    )


def stream_simple(
    model: Model, context: Context, options: SimpleStreamOptions | None = None
) -> AssistantMessageEventStream:
    """``stream`` with a provider-neutral reasoning level (clamped to the model, ``off`` = none; §1.8)."""
    api_key = _api_key(model, options)
    base = build_base_options(model, options, api_key, context)
    level = (
        clamp_thinking_level(model, options.reasoning) if options is not None and options.reasoning else None
    )
    extra = dict(base.extra)
    extra.pop("reasoning_effort", None)
    if level and level != "off":
        extra["reasoning_effort"] = level
    base.extra = extra
    return stream(model, context, base)


__all__ = [
    "ChunkConsumer",
    "ProviderStreamError",
    "build_headers",
    "build_params",
    "convert_messages",
    "convert_tools",
    "is_local_base_url",
    "map_finish_reason",
    "parse_chunk_usage",
    "stream",
    "stream_simple",
]
