"""System prompt assembly (pi-reference §3.12) checked against pi 0.73.1's recorded prompt; offline model script."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pi_tui.ai.stream import complete_simple
from pi_tui.ai.types import Context, TextContent, Tool, ToolResultMessage, UserMessage
from pi_tui.coding.offline_model import offline_model, offline_reply
from pi_tui.coding.system_prompt import build_system_prompt, load_context_files

TRACE = Path(__file__).resolve().parents[2] / "fixtures/pi-traces/coding/json-tool-loop/requests/001.json"


def test_default_prompt_matches_pi_apart_from_name_and_docs() -> None:
    pi_prompt = json.loads(TRACE.read_text())["body"]["messages"][0]["content"]
    ours = build_system_prompt(cwd="<PROJECT>", tools=None)
    docs = re.compile(r"\n\n(?:Pi|pi-tui) documentation \(.*?(?=\nCurrent (?:date|working directory):)", re.S)
    expected = docs.sub("", pi_prompt).replace("\nCurrent date: <DATE>", "")  # no date: DIFFERENCES D23
    got = docs.sub("", ours).replace("operating inside pi-tui,", "operating inside pi,")
    assert got == expected


def test_context_files_and_append(tmp_path: Path) -> None:
    agent = tmp_path / "agent"
    project = tmp_path / "work" / "proj"
    agent.mkdir()
    project.mkdir(parents=True)
    (agent / "AGENTS.md").write_text("global rules")
    (tmp_path / "work" / "CLAUDE.md").write_text("parent rules")
    (project / "AGENTS.md").write_text("project rules")
    files = load_context_files(project, agent)
    assert [f.content for f in files] == ["global rules", "parent rules", "project rules"]
    prompt = build_system_prompt(cwd=str(project), tools=["read", "bash", "grep"], append_system_prompt="EXTRA",
                                 context_files=files)
    assert "- grep: Search file contents for patterns (respects .gitignore)" in prompt
    assert "Prefer grep tool over bash for file exploration" in prompt  # only active tools (pi 0.77.0)
    assert prompt.index("EXTRA") < prompt.index("# Project Context") < prompt.index(f"## {project}/AGENTS.md")
    assert prompt.endswith(f"\n\nCurrent working directory: {project}")
    custom = build_system_prompt(cwd="/x", custom_prompt="Be brief.")
    assert custom == "Be brief.\nCurrent working directory: /x"


def _tools(*names: str) -> list[Tool]:
    return [Tool(name=n) for n in names]


def test_offline_script_first_answer_explains_setup() -> None:
    reply = offline_reply(Context(messages=[UserMessage(content="hello")], tools=_tools("read", "bash")))
    kinds = [b.type for b in reply.content]
    assert kinds == ["thinking", "text"]
    text = reply.content[1].text
    assert "offline demo model" in text and "ANTHROPIC_API_KEY" in text and "auth.json" in text
    assert "models.json" in text and "```" in text


def test_offline_script_tool_calls() -> None:
    def call(text: str, tools: tuple[str, ...] = ("read", "bash")) -> tuple[str, dict[str, object]]:
        reply = offline_reply(Context(messages=[UserMessage(content=text)], tools=_tools(*tools)))
        block = reply.content[-1]
        assert reply.stop_reason == "toolUse" and block.type == "toolCall"
        return block.name, block.arguments

    assert call("please read notes.txt") == ("read", {"path": "notes.txt"})
    assert call("run `git status`") == ("bash", {"command": "git status"})
    assert call("list the files") == ("bash", {"command": "ls -la"})
    assert call("list the files", ("read", "bash", "ls")) == ("ls", {"path": "."})


def test_offline_script_summarises_tool_results() -> None:
    first = offline_reply(Context(messages=[UserMessage(content="read a.py")], tools=_tools("read")))
    result = ToolResultMessage(tool_call_id=first.content[-1].id, tool_name="read",
                               content=[TextContent(text="print('hi')\n")])
    reply = offline_reply(Context(messages=[UserMessage(content="read a.py"), first, result], tools=_tools("read")))
    text = reply.content[0].text
    assert reply.stop_reason == "stop" and "```py\nprint('hi')\n```" in text


@pytest.mark.anyio
async def test_offline_model_streams_without_network() -> None:
    reply = await complete_simple(offline_model(), Context(messages=[UserMessage(content="hi")]))
    assert reply.stop_reason == "stop" and reply.provider == "pi-tui-offline" and reply.model == "offline-demo"
