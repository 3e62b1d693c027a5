"""``/export`` in the app writes pi's kind of page: the conversation rendered, the tool call collapsed, the
session tree in the sidebar and the colours of the theme the app shows (after ``/theme light``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call

from .helpers import make_app, make_session, transcript_text, wait_until


async def _run(pilot: Any, text: str) -> None:
    pilot.app.prompt_input.insert(text)
    await pilot.press("enter")
    await pilot.pause(0.1)


@pytest.mark.anyio
async def test_export_writes_the_rendered_page_in_the_current_theme(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("line one\n", encoding="utf-8")
    steps = [
        faux_assistant_message([faux_tool_call("read", {"path": "notes.txt"})], stop_reason="toolUse"),
        faux_assistant_message("The file says **line one**."),
    ]
    session, _ = make_session(tmp_path, steps, tools=["read"])
    app = make_app(session)
    out = tmp_path / "page.html"
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _run(pilot, "what is in notes.txt?")
        await wait_until(pilot, lambda: not app.working and "line one" in transcript_text(app))
        await _run(pilot, "/theme light")
        await wait_until(pilot, lambda: app.pi_theme.name == "light")
        await _run(pilot, f"/export {out}")
        await wait_until(pilot, lambda: f"Session exported to: {out}" in transcript_text(app))
    page = out.read_text(encoding="utf-8")
    assert "--exportPageBg:#f8f8f8;" in page  # light, as on screen
    assert "The file says <strong>line one</strong>." in page
    assert '<details class="tool-call success" data-tool="read"' in page and "line one" in page
    assert page.count('<li class="node') == len(session.session_manager.get_entries())
    assert 'class="node user on-path"' in page and " leaf" in page
