"""Issue 9 item 4: after /compact (and after quitting and ``-c``) the transcript still holds the whole branch.

The compacted part is folded under the compaction summary (collapsed: the screen looks like pi's context view,
summary then kept messages); a click on the summary or Ctrl+O unfolds it. The LLM context is unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, register_faux_provider
from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction.prepare import CompactionSettings
from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import SummaryItem

from .helpers import make_app, transcript_text, wait_until
from .test_transcript_resize import long_answer

SUMMARY = "## Goal\nAnswer three questions.\n\n## Progress\nAll three answered."


def persisted_session(tmp_path: Path, continue_recent: bool = False) -> Any:
    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1", "context_window": 200000}])
    model = faux.get_model()
    assert model is not None
    settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=400))
    session = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"),
                                   continue_recent=continue_recent, settings=settings)
    session.models.allow(model.provider, model.id, model)
    session.set_model(model)
    return session, faux


def context_text(session: Any) -> str:
    return "\n".join(str(getattr(m, "content", "")) + str(getattr(m, "summary", "")) for m in session.messages)


async def ask(pilot: Any, app: Any, text: str) -> None:
    app.prompt_input.insert(text)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not app.working)
    await app.session.wait_for_idle()
    await pilot.pause(0.1)


def compaction_item(app: Any) -> SummaryItem:
    return next(i for i in app.transcript.items if isinstance(i, SummaryItem) and i.label == "compaction")


async def check_history(pilot: Any, app: Any) -> None:
    """Collapsed: summary, then the kept messages; unfolded (click): question 0 and its answer are back."""
    t: Transcript = app.transcript
    assert "question 0" not in transcript_text(app)  # folded under the summary
    assert "Line 60 of answer 2" in transcript_text(app)
    summary = compaction_item(app)
    assert summary.folded_items, "the compacted messages are in the transcript"
    t.scroll_home_now()
    await pilot.pause()
    assert "[compaction]" in t.visible_text()
    top = t.item_top(summary)
    assert top is not None
    await pilot.click(Transcript, offset=(5, top + 1 - int(t.scroll_y)))
    await pilot.pause(0.1)
    text = transcript_text(app)
    assert "question 0" in text and "Line 60 of answer 0" in text and "question 2" in text
    assert text.index("[compaction]") < text.index("question 0") < text.index("Line 60 of answer 2")
    assert "question 0" in t.visible_text()
    await pilot.click(Transcript, offset=(5, top + 1 - int(t.scroll_y)))
    await pilot.pause(0.1)
    assert "question 0" not in transcript_text(app)
    await pilot.press("ctrl+o")  # the global toggle unfolds it too
    await pilot.pause(0.1)
    assert "question 0" in transcript_text(app)
    await pilot.press("ctrl+o")
    await pilot.pause(0.1)


@pytest.mark.anyio
async def test_compacted_history_stays_in_the_transcript_after_compact_and_continue(tmp_path: Path) -> None:
    session, faux = persisted_session(tmp_path)
    faux.set_responses([faux_assistant_message(long_answer(k)) for k in range(3)] + [faux_assistant_message(SUMMARY)] * 2)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for k in range(3):
            await ask(pilot, app, f"question {k}")
        app.prompt_input.insert("/compact")
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(isinstance(i, SummaryItem) for i in app.transcript.items))
        await pilot.pause(0.2)
        assert "question 0" not in context_text(session)  # the LLM context is the compacted one
        await check_history(pilot, app)
    resumed, faux = persisted_session(tmp_path, continue_recent=True)
    assert str(resumed.session_file) == str(session.session_file)
    assert [getattr(m, "role", None) for m in resumed.messages][0] == "compactionSummary"
    assert "question 0" not in context_text(resumed)
    app = make_app(resumed)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.1)
        await check_history(pilot, app)
        assert "question 0" not in context_text(resumed)
