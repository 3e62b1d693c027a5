"""Session ids are UUIDv7 (pi session-manager/custom-session-id tests)."""

from __future__ import annotations

import uuid
from pathlib import Path

from pi_tui.coding.session import SessionManager


def test_new_sessions_get_uuid7_ids_in_time_order(tmp_path: Path) -> None:
    ids = [SessionManager.create("/p", tmp_path).session_id for _ in range(20)]
    parsed = [uuid.UUID(i) for i in ids]
    assert all(u.version == 7 for u in parsed)
    assert len(set(ids)) == 20
    assert [u.int >> 80 for u in parsed] == sorted(u.int >> 80 for u in parsed)  # 48-bit ms prefix


def test_explicit_session_id_and_parent(tmp_path: Path) -> None:
    session = SessionManager.create("/p", tmp_path)
    path = session.new_session("my-custom-id", parent_session="/x/y.jsonl")
    assert session.session_id == "my-custom-id"
    assert path is not None and path.name.endswith("_my-custom-id.jsonl")
    assert session.header.to_json_dict()["parentSession"] == "/x/y.jsonl"


def test_in_memory_ids_are_uuid7() -> None:
    assert uuid.UUID(SessionManager.in_memory("/p").session_id).version == 7
