"""Public entry points ``stream``, ``complete``, ``stream_simple``, ``complete_simple`` (pi-reference §1.12).

``stream``/``stream_simple`` look the provider up by ``model.api`` and raise ``ValueError`` at once
(``No API provider registered for api: <api>``) when there is none; every later failure, an abort
included, is an ``error`` event in the returned stream. They must be called inside a running event loop.
"""

from __future__ import annotations

from .events import AssistantMessageEventStream
from .options import SimpleStreamOptions, StreamOptions
from .registry import resolve_api_provider
from .types import AssistantMessage, Context, Model


def stream(model: Model, context: Context, options: StreamOptions | None = None) -> AssistantMessageEventStream:
    """Stream one reply with provider-specific options."""
    return resolve_api_provider(model.api).stream(model, context, options)


async def complete(model: Model, context: Context, options: StreamOptions | None = None) -> AssistantMessage:
    """``await stream(...).result()``."""
    return await stream(model, context, options).result()


def stream_simple(
    model: Model, context: Context, options: SimpleStreamOptions | None = None
) -> AssistantMessageEventStream:
    """Stream one reply with provider-neutral options (reasoning level instead of raw parameters)."""
    return resolve_api_provider(model.api).stream_simple(model, context, options)


async def complete_simple(
    model: Model, context: Context, options: SimpleStreamOptions | None = None
) -> AssistantMessage:
    """``await stream_simple(...).result()``."""
    return await stream_simple(model, context, options).result()
