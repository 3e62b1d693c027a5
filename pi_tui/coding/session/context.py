"""Build the message list a session branch stands for (pi-reference §3.4 "Context building").

:func:`build_session_context` walks from a leaf entry to the root and returns the messages of that path, the
thinking level and the model in force at the leaf. With a compaction on the path (the latest one wins) the
result is: the compaction summary, the kept messages (from ``firstKeptEntryId`` up to the compaction), then
everything after it. Messages come from ``message``, ``custom_message`` (as role ``custom``) and non-empty
``branch_summary`` (as role ``branchSummary``) entries; the compaction gives role ``compactionSummary``.

pi-tui's UI-only ``notification`` / ``artifact`` custom entries are returned as messages of those roles only
with ``include_ui=True`` (for the transcript); they are never part of the default (LLM) context.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pi_tui.coding.session.entries import (
    UI_CUSTOM_TYPES,
    BranchSummaryEntry,
    CompactionEntry,
    CustomEntry,
    CustomMessageEntry,
    MessageEntry,
    ModelChangeEntry,
    SessionEntryBase,
    ThinkingLevelChangeEntry,
    iso_to_ms,
)
from pi_tui.coding.session.messages import AgentMessage, message_field, message_from_json, message_role
from pi_tui.coding.session.tool_results import settle_tool_results


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
"""Default ``leaf_id``: use the last entry (pi's ``undefined``); ``None`` means "before the first entry"."""


@dataclass
class SessionContext:
    """``messages`` (AgentMessages, oldest first), ``thinking_level`` (default ``"off"``) and ``model``
    (``{"provider", "modelId"}`` or ``None``)."""

    messages: list[AgentMessage] = field(default_factory=list)
    thinking_level: str = "off"
    model: dict[str, str] | None = None


def custom_message_from_entry(entry: CustomMessageEntry) -> AgentMessage:
    """``custom_message`` entry → ``{role:"custom", customType, content, display, details?, timestamp}``."""
    data: dict[str, Any] = {
        "role": "custom",
        "customType": entry.custom_type,
        "content": entry.content,
        "display": entry.display,
        "timestamp": iso_to_ms(entry.timestamp),
    }
    if entry.details is not None:
        data["details"] = entry.details
    return message_from_json(data)


def branch_summary_message(entry: BranchSummaryEntry) -> AgentMessage:
    """``branch_summary`` entry → ``{role:"branchSummary", summary, fromId, timestamp}``."""
    return message_from_json(
        {
            "role": "branchSummary",
            "summary": entry.summary,
            "fromId": entry.from_id,
            "timestamp": iso_to_ms(entry.timestamp),
        }
    )


def compaction_summary_message(entry: CompactionEntry) -> AgentMessage:
    """``compaction`` entry → ``{role:"compactionSummary", summary, tokensBefore, timestamp}``."""
    return message_from_json(
        {
            "role": "compactionSummary",
            "summary": entry.summary,
            "tokensBefore": entry.tokens_before,
            "timestamp": iso_to_ms(entry.timestamp),
        }
    )


def ui_message_from_entry(entry: CustomEntry) -> AgentMessage | None:
    """A ``pi-tui.notification`` / ``pi-tui.artifact`` custom entry → its UI-only message, else ``None``.

    The message is ``{role, **data}`` with ``timestamp`` (ms) taken from ``data`` or else the entry.
    """
    role = UI_CUSTOM_TYPES.get(entry.custom_type)
    if role is None:
        return None
    data = dict(entry.data) if isinstance(entry.data, dict) else {"content": entry.data}
    data["role"] = role
    if not isinstance(data.get("timestamp"), int | float):
        data["timestamp"] = iso_to_ms(entry.timestamp)
    return message_from_json(data)


def _path_to_root(leaf: SessionEntryBase, by_id: Mapping[str, SessionEntryBase]) -> list[SessionEntryBase]:
    path: list[SessionEntryBase] = []
    seen: set[str] = set()
    current: SessionEntryBase | None = leaf
    while current is not None and current.id not in seen:
        seen.add(current.id)
        path.append(current)
        parent = current.parent_id
        current = by_id.get(parent) if parent else None
    path.reverse()
    return path


def build_session_context(
    entries: Sequence[SessionEntryBase],
    leaf_id: str | None = UNSET,
    by_id: Mapping[str, SessionEntryBase] | None = None,
    *,
    include_ui: bool = False,
    close_interrupted: bool = False,
) -> SessionContext:
    """Context for the branch ending at ``leaf_id`` (pi-reference §3.4).

    ``leaf_id``: omitted → last entry; ``None`` → empty context; unknown id → last entry.
    ``by_id``: optional id index of ``entries``. ``include_ui``: also return notification/artifact messages
    (display only). ``close_interrupted``: put each batch's tool results in call order and answer calls that
    never finished with an ``interrupted`` error result (:mod:`.tool_results`; for the live agent after a
    resume, pi-tui only). Parent cycles and self-parented entries end the walk instead of looping.
    """
    context = _build(entries, leaf_id, by_id, include_ui)
    if close_interrupted:
        context.messages = settle_tool_results(context.messages, _results_in_file(entries))
    return context


def _results_in_file(entries: Sequence[SessionEntryBase]) -> dict[int, set[str]]:
    """For each assistant message of the file (by ``id()``): the call ids answered by a toolResult entry of its
    batch anywhere in the file (the toolResult entries that hang below it), on this branch or another. A call
    answered on another branch did finish: it is not "interrupted" when the leaf sits on the assistant."""
    index = {e.id: e for e in entries}
    results = {e.id for e in entries if isinstance(e, MessageEntry) and message_role(e.message) == "toolResult"}
    # The entry above each toolResult's run of results, found once per entry (pi fix 0.79.9: walking up the whole
    # run again for each result made a long run of results quadratic).
    above: dict[str, SessionEntryBase | None] = {}
    answered: dict[int, set[str]] = {}
    for entry in entries:
        if entry.id not in results:
            continue
        chain: list[str] = []
        current: SessionEntryBase | None = entry
        while current is not None and current.id in results and current.id not in above and current.id not in chain:
            chain.append(current.id)
            current = index.get(current.parent_id) if current.parent_id else None
        top = above.get(current.id) if current is not None and current.id in above else current
        if top is not None and top.id in results:
            top = None  # a parent cycle among results: no assistant above
        for walked in chain:
            above[walked] = top
        parent = top
        if isinstance(parent, MessageEntry) and message_role(parent.message) == "assistant":
            assert isinstance(entry, MessageEntry)
            call_id = message_field(entry.message, "toolCallId", "tool_call_id")
            if isinstance(call_id, str):
                answered.setdefault(id(parent.message), set()).add(call_id)
    return answered


def _build(
    entries: Sequence[SessionEntryBase],
    leaf_id: str | None,
    by_id: Mapping[str, SessionEntryBase] | None,
    include_ui: bool,
) -> SessionContext:
    if leaf_id is None:
        return SessionContext()
    index: Mapping[str, SessionEntryBase] = by_id if by_id is not None else {e.id: e for e in entries}
    leaf = index.get(leaf_id) if isinstance(leaf_id, str) else None
    if leaf is None:
        if not entries:
            return SessionContext()
        leaf = entries[-1]
    path = _path_to_root(leaf, index)

    context = SessionContext()
    compaction: CompactionEntry | None = None
    for entry in path:
        if isinstance(entry, ThinkingLevelChangeEntry):
            context.thinking_level = entry.thinking_level
        elif isinstance(entry, ModelChangeEntry):
            context.model = {"provider": entry.provider, "modelId": entry.model_id}
        elif isinstance(entry, MessageEntry) and message_role(entry.message) == "assistant":
            provider = message_field(entry.message, "provider")
            model_id = message_field(entry.message, "model")
            context.model = {"provider": str(provider or ""), "modelId": str(model_id or "")}
        elif isinstance(entry, CompactionEntry):
            compaction = entry

    def append(entry: SessionEntryBase) -> None:
        if isinstance(entry, MessageEntry):
            context.messages.append(entry.message)
        elif isinstance(entry, CustomMessageEntry):
            context.messages.append(custom_message_from_entry(entry))
        elif isinstance(entry, BranchSummaryEntry) and entry.summary:
            context.messages.append(branch_summary_message(entry))
        elif include_ui and isinstance(entry, CustomEntry):
            ui_message = ui_message_from_entry(entry)
            if ui_message is not None:
                context.messages.append(ui_message)

    if compaction is None:
        for entry in path:
            append(entry)
        return context

    context.messages.append(compaction_summary_message(compaction))
    compaction_index = next(i for i, e in enumerate(path) if e is compaction)
    kept = False
    for entry in path[:compaction_index]:
        if entry.id == compaction.first_kept_entry_id:
            kept = True
        if kept:
            append(entry)
    for entry in path[compaction_index + 1 :]:
        append(entry)
    return context
