"""Reading a session file into a header and entry models (pi-reference §3.4 "Versions/migration").

:func:`load_session_entries` never raises for bad content: every complete record is taken out of damaged
lines and the damaged bytes are reported (see :mod:`pi_tui.coding.session.recovery`), a damaged header is
recovered or made up when session entries follow, objects that cannot be entries (no ``type``/``id``) too,
entries left without their parent by a skipped line are re-linked to the entry before them (so no good entry
drops out of the context), and older versions are migrated in memory (the caller rewrites the file).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uuid6 import uuid7

from pi_tui.coding.session.compact import compact_message
from pi_tui.coding.session.entries import (
    EntryError,
    MessageEntry,
    SessionEntry,
    SessionHeader,
    entry_from_json,
    iso_now,
)
from pi_tui.coding.session.fast_load import paused_gc, stream_clean_file
from pi_tui.coding.session.migrate import migrate_to_current
from pi_tui.coding.session.recovery import DamagedSpan, damaged_side_file, is_entry_like
from pi_tui.coding.session.session_file import read_session_file, write_bytes_atomic


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
    ``exists``, ``empty`` (no JSON object at all), ``migrated`` (entries were upgraded to v3 in memory),
    ``damaged`` (bytes that held no complete record), ``header_recovered`` (the header was damaged: one was
    found further down or made up, see :func:`_recover_header`; the caller rewrites the file), ``reencoded`` (the
    file was not UTF-8, e.g. ``"UTF-16"``; the caller rewrites it as UTF-8 before appending)."""

    header: SessionHeader | None
    entries: list[SessionEntry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    exists: bool = False
    empty: bool = True
    migrated: bool = False
    read_error: str | None = None
    damaged: list[DamagedSpan] = field(default_factory=list)
    header_recovered: bool = False
    reencoded: str | None = None


def load_session_entries(path: str | os.PathLike[str], migrate: bool = True) -> LoadedSession:
    """Read a session file: header, entries (migrated to v3 in memory), warnings. Never raises for content.

    A clean current-version file is read in one pass, each line parsed once into its entry
    (:mod:`pi_tui.coding.session.fast_load`); anything else goes through the full reader below."""
    with paused_gc():
        loaded = _load_clean(path)
        if loaded is None:
            loaded = _load_full(path, migrate)
            for entry in loaded.entries:
                _compact(entry)
        return loaded


def _compact(entry: SessionEntry) -> None:
    """Shared field-name sets and interned short strings in a loaded message (:mod:`.compact`, RSS, issue 15)."""
    if isinstance(entry, MessageEntry):
        compact_message(entry.message)


def _load_clean(path: str | os.PathLike[str]) -> LoadedSession | None:
    """The one-pass load of a clean file (same result as :func:`_load_full`), else ``None``."""
    loaded = LoadedSession(header=None, exists=True, empty=False)

    def take(number: int, obj: Any) -> None:
        if isinstance(obj, dict) and obj.get("type") == "session":
            loaded.warnings.append(f"{path}: skipped an extra session header (object {number})")
            return
        try:
            entry = entry_from_json(obj)
        except EntryError as error:
            loaded.warnings.append(f"{path}: skipped object {number}: {error}")
            return
        _compact(entry)  # at once: the next entry reuses the memory of the sets it frees
        loaded.entries.append(entry)

    try:
        header = stream_clean_file(path, header_from_json, take)
    except OSError:
        return None  # missing or unreadable: the full reader says which
    if header is None:
        return None
    loaded.header = header
    _relink_orphans(loaded, path)
    return loaded


def _load_full(path: str | os.PathLike[str], migrate: bool) -> LoadedSession:
    raw = read_session_file(path)
    loaded = LoadedSession(
        header=None,
        warnings=list(raw.warnings),
        exists=raw.exists,
        empty=not raw.objects,
        read_error=raw.read_error,
        damaged=list(raw.damaged),
        reencoded=raw.reencoded,
    )
    if not raw.objects:
        return loaded
    objects = raw.objects
    loaded.header = header_from_json(objects[0])
    if loaded.header is None:
        recovered = _recover_header(objects, path, loaded)
        if recovered is None:
            return loaded
        objects = recovered
        loaded.header = header_from_json(objects[0])
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


def save_damaged_bytes(path: Path, spans: list[DamagedSpan]) -> str:
    """Save the bytes a crash damaged to ``<file>.damaged`` (JSONL, :func:`recovery.damaged_side_file`), so
    nothing is destroyed even when the session file is rewritten later; returns the warning to show. The same
    damage found again is not written again. Never raises."""
    side = path.with_name(f"{path.name}.damaged")
    content = damaged_side_file(spans)
    total = sum(span.length for span in spans)
    try:
        if not (side.exists() and side.read_bytes() == content):
            write_bytes_atomic(side, content)
    except OSError as error:
        return f"{path}: could not save the {total} damaged bytes to {side}: {error.strerror or error}"
    return f"{path}: {total} damaged bytes ({len(spans)} spans) kept in {side}"


def _recover_header(
    objects: list[Any], path: str | os.PathLike[str], loaded: LoadedSession
) -> list[Any] | None:
    """Objects with a header first when the first object is not one but session entries follow (a crash tore or
    zeroed the header line): a valid header further down is moved to the front, else one is made up (id from
    the ``<ts>_<id>.jsonl`` file name when it has one, version 1 when no entry has an ``id``, else 3; empty
    ``cwd``, for the caller to fill in). ``None`` when no object is a session entry (not a session file)."""
    entries = [o for o in objects if is_entry_like(o) and o.get("type") != "session"]
    if not entries:
        return None
    found = next((o for o in objects if header_from_json(o) is not None), None)
    if found is None:
        stem = Path(path).stem
        session_id = stem.split("_", 1)[1] if "_" in stem else new_session_id()
        version = 3 if all(isinstance(o.get("id"), str) for o in entries) else 1
        found = {"type": "session", "version": version, "id": session_id, "timestamp": iso_now(), "cwd": ""}
        loaded.warnings.append(
            f"{path}: no valid session header (damaged?); the entries were kept under a new one (id {session_id})"
        )
    else:
        loaded.warnings.append(f"{path}: the session header was not the first record; it was moved back")
    loaded.header_recovered = True
    return [found, *(o for o in objects if o is not found)]


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
