"""Property tests: queued messages are never lost or duplicated, and an abort at any event leaves a sound
transcript (task items (c) and (d); pi-reference §5 items 2 and 3)."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_tui.agent import Agent, AgentToolResult
from pi_tui.ai.providers.faux import (
    faux_assistant_message,
    faux_text,
    faux_thinking,
    faux_tool_call,
    register_faux_provider,
)
from pi_tui.ai.transform_messages import transform_messages
from pi_tui.ai.types import AssistantMessage, ToolCall, ToolResultMessage

from .helpers import fn_tool, text_result


async def _work(tool_call_id: str, params: Any, signal: Any, on_update: Any) -> AgentToolResult:
    for _ in range(int(params.get("ticks", 2))):
        if signal is not None and signal.aborted:
            raise RuntimeError("work aborted")
        await asyncio.sleep(0)
    return text_result(f"worked {tool_call_id}")


def _script(turn: int) -> Any:
    """Reply for LLM call ``turn``: two parallel tool calls on even turns, text on odd turns."""
    if turn % 2 == 0:
        return faux_assistant_message(
            [faux_text(f"turn {turn}"), faux_tool_call("work", {"ticks": 2}, id=f"t{turn}a"), faux_tool_call("work", {"ticks": 1}, id=f"t{turn}b")],
            stop_reason="toolUse",
        )
    return faux_assistant_message(f"answer {turn}")


def _user_texts(messages: list[Any], prefix: str) -> list[str]:
    out = []
    for m in messages:
        if getattr(m, "role", None) == "user" and not isinstance(m.content, str):
            text = m.content[0].text
            if text.startswith(prefix):
                out.append(text)
    return out


def _assert_idle(agent: Agent) -> None:
    assert agent.state.is_streaming is False
    assert agent.state.streaming_message is None
    assert agent.state.pending_tool_calls == frozenset()
    assert agent.signal is None


actions = st.lists(
    st.tuples(st.integers(min_value=0, max_value=80), st.sampled_from(["steer", "follow_up", "abort"])),
    max_size=12,
)
modes = st.sampled_from(["one-at-a-time", "all"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=actions, steering_mode=modes, follow_up_mode=modes)
def test_queued_messages_delivered_exactly_once_in_order(
    actions: list[tuple[int, str]], steering_mode: str, follow_up_mode: str
) -> None:
    asyncio.run(_queues_scenario(actions, steering_mode, follow_up_mode))


async def _queues_scenario(actions: list[tuple[int, str]], steering_mode: str, follow_up_mode: str) -> None:
    faux = register_faux_provider(token_size={"min": 1, "max": 1})
    try:
        turn = 0

        def reply(context: Any, options: Any, state: Any, model: Any) -> Any:
            nonlocal turn
            turn += 1
            return _script(turn)

        faux.set_responses([reply] * 200)
        agent = Agent(
            {"model": faux.get_model(), "tools": [fn_tool("work", _work, {"ticks": {"type": "integer"}})]},
            steering_mode=steering_mode,  # type: ignore[arg-type]
            follow_up_mode=follow_up_mode,  # type: ignore[arg-type]
        )
        enqueued: dict[str, list[str]] = {"steer-": [], "follow-": []}
        plan = sorted(actions)
        index = 0

        def listener(event: Any, signal: Any) -> None:
            nonlocal index
            for at, action in plan:
                if at != index:
                    continue
                if action == "steer":
                    text = f"steer-{len(enqueued['steer-'])}"
                    enqueued["steer-"].append(text)
                    agent.steer(text)
                elif action == "follow_up":
                    text = f"follow-{len(enqueued['follow-'])}"
                    enqueued["follow-"].append(text)
                    agent.follow_up(text)
                else:
                    agent.abort()
            index += 1

        unsubscribe = agent.subscribe(listener)
        await asyncio.wait_for(agent.prompt("start"), 10)
        _assert_idle(agent)
        for prefix, queued in (("steer-", agent.queued_steering_messages), ("follow-", agent.queued_follow_up_messages)):
            delivered = _user_texts(agent.state.messages, prefix)
            remaining = [m.content[0].text for m in queued]
            assert delivered + remaining == enqueued[prefix]  # no loss, no duplicate, order kept
        unsubscribe()
        await asyncio.wait_for(agent.prompt("drain the rest"), 10)
        _assert_idle(agent)
        assert not agent.has_queued_messages()
        for prefix in ("steer-", "follow-"):
            assert _user_texts(agent.state.messages, prefix) == enqueued[prefix]
    finally:
        faux.unregister()


# ---------------------------------------------------------------- abort at every event index


def _rich_reply() -> list[Any]:
    return [
        faux_assistant_message(
            [
                faux_thinking("thinking about the two files"),
                faux_text("I will read both files."),
                faux_tool_call("work", {"ticks": 3}, id="call-a"),
                faux_tool_call("work", {"ticks": 1}, id="call-b"),
            ],
            stop_reason="toolUse",
        ),
        faux_assistant_message([faux_thinking("done"), faux_text("Both files are read.")]),
    ]


async def _run_with_abort_at(abort_at: int | None) -> tuple[Agent, int, Any]:
    faux = register_faux_provider(token_size={"min": 1, "max": 1})
    try:
        faux.set_responses(_rich_reply() + [faux_assistant_message("spare")] * 3)
        agent = Agent({"model": faux.get_model(), "tools": [fn_tool("work", _work, {"ticks": {"type": "integer"}})]})
        count = 0

        def listener(event: Any, signal: Any) -> None:
            nonlocal count
            if count == abort_at:
                agent.abort()
            count += 1

        agent.subscribe(listener)
        await asyncio.wait_for(agent.prompt("read two files"), 10)
        return agent, count, faux.get_model()
    finally:
        faux.unregister()


def _check_sound_transcript(messages: list[Any], model: Any) -> None:
    last = messages[-1]
    if isinstance(last, ToolResultMessage):  # must close every call of its assistant message
        owner = next(m for m in reversed(messages) if isinstance(m, AssistantMessage))
        ids = {b.id for b in owner.content if isinstance(b, ToolCall)}
        tail_ids = {m.tool_call_id for m in messages[messages.index(owner) + 1 :]}
        assert ids == tail_ids
    else:
        assert isinstance(last, AssistantMessage)
    for i, message in enumerate(messages):
        if isinstance(message, AssistantMessage) and message.stop_reason not in ("aborted", "error"):
            # (an aborted/errored message is never replayed: transform_messages drops it, §1.15)
            calls = [b.id for b in message.content if isinstance(b, ToolCall)]
            following = []
            for m in messages[i + 1 :]:
                if not isinstance(m, ToolResultMessage):
                    break
                following.append(m.tool_call_id)
            assert sorted(following) == sorted(calls)  # every call has exactly one result, right after it
    sent = transform_messages(messages, model)
    synthetic = [m for m in sent if isinstance(m, ToolResultMessage) and m.content and m.content[0].text == "No result provided"]
    assert synthetic == []


def test_abort_at_every_event_index() -> None:
    async def main() -> None:
        _, total, _ = await _run_with_abort_at(None)
        assert total > 30
        outcomes = set()
        for k in range(total + 1):
            agent, _, model = await _run_with_abort_at(k)
            _assert_idle(agent)
            messages = agent.state.messages
            _check_sound_transcript(messages, model)
            outcomes.add(getattr(messages[-1], "stop_reason", messages[-1].role))
        assert {"aborted", "stop"} <= outcomes

    asyncio.run(main())
