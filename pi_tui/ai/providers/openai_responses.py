"""The ``openai-responses`` provider over httpx + SSE, no vendor SDK (pi-reference §7.3, §1.9, §1.18).

``stream(model, context, options)`` sends ``POST {baseUrl}/responses`` with ``Authorization: Bearer <key>``
and the body ``{model, input, stream: true, store: false, prompt_cache_key?, prompt_cache_retention?,
max_output_tokens?, temperature?, service_tier?, tools?, reasoning?, include?}``:

* ``prompt_cache_key`` = ``options.session_id`` unless cache retention is ``none``; ``prompt_cache_retention``
  = ``"24h"`` for ``long`` retention when ``compat.supportsLongCacheRetention`` (default true).
* with a session id (and retention not ``none``) the headers ``session_id`` (when
  ``compat.sendSessionIdHeader``, default true) and ``x-client-request-id`` are sent; model headers, GitHub
  Copilot dynamic headers, then ``options.headers`` are merged over them (explicit headers win).
* reasoning models: with ``extra["reasoning_effort"]`` or ``extra["reasoning_summary"]`` →
  ``reasoning: {effort (thinking_level_map literal or the level; default "medium"), summary (default
  "auto")}`` and ``include: ["reasoning.encrypted_content"]``; otherwise, except for GitHub Copilot and when
  ``thinking_level_map.off`` is not null, ``reasoning: {effort: map.off or "none"}``.
* ``extra["service_tier"]`` is sent as ``service_tier`` and prices the usage (flex ×0.5, priority ×2).

The reply is read by :class:`._responses_parse.ResponsesStreamParser`; reading stops at the terminal event.
An abort before the response gives ``Request was aborted.`` (the OpenAI SDK's text, as in pi), later
``Request was aborted``; blocks still open then get no ``*_end`` (pi: the SDK stream ends quietly and no
block is closed). ``stream_simple`` clamps the reasoning level to what the model supports (``off`` → no effort). Without an
API key it returns one error event ``No API key for provider: <provider>``.
"""

from __future__ import annotations

import os
from typing import Any

from ..env_keys import get_env_api_key
from ..events import AssistantMessageEventStream
from ..json_parse import parse_json_with_repair
from ..models import clamp_thinking_level
from ..options import SimpleStreamOptions, StreamOptions
from ..registry import error_stream
from ..simple_options import build_base_options
from ..types import AssistantMessage, Context, Model
from ._copilot_headers import copilot_dynamic_headers
from ._http import SDK_ABORT_MESSAGE, STREAM_ABORT_MESSAGE, open_sse
from ._options_common import compat_flag, prompt_cache_key, resolve_cache_retention
from ._provider_run import run_provider
from ._responses_parse import ResponsesStreamParser, responses_label
from ._responses_shared import OPENAI_TOOL_CALL_PROVIDERS, convert_responses_messages, convert_responses_tools
from ._stream_blocks import BlockWriter, ProviderError

API = "openai-responses"
DEFAULT_BASE_URL = "https://api.openai.com/v1"
MIN_MAX_OUTPUT_TOKENS = 16
"""The Responses API's smallest accepted ``max_output_tokens`` (pi 0.80.4)."""


def responses_url(model: Model) -> str:
    """``{baseUrl}/responses`` (default base ``https://api.openai.com/v1``)."""
    return (model.base_url or DEFAULT_BASE_URL).rstrip("/") + "/responses"


def build_headers(model: Model, context: Context, api_key: str, options: StreamOptions) -> dict[str, str]:
    """Auth, session/cache-affinity headers, model headers, Copilot headers, then ``options.headers``."""
    headers: dict[str, str] = {"authorization": f"Bearer {api_key}"}
    headers.update(model.headers or {})
    if model.provider == "github-copilot":
        headers.update(copilot_dynamic_headers(context.messages))
    retention = resolve_cache_retention(options.cache_retention)
    session_id = options.session_id if retention != "none" else None
    if session_id:
        if compat_flag(model, "sendSessionIdHeader"):
            headers["session_id"] = session_id
        headers["x-client-request-id"] = session_id
    headers.update(options.headers or {})
    return headers


def build_params(model: Model, context: Context, options: StreamOptions) -> dict[str, Any]:
    """The JSON request body (see the module docstring)."""
    extra = options.extra or {}
    retention = resolve_cache_retention(options.cache_retention)
    params: dict[str, Any] = {
        "model": model.id,
        "input": convert_responses_messages(model, context, OPENAI_TOOL_CALL_PROVIDERS),
        "stream": True,
        "store": False,
    }
    if retention != "none" and options.session_id:
        params["prompt_cache_key"] = prompt_cache_key(options.session_id)
    if retention == "long" and compat_flag(model, "supportsLongCacheRetention"):
        params["prompt_cache_retention"] = "24h"
    if options.max_tokens:
        # The Responses API rejects values below 16 (pi 0.80.4, pi#6265)
        params["max_output_tokens"] = max(options.max_tokens, MIN_MAX_OUTPUT_TOKENS)
    if options.temperature is not None:
        params["temperature"] = options.temperature
    if extra.get("service_tier") is not None:
        params["service_tier"] = extra["service_tier"]
    if context.tools:
        params["tools"] = convert_responses_tools(context.tools)
    if model.reasoning:
        effort = extra.get("reasoning_effort")
        summary = extra.get("reasoning_summary")
        level_map = model.thinking_level_map or {}
        if effort or summary:
            mapped = level_map.get(effort) if effort else None
            params["reasoning"] = {
                "effort": (mapped or effort) if effort else "medium",
                "summary": summary or "auto",
            }
            params["include"] = ["reasoning.encrypted_content"]
        elif model.provider != "github-copilot" and not ("off" in level_map and level_map["off"] is None):
            params["reasoning"] = {"effort": level_map.get("off") or "none"}
    return params


def stream(
    model: Model, context: Context, options: StreamOptions | None = None
) -> AssistantMessageEventStream:
    """Stream one Responses reply (see the module docstring). Call inside a running event loop."""
    opts = options if options is not None else StreamOptions()

    async def produce(output: AssistantMessage, events: AssistantMessageEventStream) -> None:
        api_key = opts.api_key or get_env_api_key(model.provider) or os.environ.get("OPENAI_API_KEY") or ""
        if not api_key:
            raise ProviderError(
                "OpenAI API key is required. Set OPENAI_API_KEY environment variable or pass it as an argument."
            )
        headers = build_headers(model, context, api_key, opts)
        body = build_params(model, context, opts)
        writer = BlockWriter(output, events)
        async with open_sse(
            url=responses_url(model), headers=headers, body=body, model=model, options=opts
        ) as sse:
            writer.start()
            parser = ResponsesStreamParser(writer, model, (opts.extra or {}).get("service_tier"))
            async for event in sse:
                if event.data.strip() == "[DONE]":
                    break
                try:
                    payload = parse_json_with_repair(event.data)
                except ValueError as exc:
                    raise ProviderError(
                        f"Could not parse {responses_label(model)} Responses SSE event: {exc}; data={event.data}"
                    ) from exc
                if isinstance(payload, dict) and parser.feed(payload):
                    break
            parser.finish()

    return run_provider(model, opts, produce, abort_messages=(SDK_ABORT_MESSAGE, STREAM_ABORT_MESSAGE))


def stream_simple(
    model: Model, context: Context, options: SimpleStreamOptions | None = None
) -> AssistantMessageEventStream:
    """Stream with a provider-neutral reasoning level (clamped to the model's supported levels)."""
    api_key = (options.api_key if options else None) or get_env_api_key(model.provider)
    if not api_key:
        return error_stream(model, f"No API key for provider: {model.provider}")
    base = build_base_options(model, options, api_key, context)
    reasoning = options.reasoning if options else None
    clamped = clamp_thinking_level(model, reasoning) if reasoning else None
    if clamped and clamped != "off":
        base.extra["reasoning_effort"] = clamped
    return stream(model, context, base)
