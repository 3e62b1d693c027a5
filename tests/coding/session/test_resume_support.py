"""What the ``/resume`` picker reads and changes (issue 12): one-shot ``-p`` runs recognised by the header's
``runMode`` (written by print and JSON mode for a session they create, never for one they continue), previews of
the current branch's last messages, delete (trash or unlink; refused under another live pi-tui) and rename (a
``session_info`` entry, pi's rename)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from pi_tui.coding.config.paths import get_default_session_dir
from pi_tui.coding.session import SessionManager
from pi_tui.coding.session.file_actions import SessionFileBusyError, delete_session_file, rename_session_file
from pi_tui.coding.session.listing import build_session_info, list_sessions_in_dir
from pi_tui.coding.session.lock import lock_path_for
from pi_tui.coding.session.preview import session_preview
from pi_tui.coding.session.run_mode import mark_print_run
from tests.coding.modes.helpers import CLI, clean_env

from .helpers import assistant, user


def _session(directory: Path, first: str = "question") -> SessionManager:
    manager = SessionManager.create("/proj", directory)
    manager.append_message(user(first, timestamp=1_000))
    manager.append_message(assistant("answer to " + first, timestamp=2_000))
    return manager


def _header(path: Path) -> dict[str, object]:
    return dict(json.loads(path.read_text().splitlines()[0]))


def test_a_marked_session_lists_as_a_print_run(tmp_path: Path) -> None:
    manager = SessionManager.create("/proj", tmp_path)
    assert mark_print_run(manager) is True
    manager.append_message(user("scripted", timestamp=1_000))
    manager.append_message(assistant("done", timestamp=2_000))
    path = manager.get_session_file()
    assert path is not None and _header(path)["runMode"] == "print"
    info = build_session_info(path)
    assert info is not None and info.print_run
    assert mark_print_run(manager) is False  # already written: a continued session is never marked
    assert not any(i.print_run for i in list_sessions_in_dir(tmp_path) if i.path != path)
    reopened = SessionManager.open(path)  # the field survives a load and a rewrite (unknown fields are kept)
    assert reopened.get_header().to_json_dict()["runMode"] == "print"


@pytest.mark.parametrize("mode", [["-p"], ["--mode", "json", "-p"]], ids=["print", "json"])
def test_print_mode_marks_the_session_it_creates_but_not_one_it_continues(tmp_path: Path, mode: list[str]) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"

    def run(*args: str) -> None:
        done = subprocess.run([*CLI, *args], cwd=project, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr

    directory = get_default_session_dir(str(project), tmp_path / "agent")
    interactive = _session(directory, "typed in the app").get_session_file()
    assert interactive is not None
    os.utime(interactive, (1, 1))  # older than what the run writes
    run(*mode, "hello")
    made = [p for p in directory.glob("*.jsonl") if p != interactive]
    assert len(made) == 1 and _header(made[0]).get("runMode") == "print"
    os.utime(made[0], (1, 1))
    os.utime(interactive, None)
    run("-c", *mode, "and again")
    assert "runMode" not in _header(interactive)
    assert "and again" in interactive.read_text()


def test_preview_is_the_end_of_the_branch_the_file_opens_at(tmp_path: Path) -> None:
    manager = _session(tmp_path, "first")
    root = manager.get_entries()[0].id
    manager.append_message(user("abandoned", timestamp=3_000))
    manager.append_message(assistant("abandoned answer", timestamp=4_000))
    manager.branch(manager.get_entries()[1].id)
    manager.append_message(user("kept", timestamp=5_000))
    manager.append_message(assistant("kept answer " + "x" * 1000, timestamp=6_000))
    path = manager.get_session_file()
    assert path is not None and root
    preview = session_preview(path)
    assert [(m.role, m.text[:11]) for m in preview] == [
        ("user", "first"), ("assistant", "answer to f"), ("user", "kept"), ("assistant", "kept answer")]
    assert len(preview[-1].text) <= 400 and preview[-1].text.endswith("…")
    assert [m.text for m in session_preview(path, limit=1)] == [preview[-1].text]
    assert session_preview(tmp_path / "missing.jsonl") == []


def test_delete_and_rename(tmp_path: Path) -> None:
    path = _session(tmp_path).get_session_file()
    assert path is not None
    assert rename_session_file(path, "  two\nlines ") == "two lines"
    info = build_session_info(path)
    assert info is not None and info.name == "two lines"
    with pytest.raises(ValueError):
        rename_session_file(path, "  ")
    lock = lock_path_for(path)
    lock.write_text(json.dumps({"pid": os.getppid(), "host": os.uname().nodename, "startedAt": ""}))
    with pytest.raises(SessionFileBusyError, match="open in another pi-tui"):
        delete_session_file(path)
    with pytest.raises(SessionFileBusyError):
        rename_session_file(path, "other")
    lock.write_text(json.dumps({"pid": 2**22 + 12345, "host": os.uname().nodename, "startedAt": ""}))  # dead pid
    assert delete_session_file(path, use_trash=False) == "unlink"
    assert not path.exists() and not lock.exists()


def test_a_session_this_process_left_can_be_deleted(tmp_path: Path) -> None:
    """After ``/resume`` this process keeps the old file's lock until it writes the new one (lock.py); that
    lock is its own and does not make the left session undeletable (found in tmux)."""
    path = _session(tmp_path).get_session_file()
    assert path is not None
    lock_path_for(path).write_text(json.dumps({"pid": os.getpid(), "host": os.uname().nodename, "startedAt": ""}))
    assert delete_session_file(path, use_trash=False) == "unlink" and not path.exists()
