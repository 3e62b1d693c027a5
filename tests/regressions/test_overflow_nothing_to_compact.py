"""An overflow error on the first turn (nothing to compact) must not produce a bogus
"recovery failed" error on the next prompt (found in tmux by H11: a local server answering
HTTP 400 context_length_exceeded, then any next prompt showed "Context overflow recovery failed
after one compact-and-retry attempt" although no compaction had run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.coding.agent_session.compaction import OVERFLOW_FAILED

from ..coding.session_core.helpers import Recorder, SleepRecorder, make_session

pytestmark = pytest.mark.anyio


async def test_next_prompt_after_unrecoverable_overflow_is_not_a_failed_recovery(
    tmp_path: Path, faux: FauxProvider
) -> None:
    overflow = faux_assistant_message(
        [], stop_reason="error", error_message="prompt is too long: 213462 tokens > 200000 maximum"
    )
    faux.set_responses([overflow, faux_assistant_message("fine now")])
    session = make_session(tmp_path, faux.get_model(), sleep=SleepRecorder())
    rec = Recorder(session)
    await session.prompt("a first prompt that overflows")
    # nothing to compact: the recovery ends silently and the error message leaves the agent state
    assert [e.get("errorMessage") for e in rec.of("compaction_end")] == [None]
    await session.prompt("second")
    assert all(e.get("errorMessage") != OVERFLOW_FAILED for e in rec.of("compaction_end"))
    assert not any(
        e["message"].get("role") == "notification" and e["message"].get("text") == OVERFLOW_FAILED
        for e in rec.of("message_end")
    )
    assert session.get_last_assistant_text() == "fine now"
