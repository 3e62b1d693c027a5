"""The ``google-generative-ai`` provider over httpx + SSE, no vendor SDK (pi-reference §7.4, §1.18).

``stream(model, context, options)`` sends ``POST {baseUrl}/models/{model}:streamGenerateContent?alt=sse``
with header ``x-goog-api-key`` (model headers, then ``options.headers`` merged last) and the REST body built by
:func:`._google_shared.build_params`; the reply is read by :class:`._google_parse.GoogleStreamParser`.
``options.on_payload`` receives that REST body (pi hands the SDK's ``{model, contents, config}`` instead).
Provider options in ``options.extra``: ``thinking`` (``{"enabled", "level"?, "budget_tokens"?}``),
``tool_choice`` (``auto``/``none``/``any``).

``stream_simple``: no reasoning level → thinking disabled (Gemini 3 Pro ``LOW``, Gemini 3 Flash / Gemma 4
``MINIMAL``, others budget 0); otherwise the level is clamped to the model's supported levels (``off`` →
``high``) and sent as ``thinkingLevel`` (Gemini 3 / Gemma 4) or ``thinkingBudget``. Without an API key it returns
one error event ``No API key for provider: <provider>``.
"""

from __future__ import annotations

from urllib.parse import quote

from ..env_keys import get_env_api_key
from ..events import AssistantMessageEventStream
from ..json_parse import parse_json_with_repair
from ..models import clamp_thinking_level
from ..options import SimpleStreamOptions, StreamOptions
from ..registry import error_stream
from ..simple_options import build_base_options
from ..types import AssistantMessage, Context, Model
from ._google_parse import GoogleStreamParser
from ._google_shared import (
    build_params,
    mapped_google_level,
    thinking_budget,
    thinking_level,
    uses_thinking_level,
)
from ._http import open_sse
from ._provider_run import run_provider
from ._stream_blocks import BlockWriter, ProviderError

API = "google-generative-ai"
DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com/v1beta"


def stream_url(model: Model) -> str:
    """``{baseUrl}/models/{id}:streamGenerateContent?alt=sse`` (an id with a ``/`` is used as the path)."""
    base = (model.base_url or DEFAULT_BASE_URL).rstrip("/")
    path = model.id if "/" in model.id else f"models/{model.id}"
    return f"{base}/{quote(path, safe='/.-_')}:streamGenerateContent?alt=sse"


def build_headers(model: Model, api_key: str, options: StreamOptions) -> dict[str, str]:
    """``x-goog-api-key``, then model headers, then ``options.headers``."""
    headers = {"x-goog-api-key": api_key}
    headers.update(model.headers or {})
    headers.update(options.headers or {})
    return headers


def stream(model: Model, context: Context, options: StreamOptions | None = None) -> AssistantMessageEventStream:
    """Stream one Gemini reply (see the module docstring). Call inside a running event loop."""
    opts = options if options is not None else StreamOptions()

    async def produce(output: AssistantMessage, events: AssistantMessageEventStream) -> None:
        api_key = opts.api_key or get_env_api_key(model.provider) or ""
        extra = opts.extra or {}
        body = build_params(model, context, opts.temperature, opts.max_tokens, extra.get("thinking"),
                            extra.get("tool_choice"))
        writer = BlockWriter(output, events)
        async with open_sse(url=stream_url(model), headers=build_headers(model, api_key, opts), body=body,
                            model=model, options=opts) as sse:
            writer.start()
            parser = GoogleStreamParser(writer, model)
            async for event in sse:
                try:
                    chunk = parse_json_with_repair(event.data)
                except ValueError as exc:
                    raise ProviderError(f"Could not parse Google SSE event: {exc}; data={event.data}") from exc
                if isinstance(chunk, dict):
                    parser.feed(chunk, event.data)
            parser.finish()

    return run_provider(model, opts, produce)


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
        base.extra["thinking"] = {"enabled": False}
        return stream(model, context, base)
    clamped = clamp_thinking_level(model, reasoning)
    effort = "high" if clamped == "off" else clamped
    try:
        mapped = mapped_google_level(model, effort)  # the model's thinkingLevelMap first (pi 0.84.3)
    except ValueError as exc:
        return error_stream(model, str(exc))
    if uses_thinking_level(model):
        level = mapped.upper() if mapped else thinking_level(effort, model)
        base.extra["thinking"] = {"enabled": True, "level": level}
    else:
        budgets = options.thinking_budgets if options else None
        base.extra["thinking"] = {"enabled": True, "budget_tokens": thinking_budget(model, mapped or effort, budgets)}
    return stream(model, context, base)
