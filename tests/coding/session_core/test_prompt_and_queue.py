"""AgentSession prompt / queue suites (pi-reference §4.3 agent-session-prompt, -queue, -concurrent)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call

from .helpers import EchoTool, Recorder, StaticAccess, make_session, session_lines

pytestmark = pytest.mark.anyio


async def test_idle_prompt_exact_event_order_and_persistence(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("Hello there, world")])  # 18 chars → 3 deltas of ≤ 8
    session = make_session(tmp_path, faux.get_model())
    rec = Recorder(session)
    await session.prompt("hi")
    assert rec.types(updates=True) == [
        "agent_start", "turn_start", "message_start:user", "message_end:user", "message_start:assistant",
        "message_update", "message_update", "message_update", "message_update", "message_update",
        "message_end:assistant", "turn_end", "agent_end",
    ]
    updates = [e["assistantMessageEvent"] for e in rec.of("message_update")]
    assert [u["type"] for u in updates] == ["text_start", "text_delta", "text_delta", "text_delta", "text_end"]
    assert "".join(u.get("delta", "") for u in updates) == "Hello there, world"
    lines = session_lines(session)
    assert [line["type"] for line in lines] == ["session", "model_change", "thinking_level_change", "message", "message"]
    assert [line["message"]["role"] for line in lines[3:]] == ["user", "assistant"]
    assert lines[4]["parentId"] == lines[3]["id"]
    assert session.get_last_assistant_text() == "Hello there, world"


async def test_tool_turn_waits_for_follow_up_response(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([
        faux_assistant_message([faux_tool_call("echo", {"text": "ping"}, id="c1")], stop_reason="toolUse"),
        faux_assistant_message("done"),
    ])
    session = make_session(tmp_path, faux.get_model(), tools=[EchoTool()])
    rec = Recorder(session)
    await session.prompt("go")
    assert rec.types() == [
        "agent_start", "turn_start", "message_start:user", "message_end:user", "message_start:assistant",
        "message_end:assistant", "tool_execution_start", "tool_execution_end", "message_start:toolResult",
        "message_end:toolResult", "turn_end", "turn_start", "message_start:assistant", "message_end:assistant",
        "turn_end", "agent_end",
    ]
    assert [m.role for m in session.messages] == ["user", "assistant", "toolResult", "assistant"]
    assert faux.state.call_count == 2


async def test_prompt_while_streaming_needs_streaming_behavior(tmp_path: Path, faux: FauxProvider) -> None:
    gate, in_call = asyncio.Event(), asyncio.Event()

    async def slow(context: Any, options: Any, state: Any, model: Any) -> Any:
        in_call.set()
        await gate.wait()
        return faux_assistant_message("first")

    faux.set_responses([slow, faux_assistant_message("steered"), faux_assistant_message("followed")])
    session = make_session(tmp_path, faux.get_model())
    run = asyncio.create_task(session.prompt("one"))
    await in_call.wait()
    with pytest.raises(RuntimeError, match="Specify streamingBehavior"):
        await session.prompt("two")
    await session.prompt("two", streaming_behavior="followUp")
    assert session.follow_up_messages == ["two"]
    gate.set()
    await run
    texts = [session_text(m) for m in session.messages if m.role == "user"]
    assert texts == ["one", "two"]
    assert session.follow_up_messages == []


def session_text(message: Any) -> str:
    content = message.content
    return content if isinstance(content, str) else "".join(b.text for b in content if b.type == "text")


async def test_queue_update_precedes_user_message_start(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([
        faux_assistant_message([faux_tool_call("echo", {"text": "x"}, id="c1")], stop_reason="toolUse"),
        faux_assistant_message("ok"),
    ])
    session = make_session(tmp_path, faux.get_model(), tools=[EchoTool()])
    rec = Recorder(session)
    steered: list[bool] = []

    def on_event(event: Any) -> None:
        if event.type == "tool_execution_start" and not steered:
            steered.append(True)
            asyncio.get_running_loop().create_task(session.steer("also this"))

    session.subscribe(on_event)
    await session.prompt("start")
    types = rec.types()
    first_queue = types.index("queue_update")
    assert rec.of("queue_update")[0] == {"type": "queue_update", "steering": ["also this"], "followUp": []}
    second = types.index("queue_update", first_queue + 1)
    assert rec.of("queue_update")[1] == {"type": "queue_update", "steering": [], "followUp": []}
    # the emptied queue is announced right before the steering message's message_start, after turn_start
    assert types[second - 1] == "turn_start" and types[second + 1] == "message_start:user"
    assert session.steering_messages == []
    users = [session_text(m) for m in session.messages if m.role == "user"]
    assert users == ["start", "also this"]


async def test_follow_up_only_after_run_and_clear_queue(tmp_path: Path, faux: FauxProvider) -> None:
    gate, in_call = asyncio.Event(), asyncio.Event()

    async def slow(context: Any, options: Any, state: Any, model: Any) -> Any:
        in_call.set()
        await gate.wait()
        return faux_assistant_message("first")

    faux.set_responses([slow, faux_assistant_message("second")])
    session = make_session(tmp_path, faux.get_model())
    rec = Recorder(session)
    run = asyncio.create_task(session.prompt("one"))
    await in_call.wait()
    await session.follow_up("later")
    await session.steer("now")
    assert session.clear_queue() == (["now"], ["later"])
    assert rec.of("queue_update")[-1] == {"type": "queue_update", "steering": [], "followUp": []}
    await session.follow_up("later")
    gate.set()
    await run
    users = [session_text(m) for m in session.messages if m.role == "user"]
    assert users == ["one", "later"]
    assert [m.role for m in session.messages] == ["user", "assistant", "user", "assistant"]


async def test_no_model_and_no_key_errors(tmp_path: Path, faux: FauxProvider) -> None:
    model = faux.get_model()
    session = make_session(tmp_path, model, access=StaticAccess([model], keyless={model.provider}))
    with pytest.raises(RuntimeError, match=f"^No API key found for {model.provider}"):
        await session.prompt("hi")
    session.agent.state.model = None  # type: ignore[assignment]
    with pytest.raises(RuntimeError, match="^No model selected"):
        await session.prompt("hi")
    assert faux.state.call_count == 0


async def test_prompt_allowed_after_completion_and_images_reach_provider(tmp_path: Path, faux: FauxProvider) -> None:
    from pi_tui.ai.types import ImageContent

    seen: list[Any] = []

    def capture(context: Any, options: Any, state: Any, model: Any) -> Any:
        seen.append(context.messages[-1])
        return faux_assistant_message("ok")

    faux.set_responses([capture, capture])
    session = make_session(tmp_path, faux.get_model())
    await session.prompt("one")
    await session.prompt("two", images=[ImageContent(data="aGk=", mime_type="image/png")])
    assert [b.type for b in seen[1].content] == ["text", "image"]
