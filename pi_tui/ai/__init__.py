"""pi_tui.ai — the LLM layer (port of pi-ai 0.73): types, event stream, providers, models, keys.

Importing this package imports no provider module (pi-reference §4.2 lazy-module-load), and none of its
submodules: each name below loads its module on first use (``pi_tui.lazy_exports``; issue 15, the app's first
paint imports ``ai.secret_redaction`` and must not pay for the pydantic models or ``jsonschema``). ``stream`` and
``transform_messages`` are imported from their modules (``pi_tui.ai.stream``, ``pi_tui.ai.transform_messages``),
whose names they share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_tui.lazy_exports import lazy_package

if TYPE_CHECKING:
    from .abort import AbortController, AbortError, AbortSignal
    from .env_keys import find_env_keys, get_env_api_key
    from .events import AssistantMessageEvent, AssistantMessageEventStream, EventStream
    from .models import (
        DEFAULT_MODEL_PER_PROVIDER,
        calculate_cost,
        clamp_thinking_level,
        get_default_model,
        get_model,
        get_models,
        get_providers,
        get_supported_thinking_levels,
        models_are_equal,
        supports_xhigh,
    )
    from .options import SimpleStreamOptions, StreamOptions
    from .overflow import is_context_overflow
    from .registry import (
        ApiProvider,
        get_api_provider,
        get_api_providers,
        register_api_provider,
        reset_api_providers,
        unregister_api_providers,
    )
    from .sanitize import sanitize_surrogates
    from .stream import complete, complete_simple, stream_simple
    from .types import (
        AssistantMessage,
        Context,
        ImageContent,
        Message,
        Model,
        TextContent,
        ThinkingContent,
        Tool,
        ToolCall,
        ToolResultMessage,
        Usage,
        UserMessage,
    )
    from .validation import (
        ToolNotFoundError,
        ToolValidationError,
        validate_tool_arguments,
        validate_tool_call,
    )

_EXPORTS = {
    "AbortController": ".abort", "AbortError": ".abort", "AbortSignal": ".abort", "find_env_keys": ".env_keys",
    "get_env_api_key": ".env_keys", "AssistantMessageEvent": ".events", "AssistantMessageEventStream": ".events",
    "EventStream": ".events", "DEFAULT_MODEL_PER_PROVIDER": ".models", "calculate_cost": ".models",
    "clamp_thinking_level": ".models", "get_default_model": ".models", "get_model": ".models",
    "get_models": ".models", "get_providers": ".models", "get_supported_thinking_levels": ".models",
    "models_are_equal": ".models", "supports_xhigh": ".models", "SimpleStreamOptions": ".options",
    "StreamOptions": ".options", "is_context_overflow": ".overflow", "ApiProvider": ".registry",
    "get_api_provider": ".registry", "get_api_providers": ".registry", "register_api_provider": ".registry",
    "reset_api_providers": ".registry", "unregister_api_providers": ".registry", "sanitize_surrogates": ".sanitize",
    "complete": ".stream", "complete_simple": ".stream", "stream_simple": ".stream",
    "AssistantMessage": ".types", "Context": ".types",
    "ImageContent": ".types", "Message": ".types", "Model": ".types", "TextContent": ".types",
    "ThinkingContent": ".types", "Tool": ".types", "ToolCall": ".types", "ToolResultMessage": ".types",
    "Usage": ".types", "UserMessage": ".types",
    "ToolNotFoundError": ".validation", "ToolValidationError": ".validation",
    "validate_tool_arguments": ".validation", "validate_tool_call": ".validation",  # imports jsonschema
}
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

__all__ = [
    "DEFAULT_MODEL_PER_PROVIDER",
    "AbortController",
    "AbortError",
    "AbortSignal",
    "ApiProvider",
    "AssistantMessage",
    "AssistantMessageEvent",
    "AssistantMessageEventStream",
    "Context",
    "EventStream",
    "ImageContent",
    "Message",
    "Model",
    "SimpleStreamOptions",
    "StreamOptions",
    "TextContent",
    "ThinkingContent",
    "Tool",
    "ToolCall",
    "ToolResultMessage",
    "Usage",
    "ToolNotFoundError",
    "ToolValidationError",
    "UserMessage",
    "calculate_cost",
    "clamp_thinking_level",
    "complete",
    "complete_simple",
    "find_env_keys",
    "get_api_provider",
    "get_api_providers",
    "get_env_api_key",
    "get_default_model",
    "get_model",
    "get_models",
    "get_providers",
    "get_supported_thinking_levels",
    "is_context_overflow",
    "models_are_equal",
    "register_api_provider",
    "reset_api_providers",
    "sanitize_surrogates",
    "stream_simple",
    "supports_xhigh",
    "unregister_api_providers",
    "validate_tool_arguments",
    "validate_tool_call",
]
