"""Turn session messages (pydantic models or dicts) into transcript items (loading/resuming a session).

Roles (pi-reference §3.3, DESIGN "Data model"): user, assistant (+ one ``ToolItem`` per tool call), toolResult
(completes its ``ToolItem``), bashExecution, custom, compactionSummary, branchSummary, and the UI-only
``notification`` {level, text} and ``artifact`` {title, kind, content, language?, path?}.
"""

from __future__ import annotations

from typing import Any

from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.transcript_items import (
    ArtifactItem,
    AssistantItem,
    BashItem,
    NoticeItem,
    SummaryItem,
    ToolItem,
    TranscriptItem,
    UserItem,
    field,
    message_text,
)


def role_of(message: Any) -> str:
    """``message.role`` for models and dicts ("" when missing)."""
    return str(field(message, "role", "") or "")


def tool_calls_of(message: Any) -> list[Any]:
    """Tool-call blocks of an assistant message."""
    return [b for b in field(message, "content", []) or [] if field(b, "type") == "toolCall"]


BLOCKED_TEXT = "Tool execution was blocked"  # pi_tui.agent.tool_execution (before_tool_call without a reason)


def apply_tool_result(item: ToolItem, content: Any, details: Any, is_error: bool) -> None:
    """Complete ``item`` with a result (from a ``toolResult`` message or ``tool_execution_end``).

    Status: ``blocked`` when ``details.blocked`` is set or the error text is pi's blocked text, else
    ``error``/``done``.
    """
    item.result_text = tool_format.result_text(content)
    item.details = details
    blocked = (isinstance(details, dict) and bool(details.get("blocked"))) or (
        is_error and item.result_text.startswith(BLOCKED_TEXT))
    item.status = "blocked" if blocked else ("error" if is_error else "done")
    item.changed()


def item_for_message(message: Any) -> TranscriptItem | None:
    """The item for one non-assistant, non-toolResult message (``None`` when it is not displayed)."""
    role = role_of(message)
    if role == "user":
        return UserItem(message_text(field(message, "content", "")))
    if role == "bashExecution":
        b = BashItem(str(field(message, "command", "")), bool(field(message, "exclude_from_context", False)
                                                             or field(message, "excludeFromContext", False)))
        b.output = str(field(message, "output", "") or "")
        b.exit_code = field(message, "exit_code", field(message, "exitCode"))
        b.cancelled = bool(field(message, "cancelled", False))
        b.truncated_path = field(message, "full_output_path", field(message, "fullOutputPath"))
        b.running = False
        return b
    if role == "notification":
        return NoticeItem(str(field(message, "level", "info")), str(field(message, "text", "")))
    if role == "artifact":
        return ArtifactItem(str(field(message, "title", "")), str(field(message, "kind", "text")),
                            str(field(message, "content", "")), field(message, "language"), field(message, "path"))
    if role == "compactionSummary":
        return SummaryItem("compaction", str(field(message, "summary", "")))
    if role == "branchSummary":
        return SummaryItem("branch summary", str(field(message, "summary", "")))
    if role == "custom":
        if field(message, "display", True) is False:
            return None
        label = str(field(message, "custom_type", field(message, "customType", "custom")))
        return SummaryItem(label, message_text(field(message, "content", "")), collapsed_by_default=False)
    return None


def repeats_assistant_error(message: Any, items: list[TranscriptItem]) -> bool:
    """True for an error notification that repeats the last assistant message's ``Error: …`` line.

    The session adds such a notification when a run fails; the assistant item already shows the error
    (pi shows it once), so the UI skips the repeat.
    """
    if role_of(message) != "notification" or field(message, "level") != "error":
        return False
    for item in reversed(items[-8:]):
        if isinstance(item, AssistantItem):
            return bool(field(item.message, "stop_reason") == "error"
                        and field(item.message, "error_message") == field(message, "text"))
    return False


def items_from_messages(messages: list[Any]) -> list[TranscriptItem]:
    """All items for a finished message list, tool results attached to their calls."""
    items: list[TranscriptItem] = []
    tools: dict[str, ToolItem] = {}
    for message in messages:
        role = role_of(message)
        if role == "assistant":
            items.append(AssistantItem(message, streaming=False))
            for call in tool_calls_of(message):
                tool = ToolItem(str(field(call, "id", "")), str(field(call, "name", "")), field(call, "arguments"))
                stop = field(message, "stop_reason")
                if stop in ("error", "aborted"):
                    tool.status = "error"
                    tool.result_text = field(message, "error_message") or "Operation aborted"
                tools[tool.tool_call_id] = tool
                items.append(tool)
        elif role == "toolResult":
            found = tools.get(str(field(message, "tool_call_id", "")))
            if found is not None:
                apply_tool_result(found, field(message, "content"), field(message, "details"),
                                  bool(field(message, "is_error", False)))
        elif not repeats_assistant_error(message, items):
            item = item_for_message(message)
            if item is not None:
                items.append(item)
    return items
