"""tester3 #11: a session holding only user ``!cmd`` runs is written, so quitting and ``-c`` come back to it (pi
writes a new file at the first assistant message only; DIFFERENCES L-row). A session with only a prompt that got
no answer is still not written (pi)."""

from __future__ import annotations

from pathlib import Path

from pi_tui.ai.types import UserMessage
from pi_tui.coding.messages import BashExecutionMessage
from pi_tui.coding.session.session_manager import SessionManager


def test_a_bash_only_session_is_written_and_reopens(tmp_path: Path) -> None:
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(BashExecutionMessage(command="echo hi", output="hi\n", exit_code=0))
    path = manager.get_session_file()
    assert path is not None and Path(path).exists()
    manager.append_message(BashExecutionMessage(command="ls", output="a\n", exit_code=0))
    reopened = SessionManager.open(path)
    commands = [e.message.command for e in reopened.get_branch() if getattr(e, "type", "") == "message"]
    assert commands == ["echo hi", "ls"]


def test_a_prompt_without_an_answer_is_still_not_written(tmp_path: Path) -> None:
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(UserMessage(content="hello?"))
    path = manager.get_session_file()
    assert path is None or not Path(path).exists()
