"""Fixes beyond pi 0.73.1 (tests/conformance/DIFFERENCES.md A1–A5, cases/README.md cases 8 and 15)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pi_tui.agent import Agent, AgentToolResult
from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_text, faux_tool_call
from pi_tui.ai.transform_messages import transform_messages
from pi_tui.ai.types import ToolResultMessage

from .helpers import fn_tool, text_result


def capture(contexts: list[Any], reply: Any) -> Any:
    def factory(context: Any, options: Any, state: Any, model: Any) -> Any:
        contexts.append(context)
        return reply

    return factory


def tool_calls(*calls: tuple[str, dict[str, Any], str], stop_reason: str = "toolUse", text: str | None = None) -> Any:
    blocks: list[Any] = [faux_text(text)] if text else []
    blocks += [faux_tool_call(n, a, id=i) for n, a, i in calls]
    return faux_assistant_message(blocks, stop_reason=stop_reason)  # type: ignore[arg-type]


class ShellLike:
    """A bash-like tool that runs until aborted ("Command aborted") and records whether it ran or was killed."""

    def __init__(self) -> None:
        self.started = 0
        self.killed = 0

    async def __call__(self, tool_call_id: str, params: Any, signal: AbortSignal | None, on_update: Any) -> AgentToolResult:
        self.started += 1
        assert signal is not None
        await signal.wait()
        self.killed += 1
        raise RuntimeError("Command aborted")


async def read_tool(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    return text_result(f"contents of {params['path']}")


def _results(messages: list[Any]) -> dict[str, ToolResultMessage]:
    return {m.tool_call_id: m for m in messages if isinstance(m, ToolResultMessage)}


# ---------------------------------------------------------------- case 15


@pytest.mark.anyio
@pytest.mark.parametrize("tool_execution", ["parallel", "sequential"])
async def test_case_15_abort_at_tool_start_gives_every_call_a_result(faux: FauxProvider, tool_execution: str) -> None:
    shell = ShellLike()
    tools = [
        fn_tool("bash", shell, {"command": {"type": "string"}}, ["command"]),
        fn_tool("read", read_tool, {"path": {"type": "string"}}, ["path"]),
    ]
    contexts: list[Any] = []
    faux.set_responses(
        [
            tool_calls(("bash", {"command": "sleep 30"}, "A"), ("read", {"path": "x.txt"}, "B"), text="ok"),
            faux_assistant_message("consumed by the aborted call that ends the run"),
            capture(contexts, faux_assistant_message("hello back")),
        ]
    )
    agent = Agent({"model": faux.get_model(), "tools": tools}, tool_execution=tool_execution)  # type: ignore[arg-type]
    agent.subscribe(lambda e, s: agent.abort() if e.type == "tool_execution_start" and e.tool_call_id == "A" else None)
    await agent.prompt("run it")
    assert agent.state.is_streaming is False
    results = _results(agent.state.messages)
    for call_id in ("A", "B"):
        assert results[call_id].is_error is True
        assert "aborted" in results[call_id].content[0].text.lower()
    assert shell.started == shell.killed  # never left running
    await agent.prompt("hello")
    sent = transform_messages(contexts[0].messages, faux.get_model())
    roles = [(m.role, getattr(m, "tool_call_id", None)) for m in sent]
    assert roles == [("user", None), ("assistant", None), ("toolResult", "A"), ("toolResult", "B"), ("user", None)]
    assert [b.type for b in sent[1].content] == ["text", "toolCall", "toolCall"]
    assert all(m.is_error for m in sent[2:4])


@pytest.mark.anyio
async def test_case_15_abort_while_tool_runs_sequential(faux: FauxProvider) -> None:
    shell = ShellLike()
    tools = [
        fn_tool("bash", shell, {"command": {"type": "string"}}, ["command"]),
        fn_tool("read", read_tool, {"path": {"type": "string"}}, ["path"]),
    ]
    faux.set_responses(
        [
            tool_calls(("bash", {"command": "sleep 30"}, "A"), ("read", {"path": "x.txt"}, "B"), text="ok"),
            faux_assistant_message("consumed by the aborted call"),
        ]
    )
    agent = Agent({"model": faux.get_model(), "tools": tools}, tool_execution="sequential")

    async def listener(event: Any, signal: Any) -> None:
        if event.type == "tool_execution_start" and event.tool_call_id == "A":
            asyncio.get_running_loop().call_later(0.01, agent.abort)

    agent.subscribe(listener)
    await agent.prompt("run it")
    results = _results(agent.state.messages)
    assert (shell.started, shell.killed) == (1, 1)
    assert results["A"].content[0].text == "Command aborted" and results["A"].is_error
    assert results["B"].content[0].text == "Tool execution was aborted" and results["B"].is_error
    assert agent.state.messages[-1].stop_reason == "aborted"


# ---------------------------------------------------------------- case 8


@pytest.mark.anyio
async def test_case_8_length_stop_reason_never_runs_the_tool(faux: FauxProvider) -> None:
    written: list[Any] = []

    async def write(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        written.append(params)
        return text_result("wrote")

    contexts: list[Any] = []
    faux.set_responses(
        [
            tool_calls(("write", {"path": "a.txt", "content": "line one\nline tw"}, "call_w"), stop_reason="length"),
            capture(contexts, faux_assistant_message("retrying with a shorter call")),
        ]
    )
    tool = fn_tool("write", write, {"path": {"type": "string"}, "content": {"type": "string"}}, ["path", "content"])
    agent = Agent({"model": faux.get_model(), "tools": [tool]})
    await agent.prompt("write a.txt")
    assert written == []
    result = _results(agent.state.messages)["call_w"]
    assert result.is_error is True
    assert "cut off by the output token limit" in result.content[0].text
    assert "not run" in result.content[0].text
    sent = contexts[0].messages
    assert [m.role for m in sent] == ["user", "assistant", "toolResult"]
    assert sent[2].tool_call_id == "call_w"


@pytest.mark.anyio
async def test_case_8_diagnostics_mark_single_calls(faux: FauxProvider) -> None:
    ran: list[str] = []

    async def echo(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        ran.append(tool_call_id)
        return text_result("ok")

    reply = tool_calls(("echo", {}, "bad-json"), ("echo", {}, "cut"), ("echo", {}, "fine"))
    reply.diagnostics = [
        {"type": "tool_call_arguments_invalid", "details": {"toolCallId": "bad-json", "reason": "invalid_json"}},
        {"type": "tool_call_arguments_invalid", "details": {"toolCallId": "cut", "reason": "truncated"}},
        {"type": "something_else", "details": {"toolCallId": "fine"}},
    ]
    faux.set_responses([reply, faux_assistant_message("done")])
    agent = Agent({"model": faux.get_model(), "tools": [fn_tool("echo", echo)]})
    await agent.prompt("go")
    results = _results(agent.state.messages)
    assert ran == ["fine"]
    assert "not valid JSON" in results["bad-json"].content[0].text and results["bad-json"].is_error
    assert "cut off" in results["cut"].content[0].text and results["cut"].is_error
    assert results["fine"].is_error is False


# ---------------------------------------------------------------- steering checkpoint (§5 item 1)


@pytest.mark.anyio
@pytest.mark.parametrize("checkpoint", ["turn", "tool"])
async def test_steering_checkpoint(faux: FauxProvider, checkpoint: str) -> None:
    ran: list[str] = []

    async def step(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        ran.append(tool_call_id)
        return text_result(f"did {tool_call_id}")

    contexts: list[Any] = []
    faux.set_responses(
        [tool_calls(("step", {}, "c1"), ("step", {}, "c2"), ("step", {}, "c3")), capture(contexts, faux_assistant_message("ok"))]
    )
    agent = Agent(
        {"model": faux.get_model(), "tools": [fn_tool("step", step)]},
        tool_execution="sequential",
        steering_checkpoint=checkpoint,  # type: ignore[arg-type]
    )
    agent.subscribe(lambda e, s: agent.steer("stop, do something else") if e.type == "tool_execution_start" and e.tool_call_id == "c1" else None)
    await agent.prompt("do three steps")
    results = _results(agent.state.messages)
    sent_roles = [m.role for m in contexts[0].messages]
    assert sent_roles == ["user", "assistant", "toolResult", "toolResult", "toolResult", "user"]
    assert contexts[0].messages[-1].content[0].text == "stop, do something else"
    if checkpoint == "turn":
        assert ran == ["c1", "c2", "c3"]
    else:
        assert ran == ["c1"]
        for cid in ("c2", "c3"):
            assert results[cid].is_error and results[cid].content[0].text == "Skipped: the user sent a steering message"
    assert not agent.has_queued_messages()


# ---------------------------------------------------------------- no queued message lost (§5 item 3)


@pytest.mark.anyio
async def test_drained_steering_goes_back_to_front_of_queue_on_abort(faux: FauxProvider) -> None:
    async def step(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        return text_result("ok")

    faux.set_responses([tool_calls(("step", {}, "c1")), faux_assistant_message("never seen")])
    agent = Agent({"model": faux.get_model(), "tools": [fn_tool("step", step)]})
    turn_starts = 0

    def listener(event: Any, signal: Any) -> None:
        nonlocal turn_starts
        if event.type == "tool_execution_start":
            agent.steer("first")
            agent.steer("second")
        if event.type == "turn_start":
            turn_starts += 1
            if turn_starts == 2:  # "first" was drained by the after-turn poll, not yet injected
                agent.steer("third")
                agent.abort()

    agent.subscribe(listener)
    await agent.prompt("go")
    assert [m.content[0].text for m in agent.queued_steering_messages] == ["first", "second", "third"]
    assert all(getattr(m, "role", None) != "user" or m.content[0].text == "go" for m in agent.state.messages)
    assert agent.state.messages[-1].stop_reason == "aborted"


@pytest.mark.anyio
async def test_follow_up_injected_before_a_failure_is_delivered_not_requeued(faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("a")])
    agent = Agent({"model": faux.get_model(), "messages": [{"role": "user", "content": "q", "timestamp": 0}]})
    await agent.continue_()
    agent.follow_up("later")
    agent.convert_to_llm = lambda messages: (_ for _ in ()).throw(RuntimeError("convert failed"))
    await agent.continue_()
    # the follow-up reached the transcript before the failure: it is delivered, not re-queued
    assert [getattr(m, "error_message", None) for m in agent.state.messages][-1] == "convert failed"
    users = [m for m in agent.state.messages if getattr(m, "role", "") == "user"]
    assert [u.content if isinstance(u.content, str) else u.content[0].text for u in users] == ["q", "later"]
    assert not agent.has_queued_messages()


# ---------------------------------------------------------------- raising listener (fault 3)


@pytest.mark.anyio
async def test_raising_listener_keeps_finished_tool_results_and_leaves_agent_idle(faux: FauxProvider) -> None:
    shell = ShellLike()

    async def quick(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        return text_result("quick result")

    faux.set_responses([tool_calls(("slow", {}, "s1"), ("quick", {}, "q1")), faux_assistant_message("never")])
    agent = Agent({"model": faux.get_model(), "tools": [fn_tool("slow", shell), fn_tool("quick", quick)]})

    def bad_listener(event: Any, signal: Any) -> None:
        if event.type == "tool_execution_end" and event.tool_call_id == "q1":
            raise RuntimeError("listener bug")

    seen: list[str] = []
    agent.subscribe(bad_listener)
    agent.subscribe(lambda e, s: seen.append(e.type))
    await asyncio.wait_for(agent.prompt("go"), 5)
    assert agent.state.is_streaming is False and agent.state.pending_tool_calls == frozenset()
    results = _results(agent.state.messages)
    assert results["q1"].content[0].text == "quick result" and results["q1"].is_error is False
    assert results["s1"].is_error is True and shell.killed == 1
    last = agent.state.messages[-1]
    assert (last.role, last.stop_reason, last.error_message) == ("assistant", "error", "listener bug")
    assert agent.state.error_message == "listener bug"
    assert seen[-1] == "agent_end" and "message_end" in seen  # the other listener kept receiving events
