"""examples/extensions/permission_gate.py in a real session: a dangerous bash command and a write outside
the project are asked about (allow once / for this session / deny with a reason the model gets); safe
calls and calls allowed for the session are not; without a UI a risky call is blocked."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.coding.extensions.ui import NoUI
from tests.coding.extensions.fakes import ScriptedUI

from .conftest import errors, started, tool_results


def _call(name: str, args: dict[str, str], n: int) -> object:
    return faux_assistant_message([faux_tool_call(name, args, id=f"c{n}")], stop_reason="toolUse")


@pytest.mark.anyio
async def test_risky_calls_are_asked_and_answers_are_kept_for_the_session(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / "build").mkdir(parents=True)
    outside = tmp_path / "elsewhere" / "notes.txt"
    outside.parent.mkdir()
    steps = [_call("bash", {"command": "rm -rf build"}, 1),
             _call("bash", {"command": "rm -rf build"}, 2),           # allowed for the session: not asked
             _call("bash", {"command": "sudo ls"}, 3),                # denied with a reason
             _call("write", {"path": str(outside), "content": "x"}, 4),  # outside: allowed once
             _call("bash", {"command": "echo safe"}, 5),              # safe: not asked
             _call("write", {"path": "inside.txt", "content": "y"}, 6),  # inside the project: not asked
             faux_assistant_message("done")]
    ui = ScriptedUI(["Allow for this session", "Deny", "not as root", "Allow once"])
    session, ui = await started(project, "permission_gate", steps, ui, tools=["read", "bash", "write", "edit"])
    await session.prompt("tidy up")
    await session.wait_for_idle()
    assert errors(session) == []
    assert [kind for kind, _ in ui.asked] == ["select", "select", "input", "select"]
    assert "rm -rf build" in ui.asked[0][1] and "sudo ls" in ui.asked[1][1] and str(outside) in ui.asked[3][1]
    results = tool_results(session)
    assert [is_error for _, is_error, _ in results] == [False, False, True, False, False, False]
    assert "Denied by the user: not as root" in results[2][2]
    assert outside.read_text() == "x" and (project / "inside.txt").read_text() == "y"
    assert not (project / "build").exists()


@pytest.mark.anyio
async def test_deny_without_a_reason_and_no_ui_blocks(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    session, _ = await started(tmp_path / "p", "permission_gate",
                               [_call("bash", {"command": "sudo reboot"}, 1), faux_assistant_message("ok")],
                               ScriptedUI(["Deny", None]))
    await session.prompt("go")
    await session.wait_for_idle()
    assert tool_results(session)[0][1:] == (True, "Denied by the user")

    (tmp_path / "q").mkdir()
    session, _ = await started(tmp_path / "q", "permission_gate",
                               [_call("bash", {"command": "chmod -R 777 /"}, 1), faux_assistant_message("ok")],
                               NoUI())
    await session.prompt("go")
    await session.wait_for_idle()
    name, is_error, text = tool_results(session)[0]
    assert is_error and "there is no UI" in text
