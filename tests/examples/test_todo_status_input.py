"""examples/extensions/todo.py, status_line.py and input_transform.py in a real session: the todo list
is an artifact after each change, counted in the footer and rebuilt on resume; the status segment follows
turns; ``?quick`` / ``#tag`` rewrite what the model receives and ``ping`` never reaches it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.coding.extensions.events import SessionStartEvent

from .conftest import Capture, errors, role, started, tool_results


def _todo(n: int, **args: object) -> object:
    return faux_assistant_message([faux_tool_call("todo", dict(args), id=f"t{n}")], stop_reason="toolUse")


@pytest.mark.anyio
async def test_todo_list_is_an_artifact_counted_in_the_footer_and_rebuilt(tmp_path: Path) -> None:
    steps = [_todo(1, action="add", text="write tests"), _todo(2, action="add", text="ship"),
             _todo(3, action="done", id=1), _todo(4, action="done", id=9), faux_assistant_message("planned")]
    session, ui = await started(tmp_path, "todo", steps)
    assert "todo" in session.tools.get_active()
    assert "Use todo to plan work" in session.agent.state.system_prompt
    await session.prompt("plan the release")
    await session.wait_for_idle()
    assert errors(session) == []
    artifacts = [a.content for a in role(session, "artifact")]
    assert artifacts[-1] == "- [x] 1. write tests\n- [ ] 2. ship"
    assert len(artifacts) == 3  # the failing "done 9" changed nothing and showed nothing
    assert tool_results(session)[3][1:] == (True, "no todo #9")
    assert ui.statuses["todo"] == "☑ 1/2"
    # a restart (resume) rebuilds the list from the tool results' details
    runtime = session.extensions.runtime
    ui.statuses.clear()
    await runtime.runner.emit("session_start", SessionStartEvent(reason="resume"))
    assert ui.statuses["todo"] == "☑ 1/2"
    await session.prompt("/todos")
    assert role(session, "artifact")[-1].content == artifacts[-1]


@pytest.mark.anyio
async def test_status_line_follows_turns(tmp_path: Path) -> None:
    steps = [faux_assistant_message([faux_tool_call("ls", {"path": "."}, id="l1")], stop_reason="toolUse"),
             faux_assistant_message("two turns")]
    session, ui = await started(tmp_path, "status_line", steps, tools=["ls"])
    assert ui.statuses["turns"] == "ready"
    seen: list[str | None] = []
    record = ui.set_status

    def spy(key: str, text: str | None) -> None:
        seen.append(text)
        record(key, text)

    ui.set_status = spy  # type: ignore[method-assign]
    await session.prompt("look")
    await session.wait_for_idle()
    assert seen[:2] == ["● turn 1…", "● turn 2…"]
    assert seen[-1] is not None and seen[-1].startswith("✓ 2 turns")


@pytest.mark.anyio
async def test_input_transform_rewrites_or_answers(tmp_path: Path) -> None:
    capture = Capture(faux_assistant_message("ok"))
    session, ui = await started(tmp_path, "input_transform", [capture, capture])
    await session.prompt("ping")
    assert ui.notices == [("info", "pong")] and capture.contexts == []
    assert role(session, "user") == []
    await session.prompt("?quick what is a monad")
    await session.wait_for_idle()
    assert capture.user_texts() == ["Answer briefly, in one or two sentences: what is a monad"]
    await session.prompt("#tests #docs fix the parser")
    await session.wait_for_idle()
    assert capture.user_texts()[-1] == "[Focus: tests, docs] fix the parser"
    await session.prompt("?quick")
    assert ui.notices[-1] == ("warning", "Usage: ?quick <question>") and len(capture.contexts) == 2
