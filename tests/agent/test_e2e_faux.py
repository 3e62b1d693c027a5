"""pi's e2e.test.ts [unit, faux provider] (pi-reference §4.1) against the Agent on the faux provider."""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.agent import Agent
from pi_tui.ai.providers.faux import (
    FauxProvider,
    faux_assistant_message,
    faux_text,
    faux_thinking,
    faux_tool_call,
    register_faux_provider,
)
from pi_tui.ai.types import ToolResultMessage

from .helpers import CalculateTool, GetCurrentTimeTool, user


def make_agent(faux: FauxProvider, **kw: Any) -> Agent:
    state = {"system_prompt": "You are a helpful assistant.", "model": faux.get_model(), **kw.pop("state", {})}
    return Agent(state, **kw)


@pytest.mark.anyio
async def test_basic_prompt(faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("2 + 2 = 4")])
    agent = make_agent(faux)
    await agent.prompt("What is 2+2? Answer with just the number.")
    assert agent.state.is_streaming is False
    assert len(agent.state.messages) == 2
    assert [m.role for m in agent.state.messages] == ["user", "assistant"]
    assert "4" in agent.state.messages[1].content[0].text


@pytest.mark.anyio
async def test_tool_execution_with_pending_tool_tracking(faux: FauxProvider) -> None:
    faux.set_responses(
        [
            faux_assistant_message([faux_tool_call("calculate", {"expression": "123 * 456"}, id="calc-1")], stop_reason="toolUse"),
            faux_assistant_message("The result is 56088."),
        ]
    )
    agent = make_agent(faux, state={"tools": [CalculateTool(), GetCurrentTimeTool()]})
    pending: list[tuple[str, list[str]]] = []

    def listener(event: Any, signal: Any) -> None:
        if event.type in ("tool_execution_start", "tool_execution_end"):
            pending.append((event.type, sorted(agent.state.pending_tool_calls)))

    agent.subscribe(listener)
    await agent.prompt("Calculate 123 * 456 using the calculator tool.")
    assert pending == [("tool_execution_start", ["calc-1"]), ("tool_execution_end", [])]
    result = next(m for m in agent.state.messages if isinstance(m, ToolResultMessage))
    assert result.content[0].text == "123 * 456 = 56088"
    assert result.is_error is False
    assert agent.state.pending_tool_calls == frozenset()


@pytest.mark.anyio
async def test_abort_during_streaming() -> None:
    faux = register_faux_provider(tokens_per_second=20, token_size={"min": 2, "max": 2})
    try:
        faux.set_responses([faux_assistant_message("one two three four five six seven eight nine ten " * 3)])
        agent = make_agent(faux)
        deltas = 0

        def listener(event: Any, signal: Any) -> None:
            nonlocal deltas
            if event.type == "message_update" and event.assistant_message_event.type == "text_delta":
                deltas += 1
                if deltas == 2:
                    agent.abort()

        agent.subscribe(listener)
        await agent.prompt("Count slowly to one hundred.")
        last = agent.state.messages[-1]
        assert last.role == "assistant" and last.stop_reason == "aborted"
        assert last.error_message == "Request was aborted"
        assert agent.state.error_message == last.error_message
        assert agent.state.is_streaming is False
    finally:
        faux.unregister()


@pytest.mark.anyio
async def test_lifecycle_event_ordering(faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("Hello there")])
    agent = make_agent(faux)
    types: list[str] = []
    agent.subscribe(lambda e, s: types.append(e.type))
    await agent.prompt("Say hello.")
    assert types.index("agent_start") < types.index("message_start") < types.index("message_end")
    assert types.index("message_end") < types.index("agent_end") == len(types) - 1
    assert "message_update" in types


@pytest.mark.anyio
async def test_multi_turn_memory(faux: FauxProvider) -> None:
    def remembers(context: Any, options: Any, state: Any, model: Any) -> Any:
        texts = [m.content[0].text for m in context.messages if m.role == "user"]
        assert texts == ["My name is Alice.", "What is my name?"]
        assert context.messages[1].content[0].text == "Nice to meet you, Alice."
        return faux_assistant_message("Your name is Alice.")

    faux.set_responses([faux_assistant_message("Nice to meet you, Alice."), remembers])
    agent = make_agent(faux)
    await agent.prompt("My name is Alice.")
    await agent.prompt("What is my name?")
    assert len(agent.state.messages) == 4
    assert "Alice" in agent.state.messages[-1].content[0].text
    assert agent.state.messages[-1].stop_reason == "stop"


@pytest.mark.anyio
async def test_thinking_blocks_preserved_exactly(faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message([faux_thinking("step by step"), faux_text("4")])])
    agent = make_agent(faux, state={"thinking_level": "low"})
    await agent.prompt("What is 2+2?")
    content = [b.to_json_dict() for b in agent.state.messages[-1].content]
    assert content == [{"type": "thinking", "thinking": "step by step"}, {"type": "text", "text": "4"}]


@pytest.mark.anyio
async def test_continue_errors(faux: FauxProvider) -> None:
    agent = make_agent(faux)
    with pytest.raises(RuntimeError, match="^No messages to continue from$"):
        await agent.continue_()
    faux.set_responses([faux_assistant_message("hi")])
    await agent.prompt("hello")
    with pytest.raises(RuntimeError, match="^Cannot continue from message role: assistant$"):
        await agent.continue_()


@pytest.mark.anyio
async def test_continue_from_user_message(faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("HELLO WORLD")])
    agent = make_agent(faux, state={"messages": [user("Say exactly: HELLO WORLD")]})
    types: list[str] = []
    agent.subscribe(lambda e, s: types.append(e.type))
    await agent.continue_()
    assert [m.role for m in agent.state.messages] == ["user", "assistant"]
    assert "HELLO WORLD" in agent.state.messages[1].content[0].text
    assert types.count("message_start") == 1  # only the assistant


@pytest.mark.anyio
async def test_continue_from_tool_result(faux: FauxProvider) -> None:
    initial = [
        user("What is 5 + 3?"),
        faux_assistant_message([faux_tool_call("calculate", {"expression": "5 + 3"}, id="calc-1")], stop_reason="toolUse"),
        ToolResultMessage(
            tool_call_id="calc-1", tool_name="calculate", content=[{"type": "text", "text": "5 + 3 = 8"}], is_error=False
        ),
    ]
    faux.set_responses([faux_assistant_message("5 + 3 = 8.")])
    agent = make_agent(faux, state={"messages": initial, "tools": [CalculateTool()]})
    await agent.continue_()
    assert [m.role for m in agent.state.messages] == ["user", "assistant", "toolResult", "assistant"]
    assert "8" in agent.state.messages[-1].content[0].text
