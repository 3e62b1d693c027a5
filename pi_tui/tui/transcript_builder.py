"""Turn session messages (pydantic models or dicts) into transcript items (loading/resuming a session).

Roles (pi-reference §3.3, DESIGN "Data model"): user, assistant (+ one ``ToolItem`` per tool call), toolResult
(completes its ``ToolItem``), bashExecution, custom, compactionSummary, branchSummary, and the UI-only
``notification`` {level, text} and ``artifact`` {title, kind, content, language?, path?}.
``items_for_session`` adds the compacted history of the branch, folded under its compaction summary.
"""

from __future__ import annotations

from itertools import takewhile
from typing import Any

from pi_tui.agent.terminal_text import sanitize_terminal_output
from pi_tui.coding.session.context import (
    branch_summary_message,
    custom_message_from_entry,
    ui_message_from_entry,
)
from pi_tui.coding.session.entries import (
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    MessageEntry,
    SessionEntryBase,
)
from pi_tui.coding.session.tool_results import INTERRUPTED_TEXT
from pi_tui.tui.entry_labels import MessageLabels
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.custom_message_item import CustomMessageItem
from pi_tui.tui.widgets.failed_attempt import FailedAttemptItem, failed_attempt
from pi_tui.tui.widgets.image_card import user_item
from pi_tui.tui.widgets.label_item import LabelItem
from pi_tui.tui.widgets.transcript_items import (
    ArtifactItem,
    AssistantItem,
    BashItem,
    NoticeItem,
    SummaryItem,
    ToolItem,
    TranscriptItem,
    UserItem,
    abort_text,
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
UNFINISHED = ("pending", "queued", "running")


def apply_tool_result(item: ToolItem, content: Any, details: Any, is_error: bool) -> None:
    """Complete ``item`` with a result (from a ``toolResult`` message or ``tool_execution_end``).

    Status: ``blocked`` when ``details.blocked`` is set or the error text is pi's blocked text,
    ``interrupted`` for the result a resumed session gives a call that never finished
    (``session/tool_results.INTERRUPTED_TEXT``), else ``error``/``done``.
    """
    item.result_text = tool_format.result_text(content)
    item.details = details
    blocked = (isinstance(details, dict) and bool(details.get("blocked"))) or (
        is_error and item.result_text.startswith(BLOCKED_TEXT))
    interrupted = is_error and item.result_text == INTERRUPTED_TEXT
    item.status = "blocked" if blocked else "interrupted" if interrupted else ("error" if is_error else "done")
    item.changed()


def mark_interrupted(item: ToolItem) -> bool:
    """An unfinished call (pending, queued, running) whose run is over: shown as ``interrupted`` with the text
    the resumed session's context gives it (``session/tool_results.py``). False when it had finished."""
    if item.status not in UNFINISHED:
        return False
    item.status = "interrupted"
    item.result_text = INTERRUPTED_TEXT
    item.changed()
    return True


def close_unanswered(items: list[TranscriptItem], keep_open: set[str] | frozenset[str] = frozenset()) -> None:
    """Every call of ``items`` that has no result and is not in ``keep_open`` (the calls of a run still going
    on) is interrupted (issue 9: after a crash and ``-c`` the tool panel listed such a call as "queued" for ever
    while the model was told it was interrupted)."""
    for item in items:
        if isinstance(item, ToolItem) and item.tool_call_id not in keep_open:
            mark_interrupted(item)


def item_for_message(message: Any) -> TranscriptItem | None:
    """The item for one non-assistant, non-toolResult message (``None`` when it is not displayed)."""
    role = role_of(message)
    if role == "user":
        return user_item(field(message, "content", ""))  # with a card per image (widgets/image_card.py)
    if role == "bashExecution":
        b = BashItem(str(field(message, "command", "")), bool(field(message, "exclude_from_context", False)
                                                             or field(message, "excludeFromContext", False)))
        b.output = sanitize_terminal_output(str(field(message, "output", "") or ""))  # older sessions
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
        tokens = field(message, "tokens_before", field(message, "tokensBefore"))
        return SummaryItem("compaction", str(field(message, "summary", "")),
                           tokens_before=tokens if isinstance(tokens, int) else None)
    if role == "branchSummary":
        return SummaryItem("branch summary", str(field(message, "summary", "")))
    if role == "custom":
        if field(message, "display", True) is False:
            return None
        label = str(field(message, "custom_type", field(message, "customType", "custom")))
        return CustomMessageItem(label, message_text(field(message, "content", "")), message)
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


def duplicates_tool_diff(message: Any, items: list[TranscriptItem]) -> bool:
    """True for the diff artifact an ``edit`` call attaches when its tool item already shows that edit's diff
    (issue 9: each edit showed its diff twice). The artifact stays in the session; the transcript shows one diff."""
    if role_of(message) != "artifact" or field(message, "kind") != "diff":
        return False
    path = field(message, "path")
    for item in reversed(items[-6:]):
        if isinstance(item, ToolItem):
            return bool(item.name == "edit" and tool_format.edit_diff(item.details)
                        and path and str(item.args.get("path", item.args.get("file_path", ""))) == str(path))
    return False


def _error_only(item: TranscriptItem) -> bool:
    """An assistant item that shows nothing but its error (a failed attempt before any output)."""
    if not isinstance(item, AssistantItem) or field(item.message, "stop_reason") != "error":
        return False
    return not tool_calls_of(item.message) and not item.plain_text().strip()


class _ItemBuilder:
    """Turns messages into items one at a time: tool results complete their calls, repeated errors are skipped."""

    def __init__(self) -> None:
        self.items: list[TranscriptItem] = []
        self.tools: dict[str, ToolItem] = {}

    def add(self, message: Any) -> list[TranscriptItem]:
        """Append the items for ``message``; returns the new ones."""
        start = len(self.items)
        role = role_of(message)
        if role == "assistant":
            # a failed attempt followed by the retry's answer leaves, as live (session_view.on_auto_retry_start);
            # the file keeps it (issue 9: a resumed session showed every attempt)
            while self.items and _error_only(self.items[-1]):
                self.items.pop()
            if self.items and failed_attempt(self.items[-1]):  # a partial reply: one line (new-user run #31)
                failed = self.items.pop()
                number = 1 + sum(1 for _ in takewhile(lambda i: isinstance(i, FailedAttemptItem), reversed(self.items)))
                self.items.append(FailedAttemptItem(getattr(failed, "message", None), number))
            start = min(start, len(self.items))
            self.items.append(AssistantItem(message, streaming=False))
            for call in tool_calls_of(message):
                tool = ToolItem(str(field(call, "id", "")), str(field(call, "name", "")), field(call, "arguments"))
                stop = field(message, "stop_reason")
                if stop in ("error", "aborted"):
                    tool.status = "error"
                    tool.result_text = (abort_text(field(message, "error_message")) if stop == "aborted"
                                        else field(message, "error_message") or "Unknown error")
                self.tools[tool.tool_call_id] = tool
                self.items.append(tool)
        elif role == "toolResult":
            found = self.tools.get(str(field(message, "tool_call_id", "")))
            if found is not None:
                apply_tool_result(found, field(message, "content"), field(message, "details"),
                                  bool(field(message, "is_error", False)))
        elif not repeats_assistant_error(message, self.items) and not duplicates_tool_diff(message, self.items):
            item = item_for_message(message)
            if item is not None:
                self.items.append(item)
        return self.items[start:]


def items_from_messages(messages: list[Any], labels: MessageLabels | None = None) -> list[TranscriptItem]:
    """All items for a finished message list, tool results attached to their calls; a message with a label
    (``labels``) gets a :class:`LabelItem` right before its items."""
    builder = _ItemBuilder()
    for message in messages:
        new = builder.add(message)
        label = labels.for_message(message) if labels else None
        if label and new:
            builder.items.insert(len(builder.items) - len(new), LabelItem(label))
    return builder.items


def _entry_message(entry: SessionEntryBase) -> Any:
    """The displayed message of one branch entry (as ``build_session_context(include_ui=True)`` has it)."""
    if isinstance(entry, MessageEntry):
        return entry.message
    if isinstance(entry, CustomMessageEntry):
        return custom_message_from_entry(entry)
    if isinstance(entry, BranchSummaryEntry) and entry.summary:
        return branch_summary_message(entry)
    if isinstance(entry, CustomEntry):
        return ui_message_from_entry(entry)
    return None


def items_from_branch(branch: list[SessionEntryBase], labels: MessageLabels | None = None) -> list[TranscriptItem]:
    """Items for a whole session branch (root -> leaf), compacted history included (issue 9 item 4).

    Each compaction entry gets a summary item placed where its kept messages start (as the LLM context has it,
    pi-reference §3.4); every item before that point which is not already folded under an earlier summary is
    folded under it. Collapsed, the transcript therefore shows what pi 0.73 shows (summary, kept messages,
    later ones); expanded, the compacted conversation is back in its place. A ``firstKeptEntryId`` not on the
    branch folds everything before the compaction.
    """
    builder = _ItemBuilder()
    made_at: dict[int, int] = {}  # id(item) -> position on the branch of the entry that made it
    position = {entry.id: k for k, entry in enumerate(branch)}
    for k, entry in enumerate(branch):
        if isinstance(entry, CompactionEntry):
            summary = SummaryItem("compaction", entry.summary, tokens_before=entry.tokens_before)
            kept_at = position.get(entry.first_kept_entry_id or "", k)
            cut = next((n for n, it in enumerate(builder.items) if made_at[id(it)] >= kept_at), len(builder.items))
            prompt = split_turn_prompt(builder.items, cut)
            for item in builder.items[:cut]:
                if item.fold_owner is None and item is not prompt:
                    item.fold_owner = summary
                    summary.folded_items.append(item)
            builder.items.insert(0, summary)
            made_at[id(summary)] = k
            continue
        message = _entry_message(entry)
        if message is not None:
            new = builder.add(message)
            label = labels.for_entry(entry) if labels else None
            if label and new:
                tag = LabelItem(label)
                builder.items.insert(len(builder.items) - len(new), tag)
                new = [tag, *new]
            for item in new:
                made_at[id(item)] = k
    return builder.items


def split_turn_prompt(items: list[TranscriptItem], cut: int) -> UserItem | None:
    """The prompt of a turn the compaction cut in two (``items[cut]``, the first kept item, is not a prompt): it
    stays unfolded, so the kept reply is not shown as an answer to nothing (tester3 #7). None otherwise."""
    if cut >= len(items) or isinstance(items[cut], UserItem):
        return None
    return next((it for it in reversed(items[:cut]) if isinstance(it, UserItem) and it.fold_owner is None), None)


def items_for_session(session: Any) -> list[TranscriptItem]:
    """Items for what the app shows of ``session`` (:func:`_session_items`); every call with no result is
    interrupted except, while the session streams, those of its last assistant message (still running)."""
    items = _session_items(session)
    keep_open: set[str] = set()
    if getattr(session, "is_streaming", False):
        last = next((i for i in reversed(items) if isinstance(i, AssistantItem)), None)
        if last is not None:
            keep_open = {str(field(c, "id", "")) for c in tool_calls_of(last.message)}
    close_unanswered(items, keep_open)
    return items


def _session_items(session: Any) -> list[TranscriptItem]:
    """Items for what the app shows of ``session``: its messages, plus the compacted history of its branch.

    Without a compaction on the branch this is ``items_from_messages(session.messages)``. With one, the items
    come from the branch entries (``items_from_branch``), followed by any messages the session holds beyond
    the branch's context (not persisted yet). Only the display changes: ``session.messages`` (the LLM context)
    is read, never written.
    """
    messages = list(getattr(session, "messages", None) or [])
    manager = getattr(session, "session_manager", None)
    try:
        labels = MessageLabels(manager) if manager is not None else None
    except Exception:  # a manager without labels (a test double) or a broken file: no label lines
        labels = None
    if manager is None or not messages or role_of(messages[0]) != "compactionSummary":
        return items_from_messages(messages, labels)
    try:
        branch = list(manager.get_branch())
        context = manager.build_session_context(include_ui=True, close_interrupted=True).messages
    except Exception:  # a broken session file must not cost the transcript
        return items_from_messages(messages, labels)
    if not any(isinstance(e, CompactionEntry) for e in branch):
        return items_from_messages(messages, labels)
    items = items_from_branch(branch, labels)
    if len(messages) > len(context):
        builder = _ItemBuilder()
        builder.items = items
        builder.tools = {i.tool_call_id: i for i in items if isinstance(i, ToolItem)}
        for message in messages[len(context):]:
            builder.add(message)
    return items


def compaction_note(session: Any) -> str | None:
    """``Session compacted 1 time`` / ``Session compacted N times`` for a session whose file holds compaction
    entries (every entry of the file, all branches, as pi 0.73's ``renderInitialMessages`` counts), shown when a
    session is opened; None when it was never compacted or has no entries to read."""
    manager = getattr(session, "session_manager", None)
    try:
        entries = list(manager.get_entries()) if manager is not None else []
    except Exception:  # a session that cannot list its entries shows no note
        return None
    count = sum(1 for entry in entries if getattr(entry, "type", None) == "compaction")
    if not count:
        return None
    return f"Session compacted {'1 time' if count == 1 else f'{count} times'}"
