"""New-user run #25: the compaction summary can be read in the app: a collapsed block that Ctrl+O or a click
expands to the summary text, live after ``/compact`` and after a resume (widgets/transcript_items.SummaryItem)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, transcript_text, wait_until
from .test_transcript_compaction_history import SUMMARY, ask, compaction_item, persisted_session
from .test_transcript_resize import long_answer

pytestmark = pytest.mark.anyio


async def _check_summary(pilot: Any, app: Any) -> None:
    text = transcript_text(app)
    assert "Compacted from" in text and "to expand" in text
    assert "All three answered." not in text  # collapsed
    await pilot.press("ctrl+o")
    await pilot.pause(0.1)
    text = transcript_text(app)
    assert "## Goal" in text and "All three answered." in text
    await pilot.press("ctrl+o")
    await pilot.pause(0.1)
    assert "All three answered." not in transcript_text(app)
    summary = compaction_item(app)
    assert summary.toggle()  # a click on it
    await pilot.pause(0.1)
    assert "All three answered." in transcript_text(app)
    summary.toggle()


async def test_the_summary_text_opens_live_and_on_resume(tmp_path: Path) -> None:
    session, faux = persisted_session(tmp_path)
    faux.set_responses([faux_assistant_message(long_answer(k)) for k in range(3)] + [faux_assistant_message(SUMMARY)] * 2)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for k in range(3):
            await ask(pilot, app, f"question {k}")
        app.prompt_input.insert("/compact")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Compacted from" in transcript_text(app))
        await _check_summary(pilot, app)
    resumed, _ = persisted_session(tmp_path, continue_recent=True)
    app = make_app(resumed)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.1)
        await _check_summary(pilot, app)
