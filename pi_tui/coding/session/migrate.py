"""Session format migrations v1 → v2 → v3 (pi-reference §3.4 "Versions/migration").

They work on the raw JSON objects of a file (header first) and mutate them in place:

- v1 → v2: v1 files are linear and have no ids. Every entry gets a fresh 8-hex ``id`` and ``parentId`` = the
  previous entry's id (``None`` for the first); a compaction's ``firstKeptEntryIndex`` (index into the file's
  objects, header included) becomes ``firstKeptEntryId``.
- v2 → v3: message role ``hookMessage`` is renamed ``custom``.

A header without ``version`` counts as v1. Running the migration on a current file changes nothing
(idempotent). The caller rewrites the file when :func:`migrate_to_current` returns True.
"""

from __future__ import annotations

from typing import Any

from pi_tui.coding.session.entries import CURRENT_SESSION_VERSION, generate_entry_id


def _header(objects: list[Any]) -> dict[str, Any] | None:
    for obj in objects:
        if isinstance(obj, dict) and obj.get("type") == "session":
            return obj
    return None


def file_version(objects: list[Any]) -> int:
    """Version of a file's header (1 when missing or not an int)."""
    header = _header(objects)
    version = header.get("version") if header else None
    return version if isinstance(version, int) else 1


def migrate_v1_to_v2(objects: list[Any]) -> None:
    """Add ids/parentIds (linear chain) and convert ``firstKeptEntryIndex`` → ``firstKeptEntryId``."""
    used: set[str] = set()
    previous: str | None = None
    for obj in objects:
        if not isinstance(obj, dict):
            continue
        if obj.get("type") == "session":
            obj["version"] = 2
            continue
        entry_id = generate_entry_id(used)
        used.add(entry_id)
        obj["id"] = entry_id
        obj["parentId"] = previous
        previous = entry_id
    for obj in objects:
        if not isinstance(obj, dict) or obj.get("type") != "compaction":
            continue
        index = obj.pop("firstKeptEntryIndex", None)
        if isinstance(index, int) and 0 <= index < len(objects):
            target = objects[index]
            if isinstance(target, dict) and target.get("type") != "session" and "id" in target:
                obj["firstKeptEntryId"] = target["id"]


def migrate_v2_to_v3(objects: list[Any]) -> None:
    """Rename message role ``hookMessage`` → ``custom``; set the header version to 3."""
    for obj in objects:
        if not isinstance(obj, dict):
            continue
        if obj.get("type") == "session":
            obj["version"] = 3
            continue
        message = obj.get("message")
        if (
            obj.get("type") == "message"
            and isinstance(message, dict)
            and message.get("role") == "hookMessage"
        ):
            message["role"] = "custom"


def migrate_to_current(objects: list[Any]) -> bool:
    """Bring ``objects`` (header + entries) to :data:`CURRENT_SESSION_VERSION`; True if anything changed."""
    version = file_version(objects)
    if version >= CURRENT_SESSION_VERSION:
        return False
    if version < 2:
        migrate_v1_to_v2(objects)
    if version < 3:
        migrate_v2_to_v3(objects)
    return True
