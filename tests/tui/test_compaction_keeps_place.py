"""A compaction rebuilds the transcript without moving a scrolled-up reader (found by a new-user run, issue 9:
the view jumped to the end). The message at the top line stays there, as on resize (``transcript_geometry``);
a message that the compaction folds away leaves the view on its compaction summary, not at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.widgets.transcript_items import SummaryItem

from .helpers import make_app, wait_until
from .test_transcript_compaction_history import SUMMARY, ask, persisted_session
from .test_transcript_resize import long_answer, screen_lines


@pytest.mark.parametrize("pages,folded", [(2, False), (12, True)])
@pytest.mark.anyio
async def test_compact_while_scrolled_up_keeps_the_place(tmp_path: Path, pages: int, folded: bool) -> None:
    session, faux = persisted_session(tmp_path)
    faux.set_responses([faux_assistant_message(long_answer(k)) for k in range(3)] + [faux_assistant_message(SUMMARY)] * 2)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        for k in range(3):
            await ask(pilot, app, f"question {k}")
        t = app.transcript
        for _ in range(pages):
            await pilot.press("pageup")
            await pilot.pause()
        assert not t.following
        top_line = screen_lines(app)[0]
        assert top_line, "the view starts on a line of text"
        app.prompt_input.insert("/compact")
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(isinstance(i, SummaryItem) and i.label == "compaction"
                                            for i in t.items))
        await pilot.pause(0.2)
        assert not t.following, "the compaction sent the view to the end"
        lines = screen_lines(app)
        if folded:  # what the reader was on is folded under the summary: the view shows the summary
            assert "[compaction]" in "\n".join(lines)
        else:
            assert lines[0] == top_line, (top_line, lines[:3])
