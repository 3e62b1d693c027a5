"""Tool results of a resumed branch in call order, with an ``interrupted`` result for calls that never finished.

pi-tui writes each tool result the moment its call finishes (``tool_execution_end``, see
:class:`pi_tui.coding.agent_session.AgentSession`), so a parallel batch is stored in *completion* order and a
crash (SIGKILL, power loss) in the middle of a batch leaves calls without a result (issue 10, class 1;
letta-ai/letta-code#578, LionSR/TeXRA#7163). :func:`settle_tool_results` turns such a branch into what the
live session would have held: after each assistant message with tool calls, the run of tool results (and the
UI-only ``notification``/``artifact`` messages among them, which stay after the result they follow) is put in
the order of the calls, and a call with no stored result gets an error result :data:`INTERRUPTED_TEXT` in its
place. A call whose result is stored further down (after a user message) gets none here; the request repair
(:mod:`pi_tui.ai.tool_pairing`) moves that one up. The session file is never changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pi_tui.ai.types import AssistantMessage, TextContent, ToolCall, ToolResultMessage, now_ms
from pi_tui.coding.session.messages import AgentMessage, message_field, message_role

INTERRUPTED_TEXT = (
    "Tool execution was interrupted: the session stopped before this call finished, so it has no result."
)
_UI_ROLES = ("notification", "artifact")


def interrupted_result(call: ToolCall, timestamp: int | None = None) -> ToolResultMessage:
    """The error result standing in for a call that never finished."""
    return ToolResultMessage(
        tool_call_id=call.id,
        tool_name=call.name,
        content=[TextContent(text=INTERRUPTED_TEXT)],
        is_error=True,
        timestamp=timestamp if timestamp is not None else now_ms(),
    )


def _call_id(message: Any) -> Any:
    return message_field(message, "toolCallId", "tool_call_id")


def _later_result_ids(messages: Sequence[AgentMessage], start: int) -> set[Any]:
    ids: set[Any] = set()
    for message in messages[start:]:
        role = message_role(message)
        if role == "assistant":
            break
        if role == "toolResult":
            ids.add(_call_id(message))
    return ids


def settle_tool_results(
    messages: Sequence[AgentMessage], finished: Mapping[int, set[str]] | None = None
) -> list[AgentMessage]:
    """``messages`` with each batch's results in call order and interrupted calls answered (module docstring).

    ``finished``: for an assistant message (by ``id()``), call ids whose result is stored elsewhere in the file
    (another branch): such a call finished and gets no ``interrupted`` result (the request repair still answers
    it, pi's way). Assistant messages that failed (``error``/``aborted``) are left alone: their calls never ran.
    Results that answer no call of the batch keep their place after the ordered ones. Returns a new list.
    """
    finished = finished or {}
    out: list[AgentMessage] = []
    index = 0
    while index < len(messages):
        message = messages[index]
        out.append(message)
        index += 1
        if not isinstance(message, AssistantMessage) or message.stop_reason in ("error", "aborted"):
            continue
        calls = [block for block in message.content if isinstance(block, ToolCall)]
        if not calls:
            continue
        end = index
        while end < len(messages) and message_role(messages[end]) in ("toolResult", *_UI_ROLES):
            end += 1
        lead: list[AgentMessage] = []
        groups: list[list[AgentMessage]] = []
        for item in messages[index:end]:
            if message_role(item) == "toolResult":
                groups.append([item])
            elif groups:
                groups[-1].append(item)
            else:
                lead.append(item)
        later = _later_result_ids(messages, end)
        ordered: list[AgentMessage] = []
        for call in calls:
            group = next((g for g in groups if _call_id(g[0]) == call.id), None)
            if group is not None:
                groups.remove(group)
                ordered.extend(group)
            elif call.id not in later and call.id not in finished.get(id(message), ()):
                ordered.append(interrupted_result(call, message.timestamp))
        out.extend(lead)
        out.extend(ordered)
        for group in groups:
            out.extend(group)
        index = end
    return out
