"""Issue 10 class 5: unknown and repeatedly failing tool calls.

Real reports:
- openclaw#62971 / PR #63023 (2026-04-08): after ``Tool x not found`` the model retried the same missing tool
  until the user ran /reset; generic loop detection was opt-in and warned only after 10 repeats.
- openclaw#68578 (2026-04-18): LM Studio + Gemma 4 called a ``weather`` tool that did not exist, over and over.
- HKUDS/nanobot#2298 (2026-06-23): the same failing ``exec`` call 172 times, stopped only by a global limit of
  200 iterations.
- filip-michalsky/SalesGPT#93, vectara/py-vectara-agentic#62: "is not a valid tool, try one of [...]"; naming
  the real tools is what lets a model recover.
pi 0.73.1 answers ``Tool x not found`` (no list) and has no limit: the faux model below would loop forever.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.agent import Agent
from pi_tui.agent.types import AgentTool, AgentToolResult
from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.ai.types import TextContent
from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.tools import create_coding_tools

from ..coding.session_core.helpers import Recorder, make_session

pytestmark = pytest.mark.anyio


def _calls(name: str, args: dict[str, Any], n: int) -> list[Any]:
    return [
        faux_assistant_message([faux_tool_call(name, args, id=f"c{i}")], stop_reason="toolUse") for i in range(n)
    ]


async def test_unknown_tool_error_names_the_tools_that_exist(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses(
        [
            faux_assistant_message([faux_tool_call("Bash", {"command": "ls"}, id="c1")], stop_reason="toolUse"),
            faux_assistant_message([faux_tool_call("read_file", {"path": "x"}, id="c2")], stop_reason="toolUse"),
            faux_assistant_message("ok"),
        ]
    )
    tools = list(create_coding_tools(str(tmp_path)).values())
    session = make_session(tmp_path, faux.get_model(), tools=tools)
    rec = Recorder(session)
    await session.prompt("go")
    texts = [e["result"]["content"][0]["text"] for e in rec.of("tool_execution_end")]
    assert texts[0] == (
        "Tool Bash not found. Did you mean bash? Available tools: read, bash, edit, write, grep, find, ls."
    )
    assert texts[1].startswith("Tool read_file not found. Did you mean read? Available tools: read, bash,")


async def test_unknown_tool_without_any_tools(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([*_calls("weather", {}, 1), faux_assistant_message("ok")])
    session = make_session(tmp_path, faux.get_model())
    rec = Recorder(session)
    await session.prompt("weather?")
    (end,) = rec.of("tool_execution_end")
    assert end["result"]["content"][0]["text"] == "Tool weather not found. No tools are available."


async def test_openclaw68578_a_missing_tool_called_forever_stops_at_the_limit(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([*_calls("weather", {"city": "Paris"}, 50)])
    session = make_session(tmp_path, faux.get_model(), tools=list(create_coding_tools(str(tmp_path)).values()))
    rec = Recorder(session)
    await session.prompt("weather in Paris?")
    assert len(rec.of("tool_execution_end")) == 5  # default limit
    last = [e["message"] for e in rec.of("message_end") if e["message"]["role"] == "assistant"][-1]
    assert last["stopReason"] == "error"
    assert last["errorMessage"].startswith('The model called the tool "weather", which does not exist, 5 times')
    assert faux.get_pending_response_count() == 45  # nothing more was asked of the model
    assert not session.is_streaming


async def test_nanobot2298_the_same_failing_call_stops_at_the_limit(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([*_calls("read", {"path": "missing.txt"}, 30)])
    session = make_session(tmp_path, faux.get_model(), tools=list(create_coding_tools(str(tmp_path)).values()))
    rec = Recorder(session)
    await session.prompt("read it")
    assert len(rec.of("tool_execution_end")) == 5
    last = [e["message"] for e in rec.of("message_end") if e["message"]["role"] == "assistant"][-1]
    assert '"read" call 5 times' in last["errorMessage"]
    # recorded in the session file and not retried as a provider error
    assert not rec.of("auto_retry_start")


async def test_changing_failures_and_successes_in_between_are_not_a_loop(tmp_path: Path, faux: FauxProvider) -> None:
    (tmp_path / "f.txt").write_text("x\n")
    script: list[Any] = []
    for i in range(8):  # the same command fails with a different output each time: progress, not a loop
        script += _calls("bash", {"command": f"echo attempt {i}; exit 1"}, 1)
    for _ in range(8):  # the same failing read, but the same call succeeds in between
        script += _calls("read", {"path": "g.txt"}, 1)
        script += [faux_assistant_message([faux_tool_call("write", {"path": "g.txt", "content": "y"}, id="w")],
                                          stop_reason="toolUse")]
        script += _calls("read", {"path": "g.txt"}, 1)
        script += [faux_assistant_message([faux_tool_call("bash", {"command": "rm g.txt"}, id="r")],
                                          stop_reason="toolUse")]
    script.append(faux_assistant_message("done"))
    faux.set_responses(script)
    session = make_session(tmp_path, faux.get_model(), tools=list(create_coding_tools(str(tmp_path)).values()))
    await session.prompt("go")
    assert faux.get_pending_response_count() == 0
    assert session.messages[-1].stop_reason == "stop"


async def test_limit_is_a_setting_and_zero_turns_it_off(tmp_path: Path, faux: FauxProvider) -> None:
    manager = SettingsManager.in_memory({"maxRepeatedToolFailures": 2})
    assert manager.max_repeated_tool_failures == 2
    assert SettingsManager.in_memory({}).max_repeated_tool_failures == 5
    assert SettingsManager.in_memory({"maxRepeatedToolFailures": 0}).max_repeated_tool_failures == 0

    class Boom(AgentTool):
        async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> AgentToolResult:
            raise Exception("always fails")

    boom = Boom(name="boom", label="boom", description="fails", parameters={"type": "object"})
    faux.set_responses([*_calls("boom", {}, 12), faux_assistant_message("gave up")])
    agent = Agent({"model": faux.get_model(), "tools": [boom]})
    agent.max_repeated_tool_failures = 0
    await agent.prompt("go")
    assert agent.state.messages[-1].content[0] == TextContent(text="gave up")
    faux.set_responses([*_calls("boom", {}, 12)])
    agent.max_repeated_tool_failures = 3
    await agent.prompt("again")
    assert agent.state.messages[-1].stop_reason == "error"
    assert faux.get_pending_response_count() == 9


async def test_a_steering_message_gives_a_fresh_budget(faux: FauxProvider) -> None:
    calls = 0
    agent: Agent

    class Flaky(AgentTool):
        async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> AgentToolResult:
            nonlocal calls
            calls += 1
            if calls == 3:  # the user types while the third call runs
                agent.steer("look elsewhere")
            raise Exception("nope")

    flaky = Flaky(name="flaky", label="flaky", description="fails", parameters={"type": "object"})
    faux.set_responses([*_calls("flaky", {}, 12)])
    agent = Agent({"model": faux.get_model(), "tools": [flaky]})
    agent.max_repeated_tool_failures = 5
    await agent.prompt("go")
    assert calls == 8  # 3 before the steering message, then 5 more
    assert agent.state.messages[-1].stop_reason == "error"
