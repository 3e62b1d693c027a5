"""Stream options (pi-reference §1.8).

Plain dataclasses because they carry callables (abort signal, payload hooks). ``extra`` holds
provider-specific options (pi's ``ProviderStreamOptions = StreamOptions & Record<string, unknown>``),
for example ``tool_choice``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal

from .abort import AbortSignal
from .types import Model, ThinkingLevel

CacheRetention = Literal["none", "short", "long"]
Transport = Literal["sse", "websocket", "websocket-cached", "auto"]

OnPayload = Callable[[dict[str, Any], Model], "Awaitable[dict[str, Any] | None] | dict[str, Any] | None"]
OnResponse = Callable[[dict[str, Any], Model], "Awaitable[None] | None"]


@dataclass
class StreamOptions:
    """Options common to every provider; all optional.

    ``max_tokens`` caps output tokens; ``timeout_ms`` is the HTTP timeout (default 10 min);
    ``max_retries`` is the provider-level retry count for 429/5xx (default 2, like the vendor SDKs);
    ``max_retry_delay_ms`` caps a server-requested ``Retry-After`` (default 60000; 0 disables the cap,
    pi-reference §1.8): a longer requested delay fails fast with the delay in the error message.
    ``on_payload(body, model)`` may return a replacement request body; ``on_response({status, headers},
    model)`` runs when headers arrive. ``headers`` are merged last over model headers.
    """

    temperature: float | None = None
    max_tokens: int | None = None
    signal: AbortSignal | None = None
    api_key: str | None = None
    transport: Transport | None = None
    cache_retention: CacheRetention | None = None
    session_id: str | None = None
    on_payload: OnPayload | None = None
    on_response: OnResponse | None = None
    headers: dict[str, str] | None = None
    timeout_ms: int | None = None
    max_retries: int | None = None
    max_retry_delay_ms: int | None = None
    metadata: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def copy(self, **changes: Any) -> StreamOptions:
        """A shallow copy with ``changes`` applied."""
        return replace(self, **changes)


@dataclass
class SimpleStreamOptions(StreamOptions):
    """:class:`StreamOptions` plus a provider-neutral reasoning level and thinking budgets (§1.8)."""

    reasoning: ThinkingLevel | None = None
    thinking_budgets: dict[str, int] | None = None


def to_simple(options: StreamOptions | None) -> SimpleStreamOptions:
    """Coerce any options object (or None) to :class:`SimpleStreamOptions`."""
    if options is None:
        return SimpleStreamOptions()
    if isinstance(options, SimpleStreamOptions):
        return options
    return SimpleStreamOptions(**{f.name: getattr(options, f.name) for f in fields(StreamOptions)})
