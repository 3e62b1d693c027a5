"""An empty answer (HTTP 200, then ``data: [DONE]`` or an empty body) showed nothing at all in the TUI: the
prompt just sat there (found by H11 with a loopback server). The session adds a UI-only warning."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.coding.agent_session import EMPTY_RESPONSE

from ..coding.session_core.helpers import Recorder, make_session

pytestmark = pytest.mark.anyio


def _warnings(rec: Recorder) -> list[str]:
    return [
        e["message"]["text"]
        for e in rec.of("message_end")
        if e["message"]["role"] == "notification" and e["message"]["level"] == "warning"
    ]


async def test_empty_answer_gets_a_warning_once(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses(
        [faux_assistant_message([]), faux_assistant_message("   "), faux_assistant_message("hi")]
    )
    session = make_session(tmp_path, faux.get_model(), persist=False)
    rec = Recorder(session)
    await session.prompt("one")
    assert _warnings(rec) == [EMPTY_RESPONSE]
    await session.prompt("two")
    assert _warnings(rec) == [EMPTY_RESPONSE, EMPTY_RESPONSE]
    await session.prompt("three")
    assert _warnings(rec) == [EMPTY_RESPONSE, EMPTY_RESPONSE]  # a real answer adds none
