"""pi_tui.ai — the LLM layer (port of pi-ai 0.73): types, event stream, providers, models, keys.

Importing this package imports no provider module (pi-reference §4.2 lazy-module-load).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from .stream import complete, complete_simple, stream, stream_simple
from .transform_messages import transform_messages
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

if TYPE_CHECKING:
    from .validation import (
        ToolNotFoundError,
        ToolValidationError,
        validate_tool_arguments,
        validate_tool_call,
    )

_LAZY_VALIDATION = (
    "ToolNotFoundError",
    "ToolValidationError",
    "validate_tool_arguments",
    "validate_tool_call",
)


def __getattr__(name: str) -> Any:
    """Validation (which imports ``jsonschema``) loads on first use to keep ``import pi_tui.ai`` cheap."""
    if name in _LAZY_VALIDATION:
        from . import validation

        return getattr(validation, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    "stream",
    "stream_simple",
    "supports_xhigh",
    "transform_messages",
    "unregister_api_providers",
    "validate_tool_arguments",
    "validate_tool_call",
]
