"""v1/v2 → v3 migration (pi session-manager/migration tests, pi-reference §3.4 "Versions/migration")."""

from __future__ import annotations

import json
from pathlib import Path

from pi_tui.coding.session import SessionManager
from pi_tui.coding.session.migrate import migrate_to_current

from .helpers import read_lines, texts

V1 = [
    {"type": "session", "id": "old-session", "timestamp": "2025-01-01T00:00:00.000Z", "cwd": "/old"},
    {
        "type": "message",
        "timestamp": "2025-01-01T00:00:01.000Z",
        "message": {"role": "user", "content": "one", "timestamp": 1},
    },
    {
        "type": "message",
        "timestamp": "2025-01-01T00:00:02.000Z",
        "message": {
            "role": "assistant",
            "content": [{"type": "text", "text": "two"}],
            "provider": "p",
            "model": "m",
        },
    },
    {
        "type": "message",
        "timestamp": "2025-01-01T00:00:03.000Z",
        "message": {"role": "user", "content": "three", "timestamp": 3},
    },
    {
        "type": "compaction",
        "timestamp": "2025-01-01T00:00:04.000Z",
        "summary": "S",
        "firstKeptEntryIndex": 3,
        "tokensBefore": 9,
    },
    {
        "type": "message",
        "timestamp": "2025-01-01T00:00:05.000Z",
        "message": {
            "role": "hookMessage",
            "customType": "h",
            "content": "hooked",
            "display": True,
            "timestamp": 5,
        },
    },
]


def test_v1_gets_ids_parent_chain_and_first_kept_id() -> None:
    objects = json.loads(json.dumps(V1))
    assert migrate_to_current(objects) is True
    assert objects[0]["version"] == 3
    ids = [obj["id"] for obj in objects[1:]]
    assert all(len(i) == 8 for i in ids) and len(set(ids)) == len(ids)
    assert [obj["parentId"] for obj in objects[1:]] == [None, *ids[:-1]]
    assert objects[4]["firstKeptEntryId"] == objects[3]["id"] and "firstKeptEntryIndex" not in objects[4]
    assert objects[5]["message"]["role"] == "custom"


def test_migration_is_idempotent() -> None:
    objects = json.loads(json.dumps(V1))
    migrate_to_current(objects)
    snapshot = json.dumps(objects)
    assert migrate_to_current(objects) is False
    assert json.dumps(objects) == snapshot


def test_v2_only_renames_hook_messages() -> None:
    objects = [
        {"type": "session", "version": 2, "id": "s", "timestamp": "t", "cwd": "/"},
        {
            "type": "message",
            "id": "aaaaaaaa",
            "parentId": None,
            "timestamp": "t",
            "message": {"role": "hookMessage"},
        },
    ]
    assert migrate_to_current(objects) is True
    assert objects[1]["id"] == "aaaaaaaa" and objects[1]["message"]["role"] == "custom"


def test_opening_an_old_file_rewrites_it(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(obj) + "\n" for obj in V1))
    session = SessionManager.open(path)
    lines = read_lines(path)
    assert lines[0]["version"] == 3 and all("id" in line for line in lines[1:])
    assert texts(session.build_session_context().messages) == [
        "compactionSummary:S",
        "user:three",
        "custom:hooked",
    ]
    again = SessionManager.open(path)
    assert [e.id for e in again.get_entries()] == [e.id for e in session.get_entries()]
    assert path.read_text() == "".join(
        json.dumps(x, ensure_ascii=False, separators=(",", ":")) + "\n" for x in lines
    )
