"""create_coding_tools and the tool definitions sent to the LLM (pi's request body)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.coding.tools import (
    ALL_TOOL_NAMES,
    DEFAULT_ACTIVE_TOOL_NAMES,
    READ_ONLY_TOOL_NAMES,
    create_coding_tools,
)
from pi_tui.coding.tools.path_utils import expand_path, resolve_to_cwd

from .helpers import run, text_of

REQUEST = Path(__file__).resolve().parents[2] / "fixtures" / "pi-traces" / "coding" / "json-tool-loop" / "requests" / "001.json"


def test_all_tools_and_defaults(tmp_path: Path) -> None:
    tools = create_coding_tools(str(tmp_path))
    assert tuple(tools) == ALL_TOOL_NAMES == ("read", "bash", "edit", "write", "grep", "find", "ls")
    assert DEFAULT_ACTIVE_TOOL_NAMES == ("read", "bash", "edit", "write")
    assert READ_ONLY_TOOL_NAMES == ("read", "grep", "find", "ls")
    for name, tool in tools.items():
        assert tool.name == name == tool.label
        assert set(tool.to_json_dict()) == {"name", "description", "parameters", "label"}


def test_definitions_match_pi_request_body(tmp_path: Path) -> None:
    if not REQUEST.exists():
        pytest.skip("trace not available")
    sent = {t["function"]["name"]: t["function"] for t in json.loads(REQUEST.read_text())["body"]["tools"]}
    tools = create_coding_tools(str(tmp_path))
    for name in DEFAULT_ACTIVE_TOOL_NAMES:
        assert tools[name].description == sent[name]["description"]
        assert tools[name].parameters == sent[name]["parameters"]
        assert list(tools[name].parameters) == list(sent[name]["parameters"])  # key order too


@pytest.mark.anyio
async def test_settings_reach_bash(tmp_path: Path) -> None:
    tools = create_coding_tools(str(tmp_path), {"shellCommandPrefix": "X=from-settings"})
    assert text_of(await run(tools["bash"], {"command": "echo $X"})) == "from-settings\n"


def test_path_resolution(tmp_path: Path) -> None:
    home = str(Path.home())
    assert expand_path("@src/a.py") == "src/a.py"
    assert expand_path("~") == home and expand_path("~/x") == home + "/x"
    assert expand_path("a\u2009b\u3000c") == "a b c"
    assert resolve_to_cwd("sub/../f.txt", str(tmp_path)) == str(tmp_path / "f.txt")
    assert resolve_to_cwd("/abs/p", str(tmp_path)) == "/abs/p"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("name", "params", "message"),
    [
        ("read", {"path": "f.txt"}, "Operation aborted"),
        ("edit", {"path": "f.txt", "edits": [{"oldText": "x", "newText": "y"}]}, "Operation aborted"),
        ("write", {"path": "f.txt", "content": "new"}, "Operation aborted"),
        ("grep", {"pattern": "x"}, "Operation aborted"),
        ("find", {"pattern": "*"}, "Operation aborted"),
        ("ls", {}, "Operation aborted"),
        ("bash", {"command": "echo never > marker"}, "Command aborted"),
    ],
)
async def test_every_tool_honours_an_aborted_signal(
    tmp_path: Path, name: str, params: dict[str, object], message: str
) -> None:
    (tmp_path / "f.txt").write_text("x\n")
    controller = AbortController()
    controller.abort()
    tool = create_coding_tools(str(tmp_path))[name]
    with pytest.raises(Exception) as info:
        await run(tool, params, controller.signal)
    assert str(info.value) == message
    assert (tmp_path / "f.txt").read_text() == "x\n"  # nothing changed
    assert not (tmp_path / "marker").exists()  # the aborted command never ran
