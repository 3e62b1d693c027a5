"""The end of a session file, read before the whole file is (issue 15: a 10,000-message session on screen within a
second of the process start).

:func:`read_session_tail` reads the header line and the last bytes of a clean, current-version session file,
turns the complete lines there into entries (the same :func:`~pi_tui.coding.session.entries.entry_from_json` the
full reader uses) and walks ``parentId`` back from the last entry, the leaf a full load ends at (pi-reference
§3.4: every append makes the new entry the leaf; parents come before their children in the file). The result is
the end of the current branch, root-most entry first, with the labels the tail sets.

It is a preview only: the full load (``SessionManager.open``) still reads and checks everything. So the tail
gives up (``None``) at anything only the full reader handles: no file, a byte-order mark, a header that is not
a session header of the current version or later (an older file needs migrating), NUL bytes, a line inside the
tail that is not complete JSON or not an entry (damage the full reader recovers from and reports). Only the
last line may be incomplete (a write in progress or torn by a crash): it is left out, as the full reader
leaves it out of the branch. Labels set before the tail are not known to it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from pi_tui.coding.session.entries import (
    CURRENT_SESSION_VERSION,
    EntryError,
    LabelEntry,
    SessionEntry,
    entry_from_json,
)

TAIL_BYTES = 192 * 1024
"""Bytes read from the end at first (about 200 messages of a typical session: a few screens); a tail whose
last entry does not fit is read again four times larger, up to the whole file."""

HEADER_LIMIT = 1024 * 1024
"""Longest header line read (a header is one short object)."""

_UNCLEAN_STARTS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")  # UTF-8 / UTF-16 byte-order marks


@dataclass
class SessionTail:
    """The end of a session's current branch: ``entries`` root-most first, ending at the leaf; ``labels`` (entry
    id -> label) as the tail's label entries leave them; ``whole`` when the tail reached the branch's root (the
    file was read from its header on). ``get_branch``/``get_label`` read like a SessionManager's."""

    entries: list[SessionEntry]
    labels: dict[str, str] = field(default_factory=dict)
    whole: bool = False

    def get_branch(self) -> list[SessionEntry]:
        """The entries, root-most first (a copy)."""
        return list(self.entries)

    def get_label(self, entry_id: str) -> str | None:
        """The label the tail gives ``entry_id``, or None."""
        return self.labels.get(entry_id)


def _header_ok(line: bytes) -> bool:
    if line.startswith(_UNCLEAN_STARTS) or b"\x00" in line or not line.endswith(b"\n"):
        return False
    try:
        obj = json.loads(line.decode("utf-8"))
    except ValueError:
        return False
    return (isinstance(obj, dict) and obj.get("type") == "session" and isinstance(obj.get("id"), str)
            and isinstance(obj.get("version"), int) and obj["version"] >= CURRENT_SESSION_VERSION)


def _entries(chunk: bytes, from_start: bool) -> list[SessionEntry] | None:
    """Entries of the complete lines of ``chunk`` (its first piece is cut unless ``from_start``); ``None`` at
    damage (module docstring)."""
    lines = chunk.split(b"\n")
    if not from_start:
        lines = lines[1:]  # begins inside a line
    lines.pop()  # after the final newline: b"" or a line still being written
    entries: list[SessionEntry] = []
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if b"\x00" in line:
            return None
        try:
            obj: Any = json.loads(line.decode("utf-8"))
        except ValueError:
            return None
        if isinstance(obj, dict) and obj.get("type") == "session":
            return None  # an extra header: the full reader's warnings
        try:
            entries.append(entry_from_json(obj))
        except EntryError:
            return None
    return entries


def read_session_tail(path: str | os.PathLike[str], max_bytes: int = TAIL_BYTES) -> SessionTail | None:
    """The end of the current branch of the session file at ``path`` from its last ``max_bytes`` (or more, when
    the last entry is longer), or ``None`` (module docstring). Never raises for content or a missing file."""
    try:
        with open(path, "rb") as handle:
            header = handle.readline(HEADER_LIMIT)
            if not _header_ok(header):
                return None
            body_start = len(header)
            size = os.fstat(handle.fileno()).st_size
            want = max(1, max_bytes)
            while True:
                start = max(body_start, size - want)
                handle.seek(start)
                entries = _entries(handle.read(size - start), from_start=start == body_start)
                if entries is None:
                    return None
                if entries or start == body_start:
                    break
                want *= 4
    except OSError:
        return None
    if not entries:
        return SessionTail([], whole=True)
    by_id = {entry.id: entry for entry in entries}
    branch = [entries[-1]]
    while branch[-1].parent_id is not None and branch[-1].parent_id in by_id:
        branch.append(by_id[branch[-1].parent_id])
    branch.reverse()
    labels: dict[str, str] = {}
    for entry in entries:
        if isinstance(entry, LabelEntry):
            if entry.label:
                labels[entry.target_id] = entry.label
            else:
                labels.pop(entry.target_id, None)
    return SessionTail(branch, labels, whole=start == body_start and branch[0].parent_id is None)
