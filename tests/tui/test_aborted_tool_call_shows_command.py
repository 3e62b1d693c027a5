"""An aborted bash call showed ``$ ...`` instead of its command (new-user run on the offline demo model, issue 9's
class "nothing the user saw is lost"): the demo model's tool-call arguments stayed ``{}`` until the call had
streamed whole, so an Escape while the call was being written dropped what the screen could have shown. Now the
demo model streams the arguments parsed so far (as every real provider does), and an abort keeps them; a bash
call aborted while running keeps its command and what it printed, also when the session is opened again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.transcript_items import ToolItem

from .helpers import make_app, transcript_text, wait_until

pytestmark = pytest.mark.anyio

COMMAND = "echo first-line; " + " ".join(f"echo step-{n};" for n in range(30)) + " sleep 30"


def _tool(app: object) -> ToolItem | None:
    return next((i for i in app.transcript.items if isinstance(i, ToolItem)), None)  # type: ignore[attr-defined]


async def test_an_abort_while_the_call_streams_keeps_the_command_so_far(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "cfg"))
    session = create_agent_session(str(tmp_path), no_session=True)  # nothing configured: the offline demo
    seen: list[str] = []

    def listener(event: Any) -> None:  # abort at the first part of the command (whatever the demo's pacing)
        if getattr(event, "type", "") != "message_update" or seen:
            return
        for block in getattr(event.message, "content", []):
            command = (getattr(block, "arguments", None) or {}).get("command") if block.type == "toolCall" else None
            if command:
                seen.append(str(command))
                session.agent.abort()

    session.subscribe(listener)
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.text = f"run `{COMMAND}`"
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(seen), limit=30)
        assert seen[0] != COMMAND and COMMAND.startswith(seen[0])  # the call streamed in parts
        await wait_until(pilot, lambda: not app.working)
        tool = _tool(app)
        assert tool is not None and tool.status == "error"
        line = tool_format.call_line("bash", tool.args)
        assert line != "$ ..." and line.startswith("$ " + seen[0])
        assert line[:30] in transcript_text(app)


async def test_a_running_bash_call_aborted_keeps_its_command_and_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("PI_TUI_OFFLINE_TPS", "0")
    session = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"))
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.text = "run `echo printed-before; sleep 30`"
        await pilot.press("enter")
        await wait_until(pilot, lambda: _tool(app) is not None and "printed-before" in _tool(app).partial_text,
                         limit=30)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.working)
        text = transcript_text(app)
        assert "$ echo printed-before; sleep 30" in text and "printed-before\n" in text
        path = session.session_manager.get_session_file()
    again = create_agent_session(str(tmp_path), session_path=str(path))
    app = make_app(again)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready and _tool(app) is not None)
        text = transcript_text(app)
        assert "$ echo printed-before; sleep 30" in text and "printed-before\n" in text
