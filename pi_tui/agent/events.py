"""AgentEvent: the nine lifecycle events of a run (pi-reference §2.1 "AgentEvent").

Each event is a pydantic model; ``event.model_dump(mode="json", by_alias=True, exclude_none=True)`` is pi's
JSON (``toolCallId``, ``toolName``, ``partialResult``, ``isError``, ``toolResults``,
``assistantMessageEvent``). Messages inside events are the loop's own objects (no copy on construction);
``message_start``/``message_update`` carry a shallow copy of the streaming assistant message.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from pi_tui.ai.events import AssistantMessageEvent
from pi_tui.ai.types import AssistantMessage, PiModel, ToolResultMessage

from .messages import AgentMessageField
from .types import AgentToolResult


class AgentStartEvent(PiModel):
    """First event of every run."""

    type: Literal["agent_start"] = "agent_start"


class AgentEndEvent(PiModel):
    """Last event of a run; ``messages`` are the run's new messages (or ``[failure]`` on a failed run)."""

    type: Literal["agent_end"] = "agent_end"
    messages: list[AgentMessageField]


class TurnStartEvent(PiModel):
    """A turn begins: one assistant response plus the tool calls it requests."""

    type: Literal["turn_start"] = "turn_start"


class TurnEndEvent(PiModel):
    """A turn ended: the assistant message and its tool results in source order."""

    type: Literal["turn_end"] = "turn_end"
    message: AgentMessageField
    tool_results: list[ToolResultMessage]


class MessageStartEvent(PiModel):
    """A message enters the transcript (user, assistant, toolResult or custom role)."""

    type: Literal["message_start"] = "message_start"
    message: AgentMessageField


class MessageUpdateEvent(PiModel):
    """Streaming assistant update: the partial message (shallow copy) and the pi-ai event that changed it."""

    type: Literal["message_update"] = "message_update"
    message: AgentMessageField
    assistant_message_event: AssistantMessageEvent


class MessageEndEvent(PiModel):
    """A message is complete; the Agent appends it to ``state.messages``."""

    type: Literal["message_end"] = "message_end"
    message: AgentMessageField


class ToolExecutionStartEvent(PiModel):
    """A tool call is about to be prepared/run; ``args`` are the raw (pre-validation) arguments."""

    type: Literal["tool_execution_start"] = "tool_execution_start"
    tool_call_id: str
    tool_name: str
    args: Any = None


class ToolExecutionUpdateEvent(PiModel):
    """Partial result reported by a running tool through ``on_update``."""

    type: Literal["tool_execution_update"] = "tool_execution_update"
    tool_call_id: str
    tool_name: str
    args: Any = None
    partial_result: Any = None


class ToolExecutionEndEvent(PiModel):
    """A tool call finished (completion order in parallel mode); ``result`` may carry ``terminate``."""

    type: Literal["tool_execution_end"] = "tool_execution_end"
    tool_call_id: str
    tool_name: str
    result: AgentToolResult
    is_error: bool


AgentEvent = Annotated[
    AgentStartEvent
    | AgentEndEvent
    | TurnStartEvent
    | TurnEndEvent
    | MessageStartEvent
    | MessageUpdateEvent
    | MessageEndEvent
    | ToolExecutionStartEvent
    | ToolExecutionUpdateEvent
    | ToolExecutionEndEvent,
    Field(discriminator="type"),
]
"""Discriminated union of every agent event (``type``)."""

__all__ = [
    "AgentEndEvent",
    "AgentEvent",
    "AgentStartEvent",
    "AssistantMessage",
    "MessageEndEvent",
    "MessageStartEvent",
    "MessageUpdateEvent",
    "ToolExecutionEndEvent",
    "ToolExecutionStartEvent",
    "ToolExecutionUpdateEvent",
    "TurnEndEvent",
    "TurnStartEvent",
]
