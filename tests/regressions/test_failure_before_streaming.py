"""A run that fails before any message event (found by H11 in tmux: a models.json provider with an unknown
``api``; the prompt showed nothing at all, no error, and the session file had no trace of it). The agent
reports such a failure only in ``agent_end``; the session must show, save and notify it like any error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider

from ..coding.session_core.helpers import Recorder, SleepRecorder, make_session

pytestmark = pytest.mark.anyio


def _lines(path: str) -> list[dict]:
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


async def test_unknown_api_error_is_shown_and_saved(tmp_path: Path, faux: FauxProvider) -> None:
    model = faux.get_model().model_copy(update={"api": "bogus-api"})
    session = make_session(tmp_path, model, sleep=SleepRecorder())
    rec = Recorder(session)
    await session.prompt("hello")
    ends = [e["message"] for e in rec.of("message_end") if e["message"]["role"] == "assistant"]
    assert len(ends) == 1
    assert ends[0]["stopReason"] == "error"
    assert "No API provider registered for api: bogus-api" in ends[0]["errorMessage"]
    starts = [e for e in rec.of("message_start") if e["message"]["role"] == "assistant"]
    assert len(starts) == 1
    assert rec.types().index("message_end:assistant") < rec.types().index("agent_end")
    assert session.session_file is not None
    saved = _lines(session.session_file)
    roles = [e["message"]["role"] for e in saved if e["type"] == "message"]
    assert roles[:2] == ["user", "assistant"]
    # the agent state holds it once (the replayed events do not append it again)
    assert sum(1 for m in session.messages if getattr(m, "role", None) == "assistant") == 1


async def test_normal_runs_are_not_replayed(tmp_path: Path, faux: FauxProvider) -> None:
    from pi_tui.ai.providers.faux import faux_assistant_message

    faux.set_responses([faux_assistant_message([], stop_reason="error", error_message="boom 400")])
    session = make_session(tmp_path, faux.get_model(), sleep=SleepRecorder())
    rec = Recorder(session)
    await session.prompt("hello")
    assert len([e for e in rec.of("message_end") if e["message"]["role"] == "assistant"]) == 1
