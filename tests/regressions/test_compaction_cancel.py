"""Aborting a running compaction is a cancel, not a failure (found by H11: ``abort_compaction()`` while the
summary request streamed gave "Compaction failed: Summarization failed: Request was aborted" instead of pi's
"Compaction cancelled" with ``aborted: true``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, register_faux_provider
from pi_tui.coding.agent_session.compaction import CompactionError
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction.prepare import CompactionSettings

from ..coding.session_core.helpers import Recorder, make_session

pytestmark = pytest.mark.anyio


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


@pytest.fixture
def slow_faux() -> Iterator[FauxProvider]:
    provider = register_faux_provider(tokens_per_second=2000, token_size={"min": 1, "max": 1})
    yield provider
    provider.unregister()


async def test_abort_during_manual_compaction_is_a_cancel(tmp_path: Path, slow_faux: FauxProvider) -> None:
    slow_faux.set_responses(
        [
            faux_assistant_message("a" * 400),
            faux_assistant_message("b" * 400),
            faux_assistant_message("summary " * 4000),
            faux_assistant_message("prefix " * 4000),
        ]
    )
    settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=50))
    session = make_session(tmp_path, slow_faux.get_model(), settings=settings)
    rec = Recorder(session)
    await session.prompt("first " + "x" * 400)
    await session.prompt("second")
    task = asyncio.create_task(session.compact())
    for _ in range(500):  # until the summary request streams
        if session.is_compacting and slow_faux.state.call_count >= 3:
            break
        await asyncio.sleep(0.01)
    assert session.is_compacting and not task.done(), (
        slow_faux.state.call_count,
        task.done() and task.exception(),
    )
    session.abort_compaction()
    with pytest.raises(CompactionError, match="^Compaction cancelled$"):
        await task
    end = rec.of("compaction_end")[-1]
    assert end["aborted"] is True and end["errorMessage"] == "Compaction cancelled"
    assert not session.is_compacting
    assert '"type":"compaction"' not in _read(session.session_file or "")
