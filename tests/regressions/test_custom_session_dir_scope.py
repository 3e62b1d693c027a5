"""A custom session directory holds every folder's sessions; current-folder lookups stay scoped to the cwd
(pi 0.77.0: with ``--session-dir``/``sessionDir``/``$PI_TUI_SESSION_DIR``, ``-c`` in project B resumed project
A's newest session and ``/resume`` listed every project's sessions as this folder's). The cwd's own per-folder
directory is not filtered."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pi_tui.ai.types import AssistantMessage, TextContent, Usage, UserMessage
from pi_tui.coding.agent_session.open_file import open_session_manager
from pi_tui.coding.config.paths import encode_cwd
from pi_tui.coding.session import listing
from pi_tui.coding.session.session_manager import SessionManager


def _session(cwd: Path, directory: Path, text: str) -> Path:
    manager = SessionManager.create(str(cwd), directory)
    manager.append_message(UserMessage(content=[TextContent(text=text)], timestamp=1))
    manager.append_message(AssistantMessage(content=[TextContent(text="ok")], api="x", provider="x", model="x",
                                            usage=Usage(), stop_reason="stop", timestamp=2))
    path = manager.get_session_file()
    assert path is not None
    return path


def _setup(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    shared = tmp_path / "shared-sessions"
    project_a, project_b = tmp_path / "a", tmp_path / "b"
    project_a.mkdir()
    project_b.mkdir()
    b_old = _session(project_b, shared, "b's session")
    a_new = _session(project_a, shared, "a's newer session")
    now = time.time()
    os.utime(b_old, (now - 100, now - 100))
    os.utime(a_new, (now, now))
    return shared, project_a, project_b, b_old


def test_continue_in_a_custom_session_dir_resumes_this_folders_session(tmp_path: Path) -> None:
    shared, _, project_b, b_old = _setup(tmp_path)
    assert SessionManager.continue_recent(str(project_b), shared).get_session_file() == b_old
    warnings: list[str] = []
    manager, ownership = open_session_manager(str(project_b), shared, session_file=None, continue_recent=True,
                                           no_session=False, if_locked="read-only", warnings=warnings)
    try:
        assert manager.get_session_file() == b_old
    finally:
        if ownership is not None:
            ownership.release()
    empty = tmp_path / "c"
    empty.mkdir()
    assert SessionManager.continue_recent(str(empty), shared).get_session_file() != b_old  # a new session


def test_resume_lists_only_this_folders_sessions_of_a_custom_dir(tmp_path: Path) -> None:
    shared, project_a, project_b, _ = _setup(tmp_path)
    assert [i.first_message for i in SessionManager.list_sessions(str(project_b), shared)] == ["b's session"]
    assert [i.first_message for i in SessionManager.list_sessions(str(project_a), shared)] == ["a's newer session"]
    assert len(listing.list_sessions_in_dir(shared)) == 2  # the all-folders view


def test_the_folders_own_directory_is_not_filtered(tmp_path: Path) -> None:
    project = tmp_path / "p"
    project.mkdir()
    own = tmp_path / "sessions" / encode_cwd(str(project))
    _session(tmp_path / "moved-from", own, "written under another cwd")
    assert [i.first_message for i in SessionManager.list_sessions(str(project), own)] == ["written under another cwd"]
    assert listing.folder_scope(own, str(project)) is None
