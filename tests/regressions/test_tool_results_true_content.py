"""tester2 #23: the model gets a tool's true output; only the screen gets a cleaned one.

``read`` used to strip escape sequences and control characters from a file before the model saw it, so the
model's ``edit`` of the text it had just been given could not match (``Could not find the exact text``). pi gives
the model the file's text unchanged and cleans only what it draws; so does pi-tui now, for every tool: bash,
read, grep, find, ls, edit and tools from extensions and MCP servers (one agent-level rule: results pass
unchanged). The screen side is in test_tool_output_terminal_control.py (items, tool panel, tmux).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.ai.types import ToolResultMessage
from pi_tui.coding.tools import create_coding_tools
from pi_tui.tui.widgets import tool_format

from ..coding.session_core.helpers import EchoTool, Recorder, make_session

pytestmark = pytest.mark.anyio

FILE = "evil \x1b[2J\x1b[31mRED\x1b[0m \x1b]0;hacked-title\x07 end\n\x1b[?1049l bye\n"
CONTROLS = ("\x1b", "\x07", "\x9b")


def _last_tool_text(context: Any) -> str:
    results = [m for m in context.messages if isinstance(m, ToolResultMessage)]
    return "".join(getattr(b, "text", "") for b in results[-1].content)


async def test_the_model_can_edit_the_text_read_gave_it(tmp_path: Path, faux: FauxProvider) -> None:
    (tmp_path / "escapes.txt").write_text(FILE)

    def edit_what_was_read(context: Any, *_: Any) -> Any:
        first_line = _last_tool_text(context).split("\n")[0]  # exactly the text the model was given
        return faux_assistant_message(
            [faux_tool_call("edit", {"path": "escapes.txt", "edits": [{"oldText": first_line, "newText": "fixed"}]},
                            id="e1")],
            stop_reason="toolUse",
        )

    faux.set_responses([
        faux_assistant_message([faux_tool_call("read", {"path": "escapes.txt"}, id="r1")], stop_reason="toolUse"),
        edit_what_was_read,
        faux_assistant_message("done"),
    ])
    session = make_session(tmp_path, faux.get_model(), tools=list(create_coding_tools(str(tmp_path)).values()))
    rec = Recorder(session)
    await session.prompt("fix escapes.txt")
    ends = {e["toolCallId"]: e for e in rec.of("tool_execution_end")}
    assert ends["r1"]["result"]["content"][0]["text"] == FILE
    assert not ends["e1"]["isError"], ends["e1"]["result"]
    assert (tmp_path / "escapes.txt").read_text() == "fixed\n\x1b[?1049l bye\n"
    diff = tool_format.edit_diff(ends["e1"]["result"]["details"])  # the diff the transcript draws: clean
    assert diff is not None and "fixed" in diff and not any(c in diff for c in CONTROLS)


async def test_file_names_and_extension_tool_output_reach_the_model_as_they_are(
    tmp_path: Path, faux: FauxProvider
) -> None:
    name = "odd\x1b]0;fn-title\x07name.txt"
    (tmp_path / name).write_text("x\n")
    raw = "ext \x1b]52;c;aGVsbG8=\x07 out \x9b2J"
    faux.set_responses([
        faux_assistant_message([
            faux_tool_call("ls", {}, id="l1"),
            faux_tool_call("find", {"pattern": "odd*"}, id="f1"),
            faux_tool_call("grep", {"pattern": "x", "path": "."}, id="g1"),
            faux_tool_call("echo", {"text": raw}, id="x1"),  # a tool an extension or an MCP server gives
        ], stop_reason="toolUse"),
        faux_assistant_message("done"),
    ])
    tools = [*create_coding_tools(str(tmp_path)).values(), EchoTool()]
    session = make_session(tmp_path, faux.get_model(), tools=tools)
    rec = Recorder(session)
    await session.prompt("look")
    ends = {e["toolCallId"]: e for e in rec.of("tool_execution_end")}
    for call_id in ("l1", "f1", "g1"):
        assert name in ends[call_id]["result"]["content"][0]["text"], ends[call_id]
    assert ends["x1"]["result"]["content"][0]["text"] == raw
    for end in ends.values():  # the same results as the transcript and the tool panel show them
        shown = tool_format.result_text(end["result"]["content"])
        assert not any(c in shown for c in CONTROLS), shown
