"""pi_tui.agent — port of pi-agent-core 0.73: agent loop, tool execution and the stateful Agent (pi-reference §2).

Importing the package imports none of its modules: each name below loads its module on first use
(``pi_tui.lazy_exports``; issue 15, the first paint must not pay for modules it does not use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_tui.lazy_exports import lazy_package

if TYPE_CHECKING:
    from .agent import Agent, default_convert_to_llm
    from .events import (
        AgentEndEvent,
        AgentEvent,
        AgentStartEvent,
        MessageEndEvent,
        MessageStartEvent,
        MessageUpdateEvent,
        ToolExecutionEndEvent,
        ToolExecutionStartEvent,
        ToolExecutionUpdateEvent,
        TurnEndEvent,
        TurnStartEvent,
    )
    from .loop import (
        AgentEventStream,
        agent_loop,
        agent_loop_continue,
        run_agent_loop,
        run_agent_loop_continue,
    )
    from .messages import (
        AgentMessage,
        CustomAgentMessage,
        UnknownAgentMessage,
        parse_agent_message,
        register_agent_message_role,
        unregister_agent_message_role,
    )
    from .queue import PendingMessageQueue
    from .types import (
        AfterToolCallContext,
        AfterToolCallResult,
        AgentContext,
        AgentLoopConfig,
        AgentState,
        AgentThinkingLevel,
        AgentTool,
        AgentToolResult,
        BeforeToolCallContext,
        BeforeToolCallResult,
        ShouldStopAfterTurnContext,
        ThinkingLevel,
        ToolExecutionMode,
    )

_EXPORTS = {
    "Agent": ".agent", "default_convert_to_llm": ".agent", "AgentEndEvent": ".events", "AgentEvent": ".events",
    "AgentStartEvent": ".events", "MessageEndEvent": ".events", "MessageStartEvent": ".events",
    "MessageUpdateEvent": ".events", "ToolExecutionEndEvent": ".events", "ToolExecutionStartEvent": ".events",
    "ToolExecutionUpdateEvent": ".events", "TurnEndEvent": ".events", "TurnStartEvent": ".events",
    "AgentEventStream": ".loop", "agent_loop": ".loop", "agent_loop_continue": ".loop", "run_agent_loop": ".loop",
    "run_agent_loop_continue": ".loop", "AgentMessage": ".messages", "CustomAgentMessage": ".messages",
    "UnknownAgentMessage": ".messages", "parse_agent_message": ".messages",
    "register_agent_message_role": ".messages", "unregister_agent_message_role": ".messages",
    "PendingMessageQueue": ".queue", "AfterToolCallContext": ".types", "AfterToolCallResult": ".types",
    "AgentContext": ".types", "AgentLoopConfig": ".types", "AgentState": ".types", "AgentThinkingLevel": ".types",
    "AgentTool": ".types", "AgentToolResult": ".types", "BeforeToolCallContext": ".types",
    "BeforeToolCallResult": ".types", "ShouldStopAfterTurnContext": ".types", "ThinkingLevel": ".types",
    "ToolExecutionMode": ".types",
}
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

__all__ = [
    "AfterToolCallContext",
    "AfterToolCallResult",
    "Agent",
    "AgentContext",
    "AgentEndEvent",
    "AgentEvent",
    "AgentEventStream",
    "AgentLoopConfig",
    "AgentMessage",
    "AgentStartEvent",
    "AgentState",
    "AgentThinkingLevel",
    "AgentTool",
    "AgentToolResult",
    "BeforeToolCallContext",
    "BeforeToolCallResult",
    "CustomAgentMessage",
    "MessageEndEvent",
    "MessageStartEvent",
    "MessageUpdateEvent",
    "PendingMessageQueue",
    "ShouldStopAfterTurnContext",
    "ThinkingLevel",
    "ToolExecutionEndEvent",
    "ToolExecutionMode",
    "ToolExecutionStartEvent",
    "ToolExecutionUpdateEvent",
    "TurnEndEvent",
    "TurnStartEvent",
    "UnknownAgentMessage",
    "agent_loop",
    "agent_loop_continue",
    "default_convert_to_llm",
    "parse_agent_message",
    "register_agent_message_role",
    "run_agent_loop",
    "run_agent_loop_continue",
    "unregister_agent_message_role",
]
