"""tester3 #1 and #2: with the tool panel open during a run, one Escape aborts the run as the editor's title says
(the first one only moved focus back to the editor); the panel's "Output so far" follows the end of a running
call's output (it showed the first lines for the whole run), PageUp/PageDown scroll it, and a reader who scrolled
up is not pulled back down."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.tui.widgets.transcript_items import ToolItem

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio

LONG_RUN = "for i in $(seq 1 200); do echo out $i; sleep 0.05; done"


def _script() -> list[Any]:
    return [
        faux_assistant_message([faux_tool_call("bash", {"command": LONG_RUN}, id="c1")], stop_reason="toolUse"),
        faux_assistant_message("done"),
    ]


def _tool(app: Any) -> ToolItem | None:
    return next((i for i in app.transcript.items if isinstance(i, ToolItem)), None)


def _partial_has(app: Any, text: str) -> bool:
    tool = _tool(app)
    return tool is not None and text in tool.partial_text


async def _open_panel_on_a_run(pilot: Any, app: Any, session: Any) -> asyncio.Future[Any]:
    await wait_until(pilot, lambda: app.session_ready)
    task = asyncio.ensure_future(session.prompt("go"))
    await wait_until(pilot, lambda: _partial_has(app, "out 3"), limit=15)
    await pilot.press("f2")
    await wait_until(pilot, lambda: app.tool_panel.is_built and app.focused is app.tool_panel.option_list)
    return task


async def test_one_escape_with_the_panel_focused_aborts_the_run(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, _script())
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        task = await _open_panel_on_a_run(pilot, app, session)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.working, limit=5)
        await task
        tool = _tool(app)
        assert tool is not None and tool.status in ("error", "interrupted")
        assert app.focused is app.prompt_input  # and the editor has the focus back
        assert "out 200" not in tool.result_text


async def test_escape_in_the_panel_when_idle_only_returns_to_the_editor(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("hi")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.set_text("draft kept")
        await pilot.press("f2")
        await wait_until(pilot, lambda: app.tool_panel.is_built and app.focused is app.tool_panel.option_list)
        await pilot.press("escape")
        await pilot.pause(0.05)
        assert app.focused is app.prompt_input and app.prompt_input.text == "draft kept"


async def test_the_panel_output_follows_the_end_and_pages_scroll_it(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, _script())
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        task = await _open_panel_on_a_run(pilot, app, session)
        scroll = app.tool_panel.query_one("#tool-detail-scroll", VerticalScroll)
        await wait_until(pilot, lambda: _partial_has(app, "out 60"), limit=20)
        at_end = lambda: scroll.max_scroll_y > 0 and scroll.scroll_y >= scroll.max_scroll_y - 1  # noqa: E731
        await wait_until(pilot, at_end)  # at the end: the newest lines are in view
        assert "PgUp/PgDn" in str(app.tool_panel.query_one("#tool-title").render())
        await pilot.press("pageup")
        await wait_until(pilot, lambda: scroll.scroll_y < scroll.max_scroll_y - 1)
        held = scroll.scroll_y
        await wait_until(pilot, lambda: _partial_has(app, "out 90"), limit=20)
        await pilot.pause(0.2)
        assert scroll.scroll_y == held  # the reader's place is kept while output arrives
        for _ in range(60):  # paged down to the end
            if scroll.scroll_y >= scroll.max_scroll_y - 1:
                break
            await pilot.press("pagedown")
            await pilot.pause(0.05)
        await wait_until(pilot, lambda: _partial_has(app, "out 110"), limit=20)
        await wait_until(pilot, at_end)  # back at the end: it follows again
        await pilot.press("escape")
        await task
