"""When the session file cannot be written the user is told, once (found by H11: with the session directory
blocked by a plain file, the TUI showed nothing and the conversation silently went unsaved; only a log line
reached stderr)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.coding.session.session_manager import SessionManager

from ..coding.session_core.helpers import Recorder, make_session

pytestmark = pytest.mark.anyio


def _errors(rec: Recorder) -> list[str]:
    return [
        e["message"]["text"]
        for e in rec.of("message_end")
        if e["message"]["role"] == "notification" and e["message"]["level"] == "error"
    ]


async def test_unwritable_session_file_is_reported_once(tmp_path: Path, faux: FauxProvider) -> None:
    blocked = tmp_path / "sessions"
    blocked.write_text("not a directory")  # mkdir of the session dir fails: every append raises OSError
    manager = SessionManager.create(str(tmp_path), blocked / "sub")
    faux.set_responses([faux_assistant_message("one"), faux_assistant_message("two")])
    session = make_session(tmp_path, faux.get_model(), manager=manager)
    rec = Recorder(session)
    await session.prompt("first")
    await session.prompt("second")
    errors = _errors(rec)
    assert len(errors) == 1
    assert errors[0].startswith("Cannot save the session to ") and "not being saved" in errors[0]
    assert session.get_last_assistant_text() == "two"  # the conversation itself goes on
    await session.new_session()
    faux.set_responses([faux_assistant_message("three")])
    await session.prompt("third")
    assert len(_errors(rec)) == 2  # a new session file: reported again
