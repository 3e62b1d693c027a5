"""pi_tui.agent — port of pi-agent-core 0.73: agent loop, tool execution and the stateful Agent (pi-reference §2)."""

from __future__ import annotations

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
from .loop import AgentEventStream, agent_loop, agent_loop_continue, run_agent_loop, run_agent_loop_continue
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
