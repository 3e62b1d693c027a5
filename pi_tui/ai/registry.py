"""API provider registry keyed by ``model.api`` (pi-reference §1.12).

Built-in providers are imported lazily on first use, so importing :mod:`pi_tui.ai` imports no
provider module. A provider module exposes ``stream(model, context, options)`` and
``stream_simple(model, context, options)``, each returning an :class:`AssistantMessageEventStream`
and encoding every failure in the stream.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .events import AssistantMessageEventStream, ErrorEvent
from .options import SimpleStreamOptions, StreamOptions
from .types import AssistantMessage, Context, Model

StreamFunction = Callable[[Model, Context, Any], AssistantMessageEventStream]


@dataclass
class ApiProvider:
    """``{api, stream, stream_simple}``; ``source_id`` groups providers for bulk unregistering."""

    api: str
    stream: StreamFunction
    stream_simple: StreamFunction
    source_id: str | None = None


BUILTIN_PROVIDER_MODULES: dict[str, str] = {
    "openai-completions": "pi_tui.ai.providers.openai_completions",
    "anthropic-messages": "pi_tui.ai.providers.anthropic",
    "openai-responses": "pi_tui.ai.providers.openai_responses",
    "google-generative-ai": "pi_tui.ai.providers.google",
}

_registry: dict[str, ApiProvider] = {}


def error_stream(model: Model, message: str, reason: str = "error") -> AssistantMessageEventStream:
    """A stream holding only an ``error`` event for ``model`` (empty content, zero usage)."""
    s = AssistantMessageEventStream()
    msg = AssistantMessage(
        content=[],
        api=model.api,
        provider=model.provider,
        model=model.id,
        stop_reason="aborted" if reason == "aborted" else "error",
        error_message=message,
    )
    s.push(ErrorEvent(reason="aborted" if reason == "aborted" else "error", error=msg))
    s.end()
    return s


def _guard(api: str, fn: StreamFunction) -> StreamFunction:
    def wrapper(model: Model, context: Context, options: Any = None) -> AssistantMessageEventStream:
        if model.api != api:
            raise ValueError(f"Mismatched api: {model.api} expected {api}")
        try:
            return fn(model, context, options)
        except Exception as exc:  # providers should encode failures; never let one escape
            return error_stream(model, str(exc) or type(exc).__name__)

    return wrapper


def register_api_provider(provider: ApiProvider, source_id: str | None = None) -> None:
    """Register (or replace) the provider for ``provider.api``."""
    provider.source_id = source_id if source_id is not None else provider.source_id
    _registry[provider.api] = ApiProvider(
        api=provider.api,
        stream=_guard(provider.api, provider.stream),
        stream_simple=_guard(provider.api, provider.stream_simple),
        source_id=provider.source_id,
    )


def _lazy_builtin(api: str, module_name: str) -> ApiProvider:
    def load() -> Any:
        return importlib.import_module(module_name)

    def lazy_stream(model: Model, context: Context, options: Any = None) -> AssistantMessageEventStream:
        try:
            mod = load()
        except Exception as exc:
            return error_stream(model, f"Failed to load provider {module_name}: {exc}")
        return mod.stream(model, context, options)  # type: ignore[no-any-return]

    def lazy_stream_simple(model: Model, context: Context, options: Any = None) -> AssistantMessageEventStream:
        try:
            mod = load()
        except Exception as exc:
            return error_stream(model, f"Failed to load provider {module_name}: {exc}")
        return mod.stream_simple(model, context, options)  # type: ignore[no-any-return]

    return ApiProvider(api=api, stream=lazy_stream, stream_simple=lazy_stream_simple, source_id="builtin")


def register_builtin_providers() -> None:
    """(Re-)register the lazy wrappers of the built-in APIs."""
    for api, mod in BUILTIN_PROVIDER_MODULES.items():
        register_api_provider(_lazy_builtin(api, mod), "builtin")


def get_api_provider(api: str) -> ApiProvider | None:
    """The provider registered for ``api``, or None."""
    return _registry.get(api)


def get_api_providers() -> list[ApiProvider]:
    """All registered providers."""
    return list(_registry.values())


def unregister_api_providers(source_id: str) -> None:
    """Remove every provider registered with ``source_id``."""
    for api in [a for a, p in _registry.items() if p.source_id == source_id]:
        del _registry[api]


def clear_api_providers() -> None:
    """Remove every provider, built-ins included."""
    _registry.clear()


def reset_api_providers() -> None:
    """Clear, then re-register the built-ins."""
    clear_api_providers()
    register_builtin_providers()


def resolve_api_provider(api: str) -> ApiProvider:
    """The provider for ``api``; raises ``ValueError("No API provider registered for api: <api>")``."""
    p = _registry.get(api)
    if p is None:
        raise ValueError(f"No API provider registered for api: {api}")
    return p


register_builtin_providers()

__all__ = [
    "ApiProvider",
    "SimpleStreamOptions",
    "StreamOptions",
    "clear_api_providers",
    "error_stream",
    "get_api_provider",
    "get_api_providers",
    "register_api_provider",
    "register_builtin_providers",
    "reset_api_providers",
    "resolve_api_provider",
    "unregister_api_providers",
]
