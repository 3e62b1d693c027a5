"""A resumed session that was compacted says so, as pi 0.73 does on loading a session (``renderInitialMessages``:
status ``Session compacted 1 time`` / ``N times``, counting every compaction entry of the file). Found by a
new-user run (issue 9): nothing showed it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, UserMessage
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.session_factory import create_agent_session
from pi_tui.tui.transcript_builder import compaction_note

from .helpers import make_app, transcript_text, wait_until


def assistant(text: str) -> AssistantMessage:
    return AssistantMessage(content=[TextContent(text=text)], api="faux", provider="faux", model="faux-1",
                            stop_reason="stop")


def compacted_file(tmp_path: Path, times: int) -> Path:
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    for n in range(times + 1):
        kept = manager.append_message(UserMessage(content=f"question {n}"))
        manager.append_message(assistant(f"answer {n}"))
        if n < times:
            manager.append_compaction(f"## Goal\nround {n}", kept, 1000 + n)
    path = manager.get_session_file()
    assert path is not None
    return path


def test_compaction_note_counts_like_pi() -> None:
    class Manager:
        def __init__(self, kinds: list[str]) -> None:
            self.kinds = kinds

        def get_entries(self) -> list[object]:
            return [type("E", (), {"type": k})() for k in self.kinds]

    class Session:
        def __init__(self, kinds: list[str]) -> None:
            self.session_manager = Manager(kinds)

    assert compaction_note(Session(["message", "message"])) is None
    assert compaction_note(Session(["message", "compaction", "message"])) == "Session compacted 1 time"
    assert compaction_note(Session(["compaction", "message", "compaction"])) == "Session compacted 2 times"
    assert compaction_note(object()) is None


@pytest.mark.parametrize("times", [1, 2])
@pytest.mark.anyio
async def test_resuming_a_compacted_session_says_how_often(tmp_path: Path, times: int) -> None:
    session = create_agent_session(str(tmp_path), session_path=str(compacted_file(tmp_path, times)))
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.1)
        expected = "Session compacted 1 time" if times == 1 else f"Session compacted {times} times"
        assert expected in transcript_text(app)


@pytest.mark.anyio
async def test_resume_picks_a_compacted_session_and_says_how_often(tmp_path: Path) -> None:
    from pi_tui.tui.modals.resume_picker import ResumePicker

    from .test_key_routing import keys_for

    compacted_file(tmp_path, 3)
    fresh = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    fresh.append_message(UserMessage(content="fresh question"))
    fresh.append_message(assistant("fresh answer"))
    fresh_path = fresh.get_session_file()
    assert fresh_path is not None
    session = create_agent_session(str(tmp_path), session_path=str(fresh_path))
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        assert "compacted" not in transcript_text(app)
        await pilot.press(*keys_for("/resume"), "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ResumePicker))
        await pilot.pause(0.1)
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Resumed session" in transcript_text(app))
        assert "Resumed session · session compacted 3 times" in transcript_text(app)
