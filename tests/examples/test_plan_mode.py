"""examples/extensions/plan_mode.py in a real session: in plan mode the model has read-only tools and
read-only bash, and is told to plan; when its plan is approved all tools come back, the steps are a
widget and the model is asked to carry them out; "Refine" sends the user's change."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from tests.coding.extensions.fakes import ScriptedUI

from .conftest import Capture, errors, role, settle, started, tool_results

PLAN = "I looked around.\n\nPlan:\n1. Add a failing test\n2. Fix the parser\n"


class WidgetUI(ScriptedUI):
    def __init__(self, answers: Sequence[object]) -> None:
        super().__init__(answers)
        self.widgets: dict[str, list[str] | None] = {}

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: str = "aboveEditor") -> None:
        self.widgets[key] = None if lines is None else list(lines)


@pytest.mark.anyio
async def test_plan_then_execute(tmp_path: Path) -> None:
    planning = Capture(faux_assistant_message(PLAN))
    executing = Capture(faux_assistant_message([faux_tool_call("write", {"path": "fix.txt", "content": "ok"},
                                                               id="w1")], stop_reason="toolUse"))
    steps = [faux_assistant_message([faux_tool_call("bash", {"command": "rm -rf src"}, id="b1"),
                                     faux_tool_call("bash", {"command": "ls"}, id="b2")], stop_reason="toolUse"),
             planning, executing, faux_assistant_message("Both steps done.")]
    ui = WidgetUI(["Execute the plan"])
    session, ui = await started(tmp_path, "plan_mode", steps, ui, tools=["read", "bash", "edit", "write", "grep"])
    await session.prompt("/plan")
    assert session.tools.get_active() == ["read", "grep", "find", "ls", "bash"]
    assert ui.statuses["plan"] == "⏸ plan mode"
    await session.prompt("fix the parser bug")
    await settle(session)  # the approved plan starts a second run
    assert errors(session) == []
    results = tool_results(session)
    assert results[0][1] and "only read-only commands" in results[0][2]
    assert results[1][1] is False
    assert "PLAN MODE" in planning.contexts[0].system_prompt
    assert [t.name for t in planning.contexts[0].tools or []] == ["read", "grep", "find", "ls", "bash"]
    assert ui.asked == [("select", "Plan with 2 steps ready")]
    assert ui.widgets["plan"] == ["☐ 1. Add a failing test", "☐ 2. Fix the parser"]
    assert "plan" not in ui.statuses or ui.statuses["plan"] is None
    assert "PLAN MODE" not in executing.contexts[0].system_prompt
    assert {t.name for t in executing.contexts[0].tools or []} == {"read", "bash", "edit", "write", "grep"}
    custom = role(session, "custom")
    assert custom and "1. Add a failing test\n2. Fix the parser" in custom[-1].content
    assert (tmp_path / "fix.txt").read_text() == "ok"


@pytest.mark.anyio
async def test_refine_sends_the_change_and_stays_in_plan_mode(tmp_path: Path) -> None:
    second = Capture(faux_assistant_message("Plan:\n1. Only fix the parser\n"))
    ui = WidgetUI(["Refine the plan", "skip the test", "Stay in plan mode"])
    session, ui = await started(tmp_path, "plan_mode", [faux_assistant_message(PLAN), second], ui,
                                extension_flags=["--plan"])
    assert ui.statuses["plan"] == "⏸ plan mode"  # --plan starts in plan mode
    await session.prompt("plan it")
    await settle(session)
    assert second.user_texts()[-1] == "skip the test"
    assert "PLAN MODE" in second.contexts[0].system_prompt
    assert [kind for kind, _ in ui.asked] == ["select", "input", "select"]
    assert ui.statuses["plan"] == "⏸ plan mode"
