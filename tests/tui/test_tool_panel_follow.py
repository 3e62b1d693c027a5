"""Issue 9 #8: the tool panel opened mid-run showed the first or last-picked call, not the running one; every
bash row read ``{"command": "for i...``; the whole list was rebuilt on every update and every second."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.agent.events import ToolExecutionUpdateEvent
from pi_tui.agent.types import AgentToolResult
from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.ai.types import TextContent
from pi_tui.tui.widgets.transcript_items import ToolItem

from .helpers import make_app, make_session, wait_until
from .test_key_routing import keys_for

LOOP = "for i in 1 2 3 4 5 6 7 8; do echo tick $i; sleep 1; done"


def _rows(app: Any) -> list[str]:
    ol = app.tool_panel.option_list
    return [ol.get_option_at_index(i).prompt.plain for i in range(ol.option_count)]


def _running(app: Any) -> ToolItem | None:
    return next((i for i in app.transcript.items if isinstance(i, ToolItem) and i.status == "running"), None)


def _script() -> list[Any]:
    return [
        faux_assistant_message([faux_tool_call("bash", {"command": "echo first"}, id="c1"),
                                faux_tool_call("read", {"path": "notes.txt"}, id="c2")], stop_reason="toolUse"),
        faux_assistant_message(faux_tool_call("bash", {"command": LOOP}, id="c3"), stop_reason="toolUse"),
        faux_assistant_message("done"),
    ]


@pytest.mark.anyio
async def test_panel_follows_the_running_call_until_the_user_picks_one(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    session, _ = make_session(tmp_path, _script())
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press("ctrl+b")  # the panel is open while the calls arrive
        await wait_until(pilot, lambda: app.tool_panel.is_built and app.focused is app.tool_panel.option_list)
        await pilot.press("escape", *keys_for("go"), "enter")
        await wait_until(pilot, lambda: _running(app) is not None and _running(app).tool_call_id == "c3")
        await wait_until(pilot, lambda: app.tool_panel.option_list.option_count == 3)
        await pilot.pause(0.05)
        assert app.tool_panel.selected() is _running(app)  # the running call, not the first one
        rows = _rows(app)
        assert "$ echo first" in rows[0] and "read notes.txt" in rows[1] and "$ for i in 1 2 3" in rows[2]
        assert not any("{" in r for r in rows)  # the tool's own short form, not JSON
        await pilot.click("#tool-list", offset=(4, 1))  # the user picks the read call: the highlight stays
        await pilot.pause(0.05)
        assert app.tool_panel.selected() is not None and app.tool_panel.selected().tool_call_id == "c2"
        await wait_until(pilot, lambda: "tick 2" in (_running(app) or ToolItem("", "", {})).partial_text)
        assert app.tool_panel.selected().tool_call_id == "c2"
        await pilot.press("ctrl+b", "ctrl+b")  # closed and opened again: it follows the running call again
        await wait_until(pilot, lambda: app.tool_panel.display)
        await pilot.pause(0.05)
        assert app.tool_panel.selected() is _running(app)
        await pilot.press("escape")  # back to the editor; Escape there aborts the run
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.working)


@pytest.mark.anyio
async def test_an_update_re_renders_one_row_and_the_clock_only_running_rows(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    session, _ = make_session(tmp_path, _script())
    app = make_app(session, show_timing=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys_for("go"), "enter")
        await wait_until(pilot, lambda: _running(app) is not None and _running(app).tool_call_id == "c3")
        await pilot.press("f2")
        await wait_until(pilot, lambda: app.tool_panel.is_built and app.tool_panel.option_list.option_count == 3)
        ol = app.tool_panel.option_list
        before = [ol.get_option_at_index(i) for i in range(3)]
        first_row = before[0].prompt.plain
        app.view.handle(ToolExecutionUpdateEvent(
            tool_call_id="c3", tool_name="bash", args={"command": LOOP},
            partial_result=AgentToolResult(content=[TextContent(text="tick 1\ntick 2")], details={})))
        await pilot.pause(1.3)  # the elapsed-time clock ticks at least once
        after = [ol.get_option_at_index(i) for i in range(3)]
        assert all(a is b for a, b in zip(before, after, strict=True))  # no row was rebuilt
        assert after[0].prompt.plain == first_row  # a finished row is never re-rendered by the clock
        await pilot.press("escape", "escape")
        await wait_until(pilot, lambda: not app.working)
