"""pi's agent.test.ts [unit] (pi-reference §4.1) against pi_tui.agent.Agent."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pi_tui.agent import Agent
from pi_tui.ai.types import Model

from .helpers import MOCK_MODEL, CalculateTool, MockStreamFn, assistant, call, user

BUSY_PROMPT = (
    "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion."
)


def test_default_state() -> None:
    agent = Agent()
    s = agent.state
    assert s.system_prompt == ""
    assert isinstance(s.model, Model) and s.model.id == "unknown" and s.model.context_window == 0
    assert s.thinking_level == "off"
    assert s.tools == [] and s.messages == []
    assert s.is_streaming is False and s.streaming_message is None
    assert s.pending_tool_calls == frozenset() and s.error_message is None


def test_custom_initial_state() -> None:
    tools = [CalculateTool()]
    messages = [user("hi")]
    agent = Agent({"systemPrompt": "Be brief.", "model": MOCK_MODEL, "thinking_level": "low", "tools": tools, "messages": messages})
    assert agent.state.system_prompt == "Be brief."
    assert agent.state.model is MOCK_MODEL
    assert agent.state.thinking_level == "low"
    assert agent.state.tools == tools and agent.state.tools is not tools
    assert agent.state.messages == messages and agent.state.messages is not messages


def test_subscribe_emits_nothing_and_unsubscribe_works() -> None:
    agent = Agent()
    events: list[Any] = []
    unsubscribe = agent.subscribe(lambda e, s: events.append(e))
    agent.state.system_prompt = "changed"
    agent.state.messages = [user("x")]
    assert events == []
    unsubscribe()
    unsubscribe()  # idempotent
    assert agent._listener_list == ()


@pytest.mark.anyio
async def test_awaits_async_subscribers_before_prompt_resolves() -> None:
    agent = Agent({"model": MOCK_MODEL}, stream_fn=MockStreamFn(assistant("ok")))
    release = asyncio.Event()
    reached = asyncio.Event()

    async def listener(event: Any, signal: Any) -> None:
        if event.type == "agent_end":
            reached.set()
            await release.wait()

    agent.subscribe(listener)
    task = asyncio.create_task(agent.prompt("hi"))
    await reached.wait()
    assert not task.done()
    assert agent.state.is_streaming is True
    release.set()
    await task
    assert agent.state.is_streaming is False


@pytest.mark.anyio
async def test_wait_for_idle_waits_for_async_subscribers() -> None:
    agent = Agent({"model": MOCK_MODEL}, stream_fn=MockStreamFn(assistant("ok")))
    release = asyncio.Event()
    reached = asyncio.Event()

    async def listener(event: Any, signal: Any) -> None:
        if event.type == "message_end" and event.message.role == "assistant":
            reached.set()
            await release.wait()

    agent.subscribe(listener)
    prompt = asyncio.create_task(agent.prompt("hi"))
    await reached.wait()
    idle = asyncio.create_task(agent.wait_for_idle())
    await asyncio.sleep(0)
    assert not idle.done()
    release.set()
    await idle
    await prompt
    assert agent.state.is_streaming is False


@pytest.mark.anyio
async def test_passes_active_abort_signal_to_subscribers() -> None:
    agent = Agent({"model": MOCK_MODEL}, stream_fn=MockStreamFn(assistant("ok")))
    signals: list[Any] = []

    def listener(event: Any, signal: Any) -> None:
        signals.append(signal)
        if event.type == "agent_start":
            assert agent.signal is signal
            agent.abort()

    agent.subscribe(listener)
    await agent.prompt("hi")
    assert signals and all(s is signals[0] for s in signals)
    assert signals[0].aborted is True
    assert agent.signal is None


def test_state_mutators_copy_lists() -> None:
    agent = Agent()
    tools = [CalculateTool()]
    agent.state.tools = tools
    assert agent.state.tools == tools and agent.state.tools is not tools
    messages = [user("a")]
    agent.state.messages = messages
    assert agent.state.messages is not messages
    agent.state.messages.append(user("b"))
    assert len(agent.state.messages) == 2 and len(messages) == 1


def test_steer_and_follow_up_only_queue_and_idle_abort_is_a_no_op() -> None:
    agent = Agent()
    agent.steer(user("steer"))
    agent.follow_up(user("later"))
    assert agent.state.messages == []
    assert agent.has_queued_messages()
    agent.abort()
    agent.clear_steering_queue()
    assert agent.queued_follow_up_messages and not agent.queued_steering_messages
    agent.clear_all_queues()
    assert not agent.has_queued_messages()


@pytest.mark.anyio
async def test_prompt_and_continue_while_streaming_raise() -> None:
    release = asyncio.Event()

    stream = MockStreamFn(assistant("late"))
    agent = Agent({"model": MOCK_MODEL}, stream_fn=stream)

    async def gate(event: Any, signal: Any) -> None:
        if event.type == "agent_start":
            await release.wait()

    agent.subscribe(gate)
    task = asyncio.create_task(agent.prompt("first"))
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError) as err:
        await agent.prompt("second")
    assert str(err.value) == BUSY_PROMPT
    with pytest.raises(RuntimeError, match="^Agent is already processing. Wait for completion before continuing.$"):
        await agent.continue_()
    release.set()
    await task


@pytest.mark.anyio
async def test_continue_processes_queued_follow_ups_after_assistant_turn() -> None:
    stream = MockStreamFn(assistant("answer to follow-up"))
    agent = Agent({"model": MOCK_MODEL, "messages": [user("q"), assistant("a")]}, stream_fn=stream)
    agent.follow_up(user("follow-up"))
    await agent.continue_()
    roles = [m.role for m in agent.state.messages]
    assert roles == ["user", "assistant", "user", "assistant"]
    assert agent.state.messages[2].content[0].text == "follow-up"
    assert not agent.has_queued_messages()


@pytest.mark.anyio
async def test_continue_keeps_one_at_a_time_steering_from_assistant_tail() -> None:
    stream = MockStreamFn(assistant("r1"), assistant("r2"))
    agent = Agent({"model": MOCK_MODEL, "messages": [user("q"), assistant("a")]}, stream_fn=stream)
    agent.steer(user("s1"))
    agent.steer(user("s2"))
    await agent.continue_()
    assert [m.role for m in agent.state.messages[-4:]] == ["user", "assistant", "user", "assistant"]
    assert [m.content[0].text for m in agent.state.messages[-4:]] == ["s1", "r1", "s2", "r2"]
    assert len(stream.calls) == 2


@pytest.mark.anyio
async def test_forwards_session_id_to_stream_fn_options() -> None:
    stream = MockStreamFn(assistant("a"), assistant("b"))
    agent = Agent({"model": MOCK_MODEL}, stream_fn=stream, session_id="session-1")
    await agent.prompt("one")
    agent.session_id = "session-2"
    await agent.prompt("two")
    assert [opts.session_id for _, opts in stream.calls] == ["session-1", "session-2"]


@pytest.mark.anyio
async def test_thinking_level_forwarded_as_reasoning_and_api_key_resolved_per_call() -> None:
    stream = MockStreamFn(assistant("a"))
    keys: list[str] = []

    async def get_api_key(provider: str) -> str:
        keys.append(provider)
        return "secret"

    agent = Agent({"model": MOCK_MODEL, "thinking_level": "high"}, stream_fn=stream, get_api_key=get_api_key)
    await agent.prompt("q")
    opts = stream.calls[0][1]
    assert (opts.reasoning, opts.api_key, keys) == ("high", "secret", ["openai"])


@pytest.mark.anyio
async def test_run_failure_appends_failure_message_and_emits_only_agent_end() -> None:
    def broken(model: Any, context: Any, options: Any) -> Any:
        raise RuntimeError("stream exploded")

    agent = Agent({"model": MOCK_MODEL}, stream_fn=broken)
    events: list[Any] = []
    agent.subscribe(lambda e, s: events.append(e))
    await agent.prompt("q")
    assert [e.type for e in events][-2:] == ["message_end", "agent_end"]
    failure = agent.state.messages[-1]
    assert failure.role == "assistant" and failure.stop_reason == "error"
    assert failure.error_message == "stream exploded" and failure.content[0].text == ""
    assert events[-1].messages == [failure]
    assert agent.state.error_message == "stream exploded"
    assert agent.state.is_streaming is False


@pytest.mark.anyio
async def test_reset_clears_state_and_queues_but_not_during_a_run() -> None:
    release = asyncio.Event()
    agent = Agent({"model": MOCK_MODEL}, stream_fn=MockStreamFn(assistant("a")))

    async def gate(event: Any, signal: Any) -> None:
        if event.type == "agent_start":
            await release.wait()

    agent.subscribe(gate)
    task = asyncio.create_task(agent.prompt("q"))
    await asyncio.sleep(0)
    with pytest.raises(RuntimeError, match="Cannot reset while the agent is processing"):
        agent.reset()
    release.set()
    await task
    agent.steer(user("s"))
    agent.follow_up(user("f"))
    agent.reset()
    assert agent.state.messages == [] and not agent.has_queued_messages()
    assert agent.state.error_message is None


@pytest.mark.anyio
async def test_prompt_with_images_and_typed_params_model() -> None:
    from pydantic import BaseModel

    from pi_tui.agent import AgentTool, AgentToolResult
    from pi_tui.ai.types import ImageContent, TextContent, ToolResultMessage

    class Params(BaseModel):
        path: str
        limit: int = 10

    received: list[Any] = []

    class ReadTool(AgentTool):
        async def execute(self, tool_call_id: str, params: Any, signal: Any = None, on_update: Any = None) -> Any:
            received.append(params)
            return AgentToolResult(content=[TextContent(text=f"{params.path}:{params.limit}")])

    tool = ReadTool(name="read", params_model=Params)
    assert tool.parameters["required"] == ["path"]
    stream = MockStreamFn(
        assistant([call("read", {"path": "a.txt", "limit": "5"}, "r1"), call("read", {"limit": 1}, "r2")], "toolUse"),
        assistant("done"),
    )
    agent = Agent({"model": MOCK_MODEL, "tools": [tool]}, stream_fn=stream)
    image = ImageContent(data="QUJD", mime_type="image/png")
    await agent.prompt("read it", [image])
    first = agent.state.messages[0]
    assert [b.type for b in first.content] == ["text", "image"]
    assert len(received) == 1 and isinstance(received[0], Params) and received[0].limit == 5
    results = [m for m in agent.state.messages if isinstance(m, ToolResultMessage)]
    assert results[0].content[0].text == "a.txt:5" and results[0].is_error is False
    assert results[1].is_error and results[1].content[0].text.startswith('Validation failed for tool "read":')


@pytest.mark.anyio
async def test_should_stop_after_turn_option_leaves_queues_untouched() -> None:
    stream = MockStreamFn(assistant("a"), assistant("b"))
    agent = Agent({"model": MOCK_MODEL}, stream_fn=stream, should_stop_after_turn=lambda ctx: True)
    agent.follow_up(user("later"))
    await agent.prompt("q")
    assert len(stream.calls) == 1
    assert [m.content[0].text for m in agent.queued_follow_up_messages] == ["later"]


@pytest.mark.anyio
async def test_one_parameter_and_method_listeners() -> None:
    class Ui:
        def __init__(self) -> None:
            self.types: list[str] = []

        def on_event(self, event: Any) -> None:
            self.types.append(event.type)

    ui = Ui()
    seen: list[str] = []
    agent = Agent({"model": MOCK_MODEL}, stream_fn=MockStreamFn(assistant("ok")))
    agent.subscribe(ui.on_event)
    agent.subscribe(lambda event: seen.append(event.type))
    await agent.prompt("q")
    assert ui.types == seen and seen[0] == "agent_start" and seen[-1] == "agent_end"
