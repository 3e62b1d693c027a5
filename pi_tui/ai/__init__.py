"""pi_tui.ai — the LLM layer (port of pi-ai 0.73): types, event stream, providers, models, keys.

Importing this package imports no provider module (pi-reference §4.2 lazy-module-load).
"""

from __future__ import annotations

from .abort import AbortController, AbortError, AbortSignal
from .events import AssistantMessageEvent, AssistantMessageEventStream, EventStream
from .options import SimpleStreamOptions, StreamOptions
from .registry import (
    ApiProvider,
    get_api_provider,
    get_api_providers,
    register_api_provider,
    reset_api_providers,
    unregister_api_providers,
)
from .stream import complete, complete_simple, stream, stream_simple
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

__all__ = [
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
    "UserMessage",
    "complete",
    "complete_simple",
    "get_api_provider",
    "get_api_providers",
    "register_api_provider",
    "reset_api_providers",
    "stream",
    "stream_simple",
    "unregister_api_providers",
]
