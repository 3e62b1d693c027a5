"""Sessions stored through symlinked directories are listed (pi 0.84.0, #7497/#7552: a project's session
folder linked into the sessions root, e.g. a project-local ``sessionDir`` or one on another drive, was
skipped by ``listSessions``). pi-tui's listing follows directory links; a broken link or a link to a file
is skipped without an error."""

from __future__ import annotations

from pathlib import Path

from pi_tui.ai.types import AssistantMessage, TextContent, Usage, UserMessage
from pi_tui.coding.session import listing
from pi_tui.coding.session.session_manager import SessionManager


def _session(cwd: Path, directory: Path, text: str) -> Path:
    manager = SessionManager.create(str(cwd), directory)
    manager.append_message(UserMessage(content=[TextContent(text=text)], timestamp=1))
    manager.append_message(AssistantMessage(content=[TextContent(text="ok")], api="x", provider="x", model="x",
                                            usage=Usage(), stop_reason="stop", timestamp=2))
    path = manager.get_session_file()
    assert path is not None and path.exists()
    return path


def test_sessions_in_a_symlinked_project_directory_are_listed(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    _session(tmp_path, root / "--real-project--", "in a real folder")
    elsewhere = tmp_path / "drive" / "project-sessions"
    _session(tmp_path, elsewhere, "through a link")
    (root / "--linked-project--").symlink_to(elsewhere, target_is_directory=True)
    (root / "--broken--").symlink_to(tmp_path / "gone", target_is_directory=True)
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    (root / "--file-link--").symlink_to(tmp_path / "a-file")
    names = sorted(info.first_message for info in listing.list_all_sessions(root))
    assert names == ["in a real folder", "through a link"]
    linked = listing.list_sessions_in_dir(root / "--linked-project--")
    assert [info.first_message for info in linked] == ["through a link"]
