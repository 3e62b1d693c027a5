"""The UI examples in the real app (Pilot): the permission gate's choice list is a modal answered with the
keyboard; plan mode's status segment is in the footer and its command is in the registry; the todo
list is an artifact in the transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from tests.tui.helpers import make_app, make_session, settle, transcript_text, wait_until

from .conftest import example, tool_results


@pytest.mark.anyio
async def test_permission_gate_modal_plan_status_and_todo_artifact(tmp_path: Path) -> None:
    (tmp_path / "build").mkdir()
    steps = [faux_assistant_message([faux_tool_call("bash", {"command": "rm -rf build"}, id="c1")],
                                    stop_reason="toolUse"),
             faux_assistant_message([faux_tool_call("todo", {"action": "add", "text": "ship it"}, id="c2")],
                                    stop_reason="toolUse"),
             faux_assistant_message("Cleaned and noted.")]
    session, _ = make_session(tmp_path, steps, extension_paths=[
        example("permission_gate"), example("plan_mode"), example("todo")])
    app = make_app(session)
    async with app.run_test(size=(100, 32)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: session.extensions.runtime.runner.has_handlers("tool_call"))
        await pilot.press(*"clean up", "enter")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "FuzzyPicker")
        await pilot.press(*"session", "enter")
        await wait_until(pilot, lambda: not app.working and len(tool_results(session)) == 2)
        await settle(pilot)
        assert tool_results(session)[0][1] is False and not (tmp_path / "build").exists()
        assert "1. ship it" in transcript_text(app)
        assert app.footer.data.statuses.get("todo") == "☑ 0/1"
        await pilot.press(*"/plan", "enter")
        await wait_until(pilot, lambda: app.footer.data.statuses.get("plan") == "⏸ plan mode")
        assert "⏸ plan mode" in app.footer.render().plain
        assert session.tools.get_active() == ["read", "grep", "find", "ls", "bash"]
