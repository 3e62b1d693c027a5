"""Session files against pi's fixes after 0.73.1 (tests/conformance/PI_FIXES.md).

- pi 0.85.0 (#8989/#8990): a fork dropped the path's ``label`` entries (they are re-created at the end), but a
  compaction may keep from a label entry (the cut moves back over non-message entries); the fork's compaction
  then named a missing entry and the kept messages vanished from the context. Entries after a dropped label
  also kept it as their parent, so the fork's branch broke there.
- pi 0.84.0 (#7707): a fork, and any repair that rewrites a file, must be published whole or not at all.
- pi 1.5.0 (#11460): a write that failed left the entry in memory; later entries took it as their parent, so
  the file held entries whose parent was missing and a resumed session lost its earlier history.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, Usage, UserMessage
from pi_tui.coding.session import session_file
from pi_tui.coding.session.session_manager import SessionManager


def _user(text: str) -> UserMessage:
    return UserMessage(content=[TextContent(text=text)], timestamp=1)


def _assistant(text: str) -> AssistantMessage:
    return AssistantMessage(content=[TextContent(text=text)], api="x", provider="x", model="x", usage=Usage(),
                            stop_reason="stop", timestamp=2)


def _texts(manager: SessionManager) -> list[str]:
    out = []
    for message in manager.build_session_context().messages:
        role = getattr(message, "role", "")
        if role == "compactionSummary":
            out.append("<summary>")
        else:
            out.append("".join(b.text for b in message.content if isinstance(b, TextContent)))
    return out


def _session_with_a_compaction_kept_from_a_label(tmp_path: Path) -> SessionManager:
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(_user("one"))
    a1 = manager.append_message(_assistant("answer one"))
    label = manager.append_label_change(a1, "checkpoint")  # a label entry in the middle of the path
    manager.append_message(_user("two"))
    manager.append_message(_assistant("answer two"))
    manager.append_compaction("the summary", label, 1000)  # kept from the label entry on (pi's cut can land there)
    manager.append_message(_user("three"))
    manager.append_message(_assistant("answer three"))
    return manager


def test_a_fork_keeps_a_compaction_boundary_that_names_a_label(tmp_path: Path) -> None:
    manager = _session_with_a_compaction_kept_from_a_label(tmp_path)
    before = _texts(manager)
    assert before == ["<summary>", "two", "answer two", "three", "answer three"]
    leaf = manager.get_leaf_id()
    assert leaf is not None
    manager.create_branched_session(leaf)
    assert _texts(manager) == before
    reopened = SessionManager.open(str(manager.get_session_file()))
    assert _texts(reopened) == before
    assert reopened.get_label(next(e.id for e in reopened.get_entries()
                                   if getattr(getattr(e, "message", None), "role", "") == "assistant")) == "checkpoint"


def test_entries_after_a_dropped_label_stay_on_the_forked_branch(tmp_path: Path) -> None:
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(_user("one"))
    a1 = manager.append_message(_assistant("answer one"))
    manager.append_label_change(a1, "mark")
    manager.append_message(_user("two"))
    leaf = manager.append_message(_assistant("answer two"))
    manager.create_branched_session(leaf)
    reopened = SessionManager.open(str(manager.get_session_file()))
    assert _texts(reopened) == ["one", "answer one", "two", "answer two"]
    ids = {e.id for e in reopened.get_entries()}
    assert all(e.parent_id is None or e.parent_id in ids for e in reopened.get_entries())


def _fail_after(monkeypatch: pytest.MonkeyPatch, ok_writes: int) -> None:
    """``os.write`` of session lines fails (disk full) after ``ok_writes`` calls, with half a line written."""
    calls = {"n": 0}
    real = session_file._write_all  # noqa: SLF001

    def write(fd: int, payload: bytes) -> None:
        calls["n"] += 1
        if calls["n"] > ok_writes:
            os.write(fd, payload[: len(payload) // 2])
            raise OSError(28, "No space left on device")
        real(fd, payload)

    monkeypatch.setattr(session_file, "_write_all", write)


def test_a_fork_is_published_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manager = _session_with_a_compaction_kept_from_a_label(tmp_path)
    source = manager.get_session_file()
    assert source is not None
    original = source.read_bytes()
    _fail_after(monkeypatch, 0)
    with pytest.raises(OSError):
        SessionManager.fork_from(source, str(tmp_path), tmp_path / "forks")
    assert not (tmp_path / "forks").exists() or list((tmp_path / "forks").iterdir()) == []
    assert source.read_bytes() == original


def test_a_failed_write_leaves_no_entry_in_memory_that_is_not_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(_user("one"))
    manager.append_message(_assistant("answer one"))  # the first flush: header + both entries
    path = manager.get_session_file()
    assert path is not None and path.exists()
    _fail_after(monkeypatch, 0)
    with pytest.raises(OSError):
        manager.append_message(_user("lost while the disk was full"))
    monkeypatch.undo()
    manager.append_message(_user("two"))
    manager.append_message(_assistant("answer two"))
    memory = [e.to_json_dict() for e in manager.get_entries()]
    reopened = SessionManager.open(str(path))
    disk = [e.to_json_dict() for e in reopened.get_entries()]
    assert disk == memory
    assert _texts(reopened) == ["one", "answer one", "two", "answer two"]


def test_a_failed_first_flush_is_written_whole_by_the_next_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(_user("one"))
    _fail_after(monkeypatch, 0)  # the first write of the file is torn
    with pytest.raises(OSError):
        manager.append_message(_assistant("answer one"))
    monkeypatch.undo()
    manager.append_message(_assistant("answer one, again"))
    path = manager.get_session_file()
    assert path is not None
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert [line["type"] for line in lines].count("session") == 1
    reopened = SessionManager.open(str(path))
    assert [e.to_json_dict() for e in reopened.get_entries()] == [e.to_json_dict() for e in manager.get_entries()]
    assert _texts(reopened) == ["one", "answer one, again"]
    assert not reopened.warnings


def test_the_recorder_reports_a_failed_write_and_later_entries_chain_to_the_stored_ones(tmp_path: Path) -> None:
    """The same through the session's recorder: the save-failure notice, and a file that resumes whole."""
    from pi_tui.coding.agent_session.recorder import TranscriptRecorder

    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(_user("one"))
    manager.append_message(_assistant("answer one"))
    failures: list[OSError] = []
    recorder = TranscriptRecorder(session_manager=lambda: manager, write_failed=failures.append,
                                  append_ui_message=lambda message: None)
    real = manager._persist  # noqa: SLF001
    state: dict[str, Any] = {"fail": True}

    def persist(entry: Any) -> None:
        if state["fail"]:
            state["fail"] = False
            raise OSError(5, "Input/output error")
        real(entry)

    manager._persist = persist  # type: ignore[method-assign]  # noqa: SLF001
    recorder.message_ended(_user("lost"))
    recorder.message_ended(_assistant("kept"))
    assert len(failures) == 1
    path = manager.get_session_file()
    assert path is not None
    reopened = SessionManager.open(str(path))
    assert _texts(reopened) == ["one", "answer one", "kept"]
