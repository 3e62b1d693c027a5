"""Cloning or forking before the session's first reply (pi 0.80.9: pi failed with an unclear error, as the
session was not saved yet, and then explained that it must be saved first). pi-tui's clone and fork work on
the entries in memory: the new session holds the copied path and is written with its first reply, as a new
session is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.ai.types import TextContent, UserMessage

from ..coding.session_core.helpers import make_session

pytestmark = pytest.mark.anyio


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _unsaved_session(tmp_path: Path, faux: FauxProvider) -> tuple[Any, str]:
    session = make_session(tmp_path, faux.get_model())
    message = UserMessage(content=[TextContent(text="hello")], timestamp=1)
    user_id = session.session_manager.append_message(message)
    session.agent.state.messages.append(message)
    assert session.session_file is not None and not Path(session.session_file).exists()
    return session, user_id


async def test_clone_before_the_first_reply(tmp_path: Path, faux: FauxProvider) -> None:
    session, _ = _unsaved_session(tmp_path, faux)
    first = session.session_file
    assert await session.clone() == {"cancelled": False}
    assert session.session_file != first
    assert [m.role for m in session.messages] == ["user"]
    faux.set_responses([faux_assistant_message("answer")])
    await session.prompt("and now")
    text = _read(session.session_file)
    assert '"hello"' in text and '"answer"' in text


async def test_fork_before_the_first_reply(tmp_path: Path, faux: FauxProvider) -> None:
    session, user_id = _unsaved_session(tmp_path, faux)
    assert await session.fork(user_id, "before") == {"text": "hello", "cancelled": False}
    assert session.messages == []
