"""Compaction preparation: boundary, cut point, split turns, file operations (pi-reference §3.9).

Entries are session entries (H6's pydantic entries or pi JSON dicts) of one branch, root first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pi_tui.coding.messages import BranchSummaryMessage, CustomMessage

from .tokens import estimate_context_tokens, estimate_tokens

CUT_ROLES = frozenset({"user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"})
TURN_START_ROLES = frozenset({"user", "bashExecution"})


@dataclass
class CompactionSettings:
    """``compaction.*`` settings: ``enabled`` (True), ``reserve_tokens`` (16384), ``keep_recent_tokens`` (20000)."""

    enabled: bool = True
    reserve_tokens: int = 16384
    keep_recent_tokens: int = 20000


@dataclass
class CutPoint:
    """``first_kept_index`` entry index kept from; ``turn_start_index`` (-1 unless split); ``is_split_turn``."""

    first_kept_index: int
    turn_start_index: int
    is_split_turn: bool


@dataclass
class CompactionPreparation:
    """Everything the summariser needs (pi's ``CompactionPreparation``)."""

    first_kept_entry_id: str
    messages_to_summarize: list[Any]
    turn_prefix_messages: list[Any]
    is_split_turn: bool
    tokens_before: int
    previous_summary: str | None
    read_files: set[str] = field(default_factory=set)
    modified_files: set[str] = field(default_factory=set)
    settings: CompactionSettings = field(default_factory=CompactionSettings)


def _get(obj: Any, name: str, alias: str | None = None) -> Any:
    if isinstance(obj, dict):
        if name in obj:
            return obj[name]
        return obj.get(alias) if alias else None
    value = getattr(obj, name, None)
    if value is None and alias:
        value = getattr(obj, alias, None)
    return value


def _role(entry: Any) -> str | None:
    if _get(entry, "type") != "message":
        return None
    return _get(_get(entry, "message"), "role")


def _valid_cut_points(entries: Sequence[Any], start: int, end: int) -> list[int]:
    points = []
    for i in range(start, end):
        kind = _get(entries[i], "type")
        if (kind == "message" and _role(entries[i]) in CUT_ROLES) or kind in ("branch_summary", "custom_message"):
            points.append(i)
    return points


def find_turn_start(entries: Sequence[Any], index: int, start: int) -> int:
    """Index of the user/bashExecution/branch_summary/custom_message entry that starts ``index``'s turn, or -1."""
    for i in range(index, start - 1, -1):
        kind = _get(entries[i], "type")
        if kind in ("branch_summary", "custom_message") or _role(entries[i]) in TURN_START_ROLES:
            return i
    return -1


def find_cut_point(entries: Sequence[Any], start: int, end: int, keep_recent_tokens: int) -> CutPoint:
    """Where to cut so that about ``keep_recent_tokens`` of recent messages stay (never at a toolResult)."""
    points = _valid_cut_points(entries, start, end)
    if not points:
        return CutPoint(start, -1, False)
    cut = points[0]
    accumulated = 0
    for i in range(end - 1, start - 1, -1):
        # every entry the context shows counts: messages, and custom messages and branch summaries (pi 0.80.4,
        # #6326: those were skipped, so far more than ``keep_recent_tokens`` was kept)
        message = message_for_compaction(entries[i])
        if message is None:
            continue
        accumulated += estimate_tokens(message)
        if accumulated >= keep_recent_tokens:
            # no cut point at or after ``i`` (the newest turn's tool results alone exceed the budget): cut at the
            # last one before it, so the history before that turn is still summarised (pi 0.86.0, #9740: the
            # whole history was kept and a mid-run compaction did nothing)
            after = next((p for p in points if p >= i), None)
            cut = after if after is not None else next((p for p in reversed(points) if p < i), cut)
            break
    while cut > start:
        previous_type = _get(entries[cut - 1], "type")
        if previous_type in ("compaction", "message"):
            break
        cut -= 1
    if _role(entries[cut]) == "user":
        return CutPoint(cut, -1, False)
    turn_start = find_turn_start(entries, cut, start)
    return CutPoint(cut, turn_start, turn_start != -1)


def message_for_compaction(entry: Any) -> Any | None:
    """The agent message an entry contributes to a summary (None for settings, compactions, UI-only entries)."""
    kind = _get(entry, "type")
    if kind == "message":
        message = _get(entry, "message")
        return None if _get(message, "role") in ("notification", "artifact") else message
    if kind == "custom_message":
        return CustomMessage(
            custom_type=_get(entry, "custom_type", "customType") or "",
            content=_get(entry, "content") or "",
            display=bool(_get(entry, "display")),
            details=_get(entry, "details"),
        )
    if kind == "branch_summary" and _get(entry, "summary"):
        return BranchSummaryMessage(summary=_get(entry, "summary"), from_id=_get(entry, "from_id", "fromId") or "root")
    return None


def _collect_file_ops(messages: Sequence[Any], read: set[str], modified: set[str]) -> None:
    for message in messages:
        if _get(message, "role") != "assistant":
            continue
        for block in _get(message, "content") or []:
            if _get(block, "type") != "toolCall":
                continue
            path = (_get(block, "arguments") or {}).get("path")
            if not isinstance(path, str):
                continue
            name = _get(block, "name")
            if name == "read":
                read.add(path)
            elif name in ("write", "edit"):
                modified.add(path)


def prepare_compaction(
    entries: Sequence[Any], settings: CompactionSettings, context_messages: Sequence[Any] | None = None
) -> CompactionPreparation | None:
    """Plan a compaction of a branch; ``None`` when the last entry is already a compaction (or no ids).

    ``context_messages``: the branch's rebuilt context (for ``tokens_before``); estimated from the entries
    when omitted.
    """
    if not entries or _get(entries[-1], "type") == "compaction":
        return None
    previous_index = next((i for i in range(len(entries) - 1, -1, -1) if _get(entries[i], "type") == "compaction"), -1)
    previous_summary: str | None = None
    start = 0
    read: set[str] = set()
    modified: set[str] = set()
    if previous_index >= 0:
        previous = entries[previous_index]
        previous_summary = _get(previous, "summary")
        kept_id = _get(previous, "first_kept_entry_id", "firstKeptEntryId")
        kept_index = next((i for i, e in enumerate(entries) if _get(e, "id") == kept_id), -1)
        start = kept_index if kept_index >= 0 else previous_index + 1
        details = _get(previous, "details")
        if isinstance(details, dict):
            read.update(p for p in details.get("readFiles", []) if isinstance(p, str))
            modified.update(p for p in details.get("modifiedFiles", []) if isinstance(p, str))
    if context_messages is None:
        context_messages = [m for m in (message_for_compaction(e) for e in entries[start:]) if m is not None]
    tokens_before = estimate_context_tokens(list(context_messages)).tokens
    cut = find_cut_point(entries, start, len(entries), settings.keep_recent_tokens)
    first_kept = entries[cut.first_kept_index]
    first_kept_id = _get(first_kept, "id")
    if not first_kept_id:
        return None
    history_end = cut.turn_start_index if cut.is_split_turn else cut.first_kept_index
    to_summarize = [m for m in (message_for_compaction(e) for e in entries[start:history_end]) if m is not None]
    prefix: list[Any] = []
    if cut.is_split_turn:
        prefix = [
            m
            for m in (message_for_compaction(e) for e in entries[cut.turn_start_index : cut.first_kept_index])
            if m is not None
        ]
    _collect_file_ops(to_summarize + prefix, read, modified)
    return CompactionPreparation(
        first_kept_entry_id=str(first_kept_id),
        messages_to_summarize=to_summarize,
        turn_prefix_messages=prefix,
        is_split_turn=cut.is_split_turn,
        tokens_before=tokens_before,
        previous_summary=previous_summary,
        read_files=read,
        modified_files=modified,
        settings=settings,
    )
