"""Path extraction for forking and export (pi-reference §3.4 "Forking").

:func:`path_with_labels` gives the entries of one root → leaf path without its ``label`` entries, followed by
fresh label entries re-creating the labels that point into the path (chained after the last entry, keeping
their original timestamps). An entry whose parent was a dropped label is re-chained to the entry before it, and
a compaction that kept from a dropped label keeps from the next entry instead (the same messages stay in the
context; pi 0.85.0, #8989: the cut of a compaction moves back over non-message entries, labels included, so
``firstKeptEntryId`` can name a label). :func:`linear_export` gives pi's ``exportToJsonl`` lines: a new header and the
branch with ``parentId``s re-chained into a straight line.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pi_tui.coding.session.entries import (
    CURRENT_SESSION_VERSION,
    CompactionEntry,
    LabelEntry,
    SessionEntry,
    generate_entry_id,
    iso_now,
)
from pi_tui.coding.session.session_file import rewrite_file


def path_with_labels(
    path: Sequence[SessionEntry], labels: Mapping[str, str], label_timestamps: Mapping[str, str]
) -> list[SessionEntry]:
    """``path`` minus label entries, plus one re-created label entry per labelled entry of the path (module
    docstring: parents and compaction boundaries that named a dropped label are moved to kept entries)."""
    kept: list[SessionEntry] = []
    replaced: dict[str, str | None] = {}  # dropped label id -> the kept entry before it (its new parent)
    next_kept: dict[str, str] = {}  # dropped label id -> the first kept entry after it (a boundary's new start)
    pending: list[str] = []
    for entry in path:
        if isinstance(entry, LabelEntry):
            replaced[entry.id] = kept[-1].id if kept else None
            pending.append(entry.id)
            continue
        for label_id in pending:
            next_kept[label_id] = entry.id
        pending = []
        if entry.parent_id in replaced:
            entry = entry.model_copy(update={"parent_id": replaced[entry.parent_id]})
        if isinstance(entry, CompactionEntry) and entry.first_kept_entry_id in next_kept:
            entry = entry.model_copy(update={"first_kept_entry_id": next_kept[entry.first_kept_entry_id]})
        kept.append(entry)
    used = {entry.id for entry in kept}
    parent_id: str | None = kept[-1].id if kept else None
    for entry in list(kept):
        label = labels.get(entry.id)
        if label is None:
            continue
        label_entry = LabelEntry.new(
            id=generate_entry_id(used),
            parent_id=parent_id,
            timestamp=label_timestamps.get(entry.id, iso_now()),
            target_id=entry.id,
            label=label,
        )
        used.add(label_entry.id)
        kept.append(label_entry)
        parent_id = label_entry.id
    return kept


def linear_export(session_id: str, cwd: str, branch: Sequence[SessionEntry]) -> list[dict[str, Any]]:
    """Header (new timestamp, same id and cwd) + ``branch`` with each ``parentId`` = the previous entry's id."""
    lines: list[dict[str, Any]] = [
        {
            "type": "session",
            "version": CURRENT_SESSION_VERSION,
            "id": session_id,
            "timestamp": iso_now(),
            "cwd": cwd,
        }
    ]
    previous: str | None = None
    for entry in branch:
        data = entry.to_json_dict()
        data["parentId"] = previous
        lines.append(data)
        previous = entry.id
    return lines


def export_branch_jsonl(
    session_id: str, cwd: str, branch: Sequence[SessionEntry], output_path: str | os.PathLike[str] | None = None
) -> Path:
    """Write :func:`linear_export` of ``branch`` to ``output_path`` (default ``session-<ts>.jsonl`` in the process
    cwd) whole or not at all; returns the absolute path. Raises ``OSError`` when it cannot be written."""
    if output_path is None:
        output_path = "session-" + iso_now().replace(":", "-").replace(".", "-") + ".jsonl"
    target = Path(output_path).resolve()
    rewrite_file(target, linear_export(session_id, cwd, branch))
    return target
