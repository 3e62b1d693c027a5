"""The footer's usage totals are summed once per finished message, never per streamed delta or per repaint
(pi fix 0.99.0 "the footer recomputed usage totals on every render while streaming"; issue 15)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message

from .helpers import make_app, make_session, settle, wait_until


@pytest.mark.anyio
async def test_a_streamed_reply_sums_the_footer_totals_a_few_times_not_per_delta(tmp_path: Path) -> None:
    reply = faux_assistant_message("word " * 600)
    session, _ = make_session(tmp_path, [reply], tokens_per_second=4000)
    calls: list[int] = []
    real = session.get_session_totals

    def counted() -> Any:
        calls.append(1)
        return real()

    session.get_session_totals = counted
    deltas: list[int] = []
    session.subscribe(lambda e: deltas.append(1) if getattr(e, "type", "") == "message_update" else None)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await settle(pilot)
        calls.clear()
        app.prompt_input.insert("go")
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working and any(
            getattr(m, "role", "") == "assistant" for m in session.messages))
        await settle(pilot)
    assert len(deltas) > 50, "the reply streamed in many deltas"
    assert 1 <= len(calls) <= 6, f"footer totals summed {len(calls)} times for {len(deltas)} deltas"
