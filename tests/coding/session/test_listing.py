"""Session listing for /resume and -c (pi-reference §3.4 "Listing", §5 item 8: lazy metadata)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.coding.config.paths import encode_cwd
from pi_tui.coding.session import SessionManager
from pi_tui.coding.session.listing import build_session_info

from .helpers import assistant, user


def _session(directory: Path, first: str, t0: int, name: str | None = None) -> SessionManager:
    session = SessionManager.create("/proj", directory)
    session.append_model_change("mock", "mock-model")
    session.append_message(user(first, timestamp=t0))
    session.append_message(assistant("answer " + first, timestamp=t0 + 10))
    session.append_message(
        {
            "role": "toolResult",
            "toolCallId": "c",
            "toolName": "t",
            "content": [],
            "isError": False,
            "timestamp": t0 + 99999,
        }
    )
    if name:
        session.append_session_info(name)
    return session


def test_list_sessions_metadata_and_order(tmp_path: Path) -> None:
    old = _session(tmp_path, "old question", 1_000_000, name="Old one")
    new = _session(tmp_path, "new question", 2_000_000)
    (tmp_path / "broken.jsonl").write_text("not a header\n")
    (tmp_path / "notes.txt").write_text("ignored")
    infos = SessionManager.list_sessions("/proj", tmp_path)
    assert [info.id for info in infos] == [new.session_id, old.session_id]
    first = infos[1]
    assert first.path == old.session_file
    assert first.cwd == "/proj" and first.name == "Old one" and first.parent_session_path is None
    assert first.message_count == 3
    assert first.first_message == "old question"
    assert first.modified.timestamp() * 1000 == pytest.approx(1_000_010)  # last user/assistant message
    assert first.all_messages_text() == "old question answer old question"


def test_session_without_messages(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text(
        json.dumps(
            {"type": "session", "version": 3, "id": "x", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/c"}
        )
        + "\n"
    )
    info = build_session_info(path)
    assert info is not None
    assert info.first_message == "(no messages)" and info.message_count == 0
    assert info.modified == info.created


def test_lines_with_other_key_order_are_still_counted(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    lines = [
        {"type": "session", "version": 3, "id": "x", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/c"},
        {
            "id": "a1",
            "type": "message",
            "parentId": None,
            "timestamp": "t",
            "message": {"content": "hi there", "role": "user", "timestamp": 5},
        },
        {"name": "Named", "type": "session_info", "id": "a2", "parentId": "a1", "timestamp": "t"},
    ]
    path.write_text("".join(json.dumps(obj) + "\n" for obj in lines))
    info = build_session_info(path)
    assert info is not None
    assert (info.message_count, info.first_message, info.name) == (1, "hi there", "Named")


def test_list_all_sessions_across_projects(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    a = _session(root / encode_cwd("/a"), "in a", 10_000)
    b = _session(root / encode_cwd("/b"), "in b", 20_000)
    infos = SessionManager.list_all_sessions(root)
    assert [info.id for info in infos] == [b.session_id, a.session_id]
    assert SessionManager.list_all_sessions(tmp_path / "missing") == []


def test_fork_from_copies_entries_into_target_project(tmp_path: Path) -> None:
    source = _session(tmp_path / "src", "question", 1)
    forked = SessionManager.fork_from(source.session_file, "/target", tmp_path / "dst")  # type: ignore[arg-type]
    assert forked.cwd == "/target" and forked.session_id != source.session_id
    assert [e.id for e in forked.get_entries()] == [e.id for e in source.get_entries()]
    assert forked.header.parent_session == str(source.session_file)
    with pytest.raises(ValueError, match="Cannot fork"):
        bad = tmp_path / "bad.jsonl"
        bad.write_text("x\n")
        SessionManager.fork_from(bad, "/t", tmp_path / "dst")
