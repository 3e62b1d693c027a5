"""Ctrl+T (hide/show thinking) while a bash tool and a user ``!cmd`` are printing keeps their partial output on
screen (pi 1.x 0.84.4: "toggling thinking visibility cleared partial output from running Bash tools"; pi-tui
re-renders only the assistant items that have thinking)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.tui.widgets.tool_items import BashItem, ToolItem

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio

SLOW = "for i in 1 2 3; do echo partial-$i; sleep 0.2; done; sleep 3; echo finished"


async def test_ctrl_t_while_bash_runs_keeps_its_partial_output(tmp_path: Path) -> None:
    steps = [
        faux_assistant_message([faux_tool_call("bash", {"command": SLOW}, id="b1")], stop_reason="toolUse"),
        faux_assistant_message("done"),
    ]
    session, _ = make_session(tmp_path, steps, reasoning=True)
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        task = asyncio.ensure_future(session.prompt("run it"))
        tool = None

        def printed() -> bool:
            nonlocal tool
            tool = next((i for i in app.transcript.items if isinstance(i, ToolItem)), None)
            return tool is not None and "partial-3" in tool.partial_text

        await wait_until(pilot, printed, limit=15)
        for _ in range(2):
            await pilot.press("ctrl+t")
            await pilot.pause(0.15)
            app.transcript.flush()
            await pilot.pause()
            assert tool is not None and "partial-3" in tool.partial_text
            assert "partial-1" in app.transcript.visible_text() and "partial-3" in app.transcript.visible_text()
        session.agent.abort()
        await task


async def test_ctrl_t_while_a_user_command_runs_keeps_its_output(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.set_text("!" + SLOW)
        await pilot.press("enter")
        await wait_until(pilot, lambda: "partial-3" in app.transcript.visible_text(), limit=15)
        await pilot.press("ctrl+t")
        await pilot.pause(0.15)
        app.transcript.flush()
        await pilot.pause()
        assert "partial-1" in app.transcript.visible_text() and "partial-3" in app.transcript.visible_text()
        assert any(isinstance(i, BashItem) for i in app.transcript.items)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not session.is_bash_running, limit=10)
