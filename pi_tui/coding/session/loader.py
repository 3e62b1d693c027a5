"""Reading a session file into a header and entry models (pi-reference §3.4 "Versions/migration").

:func:`load_session_entries` never raises for bad content: unreadable lines are skipped with a warning
(see :mod:`pi_tui.coding.session.session_file`), objects that cannot be entries (no ``type``/``id``) too,
entries left without their parent by a skipped line are re-linked to the entry before them (so no good entry
drops out of the context), and older versions are migrated in memory (the caller rewrites the file).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from uuid6 import uuid7

from pi_tui.coding.session.entries import EntryError, SessionEntry, SessionHeader, entry_from_json
from pi_tui.coding.session.migrate import migrate_to_current
from pi_tui.coding.session.session_file import read_session_file


def new_session_id() -> str:
    """A fresh session id: UUIDv7 string (time-ordered)."""
    return str(uuid7())


def session_file_name(timestamp: str, session_id: str) -> str:
    """``<ts>_<id>.jsonl`` with ``:`` and ``.`` of the ISO timestamp replaced by ``-``."""
    return f"{timestamp.replace(':', '-').replace('.', '-')}_{session_id}.jsonl"


def header_from_json(obj: Any) -> SessionHeader | None:
    """A valid header object (``type`` ``"session"`` and a string ``id``) as a model, else ``None``."""
    if not isinstance(obj, dict) or obj.get("type") != "session" or not isinstance(obj.get("id"), str):
        return None
    try:
        return SessionHeader.model_validate(obj)
    except ValueError:
        return None


@dataclass
class LoadedSession:
    """A session file as read: ``header`` (``None`` if invalid), ``entries``, ``warnings`` (skipped lines),
    ``exists``, ``empty`` (no JSON object at all), ``migrated`` (entries were upgraded to v3 in memory)."""

    header: SessionHeader | None
    entries: list[SessionEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    exists: bool = False
    empty: bool = True
    migrated: bool = False
    read_error: str | None = None


def load_session_entries(path: str | os.PathLike[str], migrate: bool = True) -> LoadedSession:
    """Read a session file: header, entries (migrated to v3 in memory), warnings. Never raises for content."""
    raw = read_session_file(path)
    loaded = LoadedSession(
        header=None,
        warnings=list(raw.warnings),
        exists=raw.exists,
        empty=not raw.objects,
        read_error=raw.read_error,
    )
    if not raw.objects:
        return loaded
    loaded.header = header_from_json(raw.objects[0])
    if loaded.header is None:
        return loaded
    objects = raw.objects
    if migrate and migrate_to_current(objects):
        loaded.migrated = True
        loaded.header = header_from_json(objects[0])
    for number, obj in enumerate(objects[1:], start=2):
        if isinstance(obj, dict) and obj.get("type") == "session":
            loaded.warnings.append(f"{path}: skipped an extra session header (object {number})")
            continue
        try:
            loaded.entries.append(entry_from_json(obj))
        except EntryError as error:
            loaded.warnings.append(f"{path}: skipped object {number}: {error}")
    _relink_orphans(loaded, path)
    return loaded


def _relink_orphans(loaded: LoadedSession, path: str | os.PathLike[str]) -> None:
    """Entries whose parent is missing (its line was torn, corrupt or skipped) are re-linked, in memory, to the
    entry just before them in the file. Without this the path from the leaf stops at the gap and every good
    entry before it silently drops out of the context. Parents always precede their children in a session
    file (pi-reference §3.4), so "seen earlier in the file" is the test; the file itself is not rewritten."""
    seen: set[str] = set()
    previous: str | None = None
    for entry in loaded.entries:
        parent = entry.parent_id
        if parent is not None and parent not in seen:
            entry.parent_id = previous
            loaded.warnings.append(
                f"{path}: entry {entry.id} referred to a missing parent {parent}; "
                f"attached to the entry before it ({previous or 'the session start'})"
            )
        seen.add(entry.id)
        previous = entry.id
