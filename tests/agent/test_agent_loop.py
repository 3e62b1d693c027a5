"""pi's agent-loop.test.ts [unit] (pi-reference §4.1) against pi_tui.agent.loop, with a mock stream."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pi_tui.agent import (
    AgentContext,
    AgentLoopConfig,
    AgentTool,
    AgentToolResult,
    CustomAgentMessage,
    agent_loop,
    agent_loop_continue,
    run_agent_loop,
    run_agent_loop_continue,
)
from pi_tui.ai.types import ToolResultMessage

from .helpers import MOCK_MODEL, MockStreamFn, assistant, call, fn_tool, text_result, types_of, user


def keep_llm_roles(messages: list[Any]) -> list[Any]:
    return [m for m in messages if m.role in ("user", "assistant", "toolResult")]


def config(**kw: Any) -> AgentLoopConfig:
    return AgentLoopConfig(model=MOCK_MODEL, convert_to_llm=kw.pop("convert_to_llm", keep_llm_roles), **kw)


class Recorder:
    def __init__(self) -> None:
        self.events: list[Any] = []

    async def __call__(self, event: Any) -> None:
        self.events.append(event)


@pytest.mark.anyio
async def test_emits_events_with_agent_message_types() -> None:
    rec = Recorder()
    stream = MockStreamFn(assistant("Hi there!"))
    ctx = AgentContext(system_prompt="You are helpful.", messages=[], tools=[])
    messages = await run_agent_loop([user("Hello")], ctx, config(), rec, None, stream)
    assert [m.role for m in messages] == ["user", "assistant"]
    assert types_of(rec.events) == [
        "agent_start",
        "turn_start",
        "message_start",
        "message_end",
        "message_start",
        "message_end",
        "turn_end",
        "agent_end",
    ]
    assert ctx.messages == []  # the caller's context is not modified


@pytest.mark.anyio
async def test_custom_message_types_filtered_by_convert_to_llm() -> None:
    notification = CustomAgentMessage.model_validate({"role": "notification", "text": "hi", "timestamp": 0})
    seen: list[list[Any]] = []

    def convert(messages: list[Any]) -> list[Any]:
        out = [m for m in messages if m.role != "notification"]
        seen.append(out)
        return out

    stream = MockStreamFn(assistant("Response"))
    ctx = AgentContext(system_prompt="", messages=[notification], tools=[])
    await run_agent_loop([user("Hello")], ctx, config(convert_to_llm=convert), Recorder(), None, stream)
    assert [m.role for m in seen[0]] == ["user"]
    assert [m.role for m in stream.calls[0][0].messages] == ["user"]


@pytest.mark.anyio
async def test_transform_context_runs_before_convert_to_llm() -> None:
    history = [user("old 1"), assistant("a1"), user("old 2"), assistant("a2")]
    converted: list[list[Any]] = []

    async def transform(messages: list[Any], signal: Any) -> list[Any]:
        return messages[-2:]

    def convert(messages: list[Any]) -> list[Any]:
        converted.append(messages)
        return keep_llm_roles(messages)

    stream = MockStreamFn(assistant("Response"))
    ctx = AgentContext(messages=history, tools=[])
    await run_agent_loop(
        [user("new")], ctx, config(transform_context=transform, convert_to_llm=convert), Recorder(), None, stream
    )
    assert len(converted[0]) == 2
    assert [m.content[0].text for m in converted[0] if m.role == "user"] == ["new"]


def echo_tool(received: list[Any], **extra: Any) -> AgentTool:
    async def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        received.append(params)
        return text_result(f"echoed: {params['value']}", details={"value": params["value"]})

    return fn_tool("echo", execute, {"value": {"type": "string"}}, ["value"], **extra)


@pytest.mark.anyio
async def test_tool_calls_and_results() -> None:
    received: list[Any] = []
    rec = Recorder()
    stream = MockStreamFn(
        assistant([call("echo", {"value": "hello"}, "tool-1")], "toolUse"), assistant("done")
    )
    ctx = AgentContext(messages=[], tools=[echo_tool(received)])
    await run_agent_loop([user("echo something")], ctx, config(), rec, None, stream)
    assert received == [{"value": "hello"}]
    start = next(e for e in rec.events if e.type == "tool_execution_start")
    end = next(e for e in rec.events if e.type == "tool_execution_end")
    assert (start.tool_call_id, start.tool_name, start.args) == ("tool-1", "echo", {"value": "hello"})
    assert end.is_error is False
    assert end.result.content[0].text == "echoed: hello"


@pytest.mark.anyio
async def test_mutated_before_tool_call_args_are_executed_without_revalidation() -> None:
    received: list[Any] = []

    def before(ctx: Any, signal: Any) -> None:
        ctx.args["value"] = 123

    stream = MockStreamFn(assistant([call("echo", {"value": "hello"}, "tool-1")], "toolUse"), assistant("done"))
    ctx = AgentContext(messages=[], tools=[echo_tool(received)])
    await run_agent_loop([user("go")], ctx, config(before_tool_call=before), Recorder(), None, stream)
    assert received == [{"value": 123}]


@pytest.mark.anyio
async def test_prepare_arguments_runs_before_validation() -> None:
    received: list[Any] = []

    class EditTool(AgentTool):
        def prepare_arguments(self, args: dict[str, Any]) -> dict[str, Any]:
            if "oldText" in args:
                return {"path": args["path"], "edits": [{"oldText": args["oldText"], "newText": args["newText"]}]}
            return args

        async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> Any:
            received.append(params)
            return text_result("ok")

    tool = EditTool(
        name="edit",
        parameters={
            "type": "object",
            "properties": {
                "path": {"type": "string"},
                "edits": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"oldText": {"type": "string"}, "newText": {"type": "string"}},
                        "required": ["oldText", "newText"],
                    },
                },
            },
            "required": ["path", "edits"],
        },
    )
    legacy = {"path": "a.txt", "oldText": "x", "newText": "y"}
    stream = MockStreamFn(assistant([call("edit", legacy, "tool-1")], "toolUse"), assistant("done"))
    rec = Recorder()
    await run_agent_loop([user("edit")], AgentContext(tools=[tool]), config(), rec, None, stream)
    assert received == [{"path": "a.txt", "edits": [{"oldText": "x", "newText": "y"}]}]
    start = next(e for e in rec.events if e.type == "tool_execution_start")
    assert start.args == legacy  # events carry the raw arguments


@pytest.mark.anyio
async def test_tool_execution_end_in_completion_order_results_in_source_order() -> None:
    second_done = asyncio.Event()
    log: list[str] = []

    async def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        log.append(f"start {tool_call_id}")
        if tool_call_id == "tool-1":
            await second_done.wait()
        else:
            second_done.set()
        log.append(f"end {tool_call_id}")
        return text_result(tool_call_id)

    tool = fn_tool("echo", execute, {"value": {"type": "string"}})
    rec = Recorder()
    stream = MockStreamFn(
        assistant([call("echo", {"value": "a"}, "tool-1"), call("echo", {"value": "b"}, "tool-2")], "toolUse"),
        assistant("done"),
    )
    await run_agent_loop([user("go")], AgentContext(tools=[tool]), config(), rec, None, stream)
    ends = [e.tool_call_id for e in rec.events if e.type == "tool_execution_end"]
    results = [e.message.tool_call_id for e in rec.events if e.type == "message_end" and e.message.role == "toolResult"]
    turn_end = next(e for e in rec.events if e.type == "turn_end")
    assert ends == ["tool-2", "tool-1"]
    assert results == ["tool-1", "tool-2"]
    assert [r.tool_call_id for r in turn_end.tool_results] == ["tool-1", "tool-2"]
    assert log.index("start tool-2") < log.index("end tool-1")


@pytest.mark.anyio
async def test_steering_injected_after_all_tool_calls_complete() -> None:
    executed: list[str] = []
    polls = 0

    async def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        executed.append(params["value"])
        return text_result(f"ok:{params['value']}")

    def get_steering() -> list[Any]:
        nonlocal polls
        polls += 1
        return [user("interrupt")] if executed and polls == 2 else []

    tool = fn_tool("echo", execute, {"value": {"type": "string"}})
    rec = Recorder()
    stream = MockStreamFn(
        assistant([call("echo", {"value": "first"}, "tool-1"), call("echo", {"value": "second"}, "tool-2")], "toolUse"),
        assistant("done"),
    )
    cfg = config(tool_execution="sequential", get_steering_messages=get_steering)
    messages = await run_agent_loop([user("go")], AgentContext(tools=[tool]), cfg, rec, None, stream)
    assert executed == ["first", "second"]
    assert [m.role for m in messages] == ["user", "assistant", "toolResult", "toolResult", "user", "assistant"]
    second_ctx = [m.role for m in stream.calls[1][0].messages]
    assert second_ctx == ["user", "assistant", "toolResult", "toolResult", "user"]


async def _run_batch(tools: list[AgentTool], tool_execution: str = "parallel") -> list[str]:
    log: list[str] = []
    stream = MockStreamFn(
        assistant([call(t.name, {}, f"{t.name}-id") for t in tools], "toolUse"), assistant("done")
    )
    for t in tools:
        async def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
            log.append(f"start {tool_call_id}")
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            log.append(f"end {tool_call_id}")
            return text_result("ok")

        t.fn = execute  # type: ignore[attr-defined]
    await run_agent_loop(
        [user("go")], AgentContext(tools=tools), config(tool_execution=tool_execution), Recorder(), None, stream
    )
    return log


@pytest.mark.anyio
async def test_force_sequential_when_tool_execution_mode_is_sequential() -> None:
    tool = fn_tool("seq", lambda *a: None, execution_mode="sequential")
    tool2 = fn_tool("seq", lambda *a: None, execution_mode="sequential")
    log = await _run_batch([tool, tool2])
    assert log == ["start seq-id", "end seq-id", "start seq-id", "end seq-id"]


@pytest.mark.anyio
async def test_force_sequential_when_one_of_multiple_tools_is_sequential() -> None:
    log = await _run_batch([fn_tool("a", lambda *a: None, execution_mode="sequential"), fn_tool("b", lambda *a: None)])
    assert log == ["start a-id", "end a-id", "start b-id", "end b-id"]


@pytest.mark.anyio
async def test_parallel_when_all_tools_are_parallel() -> None:
    log = await _run_batch([fn_tool("a", lambda *a: None, execution_mode="parallel"), fn_tool("b", lambda *a: None)])
    assert log[:2] == ["start a-id", "start b-id"]


@pytest.mark.anyio
async def test_stop_after_turn_when_should_stop_after_turn_returns_true() -> None:
    received: list[Any] = []
    steering_polls = 0
    follow_up_polls = 0
    seen: list[Any] = []

    def get_steering() -> list[Any]:
        nonlocal steering_polls
        steering_polls += 1
        return []

    def get_follow_up() -> list[Any]:
        nonlocal follow_up_polls
        follow_up_polls += 1
        return []

    def should_stop(ctx: Any) -> bool:
        seen.append(([r.tool_call_id for r in ctx.tool_results], [m.role for m in ctx.context.messages]))
        return True

    rec = Recorder()
    stream = MockStreamFn(assistant([call("echo", {"value": "x"}, "tool-1")], "toolUse"), assistant("never"))
    cfg = config(get_steering_messages=get_steering, get_follow_up_messages=get_follow_up, should_stop_after_turn=should_stop)
    await run_agent_loop([user("go")], AgentContext(tools=[echo_tool(received)]), cfg, rec, None, stream)
    assert len(stream.calls) == 1
    assert received == [{"value": "x"}]
    assert (steering_polls, follow_up_polls) == (1, 0)
    assert seen == [(["tool-1"], ["user", "assistant", "toolResult"])]
    assert types_of(rec.events) == [
        "agent_start",
        "turn_start",
        "message_start",
        "message_end",
        "message_start",
        "message_end",
        "tool_execution_start",
        "tool_execution_end",
        "message_start",
        "message_end",
        "turn_end",
        "agent_end",
    ]


def finish_tool(terminate_for: set[str] | None = None) -> AgentTool:
    async def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        terminate = terminate_for is None or tool_call_id in terminate_for
        return text_result("finished", terminate=terminate or None)

    return fn_tool("finish", execute)


@pytest.mark.anyio
async def test_stop_after_batch_when_every_result_terminates() -> None:
    stream = MockStreamFn(
        assistant([call("finish", {}, "tool-1"), call("finish", {}, "tool-2")], "toolUse"), assistant("never")
    )
    rec = Recorder()
    messages = await run_agent_loop([user("go")], AgentContext(tools=[finish_tool()]), config(), rec, None, stream)
    assert len(stream.calls) == 1
    assert [m.role for m in messages] == ["user", "assistant", "toolResult", "toolResult"]
    assert types_of(rec.events).count("turn_end") == 1
    ends = [e for e in rec.events if e.type == "tool_execution_end"]
    assert all(e.result.terminate is True for e in ends)
    assert "terminate" not in messages[2].to_json_dict()  # not persisted on the message


@pytest.mark.anyio
async def test_continue_after_parallel_calls_when_not_all_terminate() -> None:
    stream = MockStreamFn(
        assistant([call("finish", {}, "tool-1"), call("finish", {}, "tool-2")], "toolUse"), assistant("after")
    )
    messages = await run_agent_loop(
        [user("go")], AgentContext(tools=[finish_tool({"tool-1"})]), config(), Recorder(), None, stream
    )
    assert len(stream.calls) == 2
    assert [m.role for m in messages] == ["user", "assistant", "toolResult", "toolResult", "assistant"]


@pytest.mark.anyio
async def test_after_tool_call_can_mark_batch_terminating() -> None:
    received: list[Any] = []

    def after(ctx: Any, signal: Any) -> dict[str, Any]:
        assert ctx.result.content[0].text == "echoed: x" and ctx.is_error is False
        return {"terminate": True}

    stream = MockStreamFn(assistant([call("echo", {"value": "x"}, "tool-1")], "toolUse"), assistant("never"))
    messages = await run_agent_loop(
        [user("go")], AgentContext(tools=[echo_tool(received)]), config(after_tool_call=after), Recorder(), None, stream
    )
    assert len(stream.calls) == 1
    assert messages[-1].content[0].text == "echoed: x"


@pytest.mark.anyio
async def test_after_tool_call_overrides_fields_wholesale_and_throw_becomes_error() -> None:
    received: list[Any] = []
    calls = 0

    def after(ctx: Any, signal: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 1:
            return {"details": {"replaced": True}, "isError": True}
        raise RuntimeError("after hook failed")

    stream = MockStreamFn(
        assistant([call("echo", {"value": "x"}, "tool-1"), call("echo", {"value": "y"}, "tool-2")], "toolUse"),
        assistant("done"),
    )
    cfg = config(after_tool_call=after, tool_execution="sequential")
    messages = await run_agent_loop([user("go")], AgentContext(tools=[echo_tool(received)]), cfg, Recorder(), None, stream)
    first, second = messages[2], messages[3]
    assert (first.content[0].text, first.details, first.is_error) == ("echoed: x", {"replaced": True}, True)
    assert (second.content[0].text, second.details, second.is_error) == ("after hook failed", {}, True)


@pytest.mark.anyio
async def test_continue_throws_when_context_has_no_messages() -> None:
    with pytest.raises(ValueError, match="^Cannot continue: no messages in context$"):
        agent_loop_continue(AgentContext(), config())
    with pytest.raises(ValueError, match="^Cannot continue: no messages in context$"):
        await run_agent_loop_continue(AgentContext(), config(), Recorder())
    with pytest.raises(ValueError, match="^Cannot continue from message role: assistant$"):
        agent_loop_continue(AgentContext(messages=[user("q"), assistant("a")]), config())


@pytest.mark.anyio
async def test_continue_without_emitting_user_message_events() -> None:
    stream = MockStreamFn(assistant("Response"))
    events = agent_loop_continue(AgentContext(messages=[user("Hello")]), config(), None, stream)
    seen = [e async for e in events]
    messages = await events.result()
    assert [m.role for m in messages] == ["assistant"]
    ends = [e for e in seen if e.type == "message_end"]
    assert len(ends) == 1 and ends[0].message.role == "assistant"


@pytest.mark.anyio
async def test_continue_allows_custom_message_as_last_message() -> None:
    custom = CustomAgentMessage.model_validate({"role": "custom", "text": "hook output", "timestamp": 0})

    def convert(messages: list[Any]) -> list[Any]:
        return [user(m.text) if m.role == "custom" else m for m in messages]  # type: ignore[attr-defined]

    stream = MockStreamFn(assistant("Response"))
    messages = await run_agent_loop_continue(
        AgentContext(messages=[custom]), config(convert_to_llm=convert), Recorder(), None, stream
    )
    assert [m.role for m in messages] == ["assistant"]
    assert stream.calls[0][0].messages[0].content[0].text == "hook output"


@pytest.mark.anyio
async def test_agent_loop_stream_yields_events_and_result() -> None:
    stream = MockStreamFn(assistant("hi"))
    events = agent_loop([user("q")], AgentContext(), config(), None, stream)
    seen = [e.type async for e in events]
    assert seen[0] == "agent_start" and seen[-1] == "agent_end"
    assert [m.role for m in await events.result()] == ["user", "assistant"]


@pytest.mark.anyio
async def test_agent_loop_stream_ends_when_the_loop_raises() -> None:
    def broken_convert(messages: list[Any]) -> list[Any]:
        raise RuntimeError("convert failed")

    events = agent_loop([user("q")], AgentContext(), config(convert_to_llm=broken_convert), None, MockStreamFn())
    seen = [e.type async for e in events]
    assert seen == ["agent_start", "turn_start", "message_start", "message_end"]
    with pytest.raises(RuntimeError, match="convert failed"):
        await events.result()


@pytest.mark.anyio
async def test_tool_not_found_blocked_and_throwing_tools_become_error_results() -> None:
    async def boom(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        raise RuntimeError("Division by zero")

    def before(ctx: Any, signal: Any) -> Any:
        return {"block": True} if ctx.tool_call.id == "c2" else None

    stream = MockStreamFn(
        assistant([call("missing", {}, "c1"), call("boom", {}, "c2"), call("boom", {}, "c3")], "toolUse"),
        assistant("done"),
    )
    messages = await run_agent_loop(
        [user("go")], AgentContext(tools=[fn_tool("boom", boom)]), config(before_tool_call=before), Recorder(), None, stream
    )
    results: list[ToolResultMessage] = messages[2:5]
    assert [(r.content[0].text, r.is_error, r.details) for r in results] == [
        ("Tool missing not found", True, {}),
        ("Tool execution was blocked", True, {}),
        ("Division by zero", True, {}),
    ]


@pytest.mark.anyio
async def test_updates_are_awaited_in_order_and_late_updates_are_dropped() -> None:
    late: list[Any] = []

    async def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        for i in range(3):
            on_update(text_result(f"step {i}"))
        late.append(on_update)
        return text_result("done")

    rec = Recorder()
    stream = MockStreamFn(assistant([call("work", {}, "w1")], "toolUse"), assistant("ok"))
    await run_agent_loop([user("go")], AgentContext(tools=[fn_tool("work", execute)]), config(), rec, None, stream)
    kinds = [(e.type, e.partial_result.content[0].text if e.type == "tool_execution_update" else None) for e in rec.events if e.type.startswith("tool_execution")]
    assert kinds == [
        ("tool_execution_start", None),
        ("tool_execution_update", "step 0"),
        ("tool_execution_update", "step 1"),
        ("tool_execution_update", "step 2"),
        ("tool_execution_end", None),
    ]
    assert late[0](text_result("too late")) is None  # pi 0.79.2: no stale update after execute returned
    await asyncio.sleep(0)
    assert sum(e.type == "tool_execution_update" for e in rec.events) == 3


@pytest.mark.anyio
async def test_bad_tool_return_value_and_sync_execute() -> None:
    async def returns_nothing(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> Any:
        return None

    class SyncTool(AgentTool):
        def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> Any:  # type: ignore[override]
            return {"content": [{"type": "text", "text": "sync ok"}]}

    stream = MockStreamFn(assistant([call("bad", {}, "b1"), call("sync", {}, "s1")], "toolUse"), assistant("ok"))
    tools = [fn_tool("bad", returns_nothing), SyncTool(name="sync")]
    messages = await run_agent_loop([user("go")], AgentContext(tools=tools), config(), Recorder(), None, stream)
    bad, good = messages[2], messages[3]
    assert bad.is_error and bad.content[0].text == "Tool bad returned NoneType instead of a tool result"
    assert not good.is_error and good.content[0].text == "sync ok"


@pytest.mark.anyio
async def test_abort_during_parallel_preflight_starts_no_prepared_call() -> None:
    from pi_tui.ai.abort import AbortController

    controller = AbortController()
    started: list[str] = []

    async def execute(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
        started.append(tool_call_id)
        return text_result("ran")

    def before(ctx: Any, signal: Any) -> None:
        if ctx.tool_call.id == "c2":
            controller.abort()

    stream = MockStreamFn(
        assistant([call("t", {}, "c1"), call("t", {}, "c2"), call("t", {}, "c3")], "toolUse"),
        assistant("aborted", "aborted"),
    )
    rec = Recorder()
    messages = await run_agent_loop(
        [user("go")], AgentContext(tools=[fn_tool("t", execute)]), config(before_tool_call=before), rec, controller.signal, stream
    )
    assert started == []
    assert [(m.tool_call_id, m.content[0].text) for m in messages[2:5]] == [
        ("c1", "Tool execution was aborted"),
        ("c2", "Tool execution was aborted"),
        ("c3", "Tool execution was aborted"),
    ]
    assert types_of(rec.events).count("tool_execution_start") == 3 == types_of(rec.events).count("tool_execution_end")
