"""pi 0.84.0 (#7540): a reply cut short by ``stop_reason: "length"`` below its output limit because the prompt and
the reply filled the context window (a local server's n_ctx) ended the run with a cut-off answer. pi now treats it
as an overflow: it compacts and retries once, and the user gets the whole answer. A reply that used its whole
output limit is a plain length stop and is left alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import (
    FauxProvider,
    faux_assistant_message,
    register_faux_provider,
    serialize_context,
)
from pi_tui.ai.providers.faux import estimate_tokens as faux_tokens
from pi_tui.ai.types import AssistantMessage
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction.prepare import CompactionSettings

from ..coding.session_core.helpers import Recorder, SleepRecorder, make_session, session_lines

pytestmark = pytest.mark.anyio

WINDOW = 3000
SUMMARY = "## Goal\nTest.\n\n## Progress\n### Done\n- [x] things"


@pytest.fixture
def small() -> Iterator[FauxProvider]:
    provider = register_faux_provider(
        models=[{"id": "small", "context_window": WINDOW, "max_tokens": 4 * WINDOW}], token_size={"min": 50, "max": 50}
    )
    yield provider
    provider.unregister()


def fill_the_window(stop_reason: str = "length") -> Any:
    """A reply whose estimated output is exactly what the prompt leaves of the window."""

    def step(context: Any, options: Any, state: Any, model: Any) -> AssistantMessage:
        left = WINDOW - faux_tokens(serialize_context(context))
        return faux_assistant_message("word " * int(left * 4 / 5), stop_reason=stop_reason)  # type: ignore[arg-type]

    return step


async def test_a_reply_cut_by_a_full_window_is_compacted_and_retried(tmp_path: Path, small: FauxProvider) -> None:
    small.set_responses([faux_assistant_message("ok " * 300), fill_the_window(), faux_assistant_message(SUMMARY),
                         faux_assistant_message("## Original Request\ntwo"), faux_assistant_message("the whole answer")])
    settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=10, reserve_tokens=100))
    session = make_session(tmp_path, small.get_model(), settings=settings, sleep=SleepRecorder())
    rec = Recorder(session)
    await session.prompt("one " * 300)
    await session.prompt("two")
    assert rec.of("compaction_start") == [{"type": "compaction_start", "reason": "overflow"}]
    assert rec.of("compaction_end")[0]["willRetry"] is True
    assert session.get_last_assistant_text() == "the whole answer"
    assert not any(m.role == "assistant" and m.stop_reason == "length" for m in session.messages)
    stored = [line["message"]["stopReason"] for line in session_lines(session)
              if line["type"] == "message" and line["message"]["role"] == "assistant"]
    assert stored == ["stop", "length", "stop"]  # the cut-off attempt stays in the file, out of the context


async def test_a_reply_that_used_its_whole_output_limit_is_not_retried(tmp_path: Path) -> None:
    """The window is full too, but the reply stopped at its own output limit: a plain length stop (the threshold
    compaction that follows does not retry it)."""
    provider = register_faux_provider(models=[{"id": "tight", "context_window": WINDOW, "max_tokens": 500}])
    try:
        provider.set_responses([faux_assistant_message("word " * 400, stop_reason="length"),
                                faux_assistant_message(SUMMARY), faux_assistant_message(SUMMARY)])
        settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=10, reserve_tokens=100))
        session = make_session(tmp_path, provider.get_model(), settings=settings, sleep=SleepRecorder())
        rec = Recorder(session)
        await session.prompt("one " * 2600)
        ends = [e for e in rec.events if e["type"] == "message_end" and e["message"]["role"] == "assistant"]
        usage = ends[0]["message"]["usage"]
        assert usage["output"] == 500 and usage["input"] + usage["cacheRead"] + 500 >= 0.99 * WINDOW
        assert "overflow" not in [e["reason"] for e in rec.of("compaction_start")]
        assert [m.stop_reason for m in session.messages if m.role == "assistant"] == ["length"]
    finally:
        provider.unregister()
