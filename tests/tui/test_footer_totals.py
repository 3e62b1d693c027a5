"""The footer's token totals are the session's: `/compact` does not reset them (issue 9; pi's footer sums every
assistant entry of the session, compacted ones included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.widgets.transcript_items import SummaryItem

from .helpers import make_app, make_session, settle, wait_until


@pytest.mark.anyio
async def test_footer_totals_survive_compact(tmp_path: Path) -> None:
    steps = [faux_assistant_message(f"answer {i} " + "word " * 60) for i in range(3)]
    summary = faux_assistant_message("## Goal\nSummary of the talk.")
    session, _ = make_session(tmp_path, [*steps, summary, summary.model_copy()])  # history + turn prefix
    session.settings.compaction.keep_recent_tokens = 10  # the cut keeps only the last turn
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for i in range(3):
            app.prompt_input.insert(f"question {i}")
            await pilot.press("enter")
            await wait_until(pilot, lambda i=i: not app.working and len(
                [m for m in session.messages if getattr(m, "role", "") == "assistant"]) == i + 1)
        await settle(pilot)
        app._refresh_footer_now()
        before = (app.footer.data.input, app.footer.data.output)
        assert before[0] > 0 and before[1] > 0
        app.prompt_input.insert("/compact")
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(isinstance(i, SummaryItem) for i in app.transcript.items))
        await settle(pilot)
        assert len([m for m in session.messages if getattr(m, "role", "") == "assistant"]) < 3  # compacted
        app._refresh_footer_now()
        assert (app.footer.data.input, app.footer.data.output) == before
        assert "↑" in app.footer.render().plain
