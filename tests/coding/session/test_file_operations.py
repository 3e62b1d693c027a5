"""Loading and writing session files (pi session-manager/file-operations tests, pi-reference §3.4, §5.8)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from pi_tui.coding.session import SessionFileError, SessionManager
from pi_tui.coding.session.session_file import encode_line, parse_jsonl_bytes
from pi_tui.coding.session.session_manager import load_session_entries

from .helpers import assistant, read_lines, texts, user


def _write_session(directory: Path, turns: int = 2) -> SessionManager:
    session = SessionManager.create("/proj", directory)
    session.append_model_change("mock", "mock-model")
    for turn in range(turns):
        session.append_message(user(f"q{turn}"))
        session.append_message(assistant(f"a{turn}"))
    return session


def test_nothing_written_before_first_assistant_message(tmp_path: Path) -> None:
    session = SessionManager.create("/proj", tmp_path)
    session.append_model_change("mock", "mock-model")
    session.append_thinking_level_change("off")
    session.append_message(user("hello"))
    assert session.session_file is not None and not session.session_file.exists()
    assert not session.is_flushed()
    session.append_message(assistant("hi"))
    lines = read_lines(session.session_file)
    assert [line["type"] for line in lines] == [
        "session",
        "model_change",
        "thinking_level_change",
        "message",
        "message",
    ]
    session.append_message(user("again"))
    assert len(read_lines(session.session_file)) == 6
    assert session.session_file.name.endswith(f"_{session.session_id}.jsonl")
    assert session.session_file.stat().st_mode & 0o777 == 0o600


def test_in_memory_session_never_writes(tmp_path: Path, monkeypatch: object) -> None:
    session = SessionManager.in_memory(str(tmp_path))
    session.append_message(user("q"))
    session.append_message(assistant("a"))
    assert session.session_file is None
    assert list(tmp_path.iterdir()) == []


def test_open_missing_path_keeps_explicit_path(tmp_path: Path) -> None:
    target = tmp_path / "explicit.jsonl"
    session = SessionManager.open(target)
    assert session.session_file == target.resolve()
    session.append_message(user("q"))
    assert not target.exists()
    session.append_message(assistant("a"))
    assert read_lines(target)[0]["type"] == "session"


def test_empty_file_is_rewritten_with_a_header(tmp_path: Path) -> None:
    target = tmp_path / "empty.jsonl"
    target.write_bytes(b"")
    session = SessionManager.open(target)
    lines = read_lines(target)
    assert len(lines) == 1 and lines[0]["type"] == "session" and lines[0]["id"] == session.session_id
    session.append_message(user("q"))  # file already holds its header: appended at once
    assert len(read_lines(target)) == 2


def test_invalid_header_file_is_backed_up_and_rewritten(tmp_path: Path) -> None:
    target = tmp_path / "bad.jsonl"
    original = b'{"type":"message","id":"aaaa0000","parentId":null}\nnot json\n'
    target.write_bytes(original)
    session = SessionManager.open(target)
    assert session.session_file == target.resolve()
    # issue 10 class 3: the session entry after the lost header is kept under a made-up header
    assert [line["type"] for line in read_lines(target)] == ["session", "message"]
    backups = list(tmp_path.glob("bad.jsonl.corrupt-*"))
    assert len(backups) == 1 and backups[0].read_bytes() == original
    assert any("no valid session header" in warning for warning in session.warnings)


def test_malformed_lines_are_skipped_with_warnings(tmp_path: Path) -> None:
    session = _write_session(tmp_path)
    path = session.session_file
    assert path is not None
    lines = path.read_bytes().split(b"\n")
    lines.insert(2, b'{"type":"message","id":"torn')
    lines.insert(4, b"\x00\x00\x00\x00")
    lines.insert(5, b"\xff\xfe garbage")
    lines.insert(6, b'{"type":"message","parentId":null}')
    path.write_bytes(b"\n".join(lines))
    reopened = SessionManager.open(path)
    assert texts(reopened.build_session_context().messages) == [
        "user:q0",
        "assistant:a0",
        "user:q1",
        "assistant:a1",
    ]
    assert len(reopened.warnings) == 5  # 4 damaged lines + where their bytes were kept (issue 10 class 3)
    assert any(w.endswith(".damaged") for w in reopened.warnings)
    assert any("not valid JSON" in w for w in reopened.warnings)
    assert any("NUL" in w for w in reopened.warnings)
    assert any("UTF-8" in w for w in reopened.warnings)
    assert any("no string 'id'" in w for w in reopened.warnings)


def test_nul_padding_around_a_valid_line_is_recovered() -> None:
    line = encode_line({"type": "session", "version": 3, "id": "x", "timestamp": "t", "cwd": "/"})
    parsed = parse_jsonl_bytes(b"\x00\x00" + line + b"\x00\x00\x00")
    assert parsed.objects[0]["id"] == "x"


def test_torn_last_line_is_skipped_and_next_append_starts_on_a_new_line(tmp_path: Path) -> None:
    session = _write_session(tmp_path)
    path = session.session_file
    assert path is not None
    with open(path, "ab") as handle:
        handle.write(b'{"type":"message","id":"deadbeef","parentId":null,"mess')
    reopened = SessionManager.open(path)
    assert len(reopened.warnings) == 2  # the torn line + where its bytes were kept
    new_id = reopened.append_message(user("after crash"))
    again = SessionManager.open(path)
    assert again.get_leaf_id() == new_id
    assert texts(again.build_session_context().messages)[-1] == "user:after crash"
    assert len(again.warnings) == 2  # only the torn line itself is lost (+ where its bytes are kept)


def test_every_truncation_point_keeps_all_complete_lines(tmp_path: Path) -> None:
    session = _write_session(tmp_path, turns=2)
    path = session.session_file
    assert path is not None
    data = path.read_bytes()
    line_ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A]
    copy = tmp_path / "copy.jsonl"
    for cut in range(line_ends[0], len(data) + 1, 7):
        copy.write_bytes(data[:cut])
        complete = sum(1 for end in line_ends if end <= cut) - 1  # minus header
        loaded = load_session_entries(copy)
        assert len(loaded.entries) == complete, cut
        reopened = SessionManager.open(copy)
        added = reopened.append_custom_entry("probe", {"cut": cut})
        final = load_session_entries(copy)
        assert final.entries[-1].id == added
        assert len(final.entries) == complete + 1


def test_most_recent_session_is_continued(tmp_path: Path) -> None:
    older = _write_session(tmp_path)
    newer = _write_session(tmp_path)
    assert older.session_file is not None and newer.session_file is not None
    now = time.time()
    os.utime(older.session_file, (now - 100, now - 100))
    os.utime(newer.session_file, (now - 50, now - 50))
    (tmp_path / "zz-invalid.jsonl").write_text("garbage\n")
    os.utime(tmp_path / "zz-invalid.jsonl", (now, now))
    continued = SessionManager.continue_recent("/proj", tmp_path)
    assert continued.session_id == newer.session_id
    os.utime(older.session_file, (now + 10, now + 10))
    assert SessionManager.continue_recent("/proj", tmp_path).session_id == older.session_id


def test_continue_recent_without_sessions_creates_new(tmp_path: Path) -> None:
    session = SessionManager.continue_recent("/proj", tmp_path / "none")
    assert session.get_entries() == [] and session.session_file is not None
    assert session.session_file.parent == tmp_path / "none"


def test_open_uses_header_cwd(tmp_path: Path) -> None:
    session = _write_session(tmp_path)
    assert SessionManager.open(session.session_file).cwd == "/proj"
    assert SessionManager.open(session.session_file, cwd_override="/other").cwd == "/other"


def test_unknown_fields_and_entry_types_round_trip(tmp_path: Path) -> None:
    session = _write_session(tmp_path, turns=1)
    path = session.session_file
    assert path is not None
    extra = [
        {
            "type": "future_thing",
            "id": "f0000001",
            "parentId": None,
            "timestamp": "2026-01-01T00:00:00.000Z",
            "x": [1],
        },
        {
            "type": "message",
            "id": "f0000002",
            "parentId": "f0000001",
            "timestamp": "2026-01-01T00:00:00.000Z",
            "newField": {"a": 1},
            "message": {"role": "user", "content": "hi", "timestamp": 3, "mood": "curious"},
        },
        {
            "type": "message",
            "id": "f0000003",
            "parentId": "f0000002",
            "timestamp": "2026-01-01T00:00:00.000Z",
            "message": {
                "role": "bashExecution",
                "command": "ls",
                "output": "a",
                "exitCode": 0,
                "timestamp": 4,
            },
        },
        {
            "type": "compaction",
            "id": "f0000004",
            "parentId": "f0000003",
            "timestamp": "2026-01-01T00:00:00.000Z",
            "summary": "s",
            "firstKeptEntryId": "f0000002",
            "tokensBefore": 7,
            "details": None,
        },
    ]
    with open(path, "a", encoding="utf-8") as handle:
        for obj in extra:
            handle.write(json.dumps(obj) + "\n")
    reopened = SessionManager.open(path)
    dumped = [entry.to_json_dict() for entry in reopened.get_entries()[-4:]]
    assert dumped == extra
    assert reopened.warnings == []


def test_lines_are_compact_json_with_literal_unicode(tmp_path: Path) -> None:
    session = SessionManager.create("/proj", tmp_path)
    session.append_message(user("héllo\u2028wörld ✓"))
    session.append_message(assistant("bad \udc80 surrogate"))
    assert session.session_file is not None
    raw = session.session_file.read_bytes()
    assert "héllo\u2028wörld ✓".encode() in raw
    assert b'"cacheRead":0,' in raw  # numbers as JavaScript writes them
    reopened = SessionManager.open(session.session_file)
    assert texts(reopened.build_session_context().messages)[0] == "user:héllo\u2028wörld ✓"
    assert reopened.warnings == []


def test_unreadable_path_raises_a_clear_error_and_writes_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "not-a-file.jsonl"
    directory.mkdir()
    with pytest.raises(SessionFileError, match="cannot read session file"):
        SessionManager.open(directory)
    assert list(directory.iterdir()) == []


def test_torn_line_written_by_someone_else_does_not_swallow_our_next_entry(tmp_path: Path) -> None:
    session = _write_session(tmp_path)
    path = session.session_file
    assert path is not None
    session.append_custom_entry("before", {})  # the writer exists now
    with open(path, "ab") as handle:
        handle.write(b'{"type":"custom","id":"torn')  # another process crashed mid-line
    ours = session.append_custom_entry("after", {"kept": True})
    loaded = SessionManager.open(path)
    assert loaded.get_entry(ours) is not None
    assert len(loaded.warnings) == 2  # the torn line + where its bytes were kept
