"""Faux provider (pi-reference §1.21), AgentEvent JSON form and the custom-role message registry."""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import pytest
from pydantic import TypeAdapter

from pi_tui.agent import (
    AgentEvent,
    AgentToolResult,
    CustomAgentMessage,
    MessageStartEvent,
    ToolExecutionEndEvent,
    ToolExecutionUpdateEvent,
    TurnEndEvent,
    UnknownAgentMessage,
    parse_agent_message,
    register_agent_message_role,
    unregister_agent_message_role,
)
from pi_tui.ai.abort import AbortController
from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.providers.faux import (
    FauxProvider,
    faux_assistant_message,
    faux_text,
    faux_thinking,
    faux_tool_call,
    register_faux_provider,
    serialize_context,
)
from pi_tui.ai.stream import stream_simple
from pi_tui.ai.types import Context, ImageContent, TextContent, Tool, ToolResultMessage, UserMessage


async def collect(faux: FauxProvider, context: Context, options: Any = None) -> tuple[list[Any], Any]:
    stream = stream_simple(faux.get_model(), context, options)  # type: ignore[arg-type]
    events = [e async for e in stream]
    return events, await stream.result()


def ctx(text: str = "hi", **kw: Any) -> Context:
    return Context(system_prompt="sys", messages=[UserMessage(content=[TextContent(text=text)])], **kw)


@pytest.mark.anyio
async def test_streams_blocks_with_deterministic_chunks(faux: FauxProvider) -> None:
    faux.set_responses(
        [
            faux_assistant_message(
                [faux_thinking("think twice"), faux_text("0123456789"), faux_tool_call("calc", {"x": 1}, id="c1")],
                stop_reason="toolUse",
            )
        ]
    )
    events, final = await collect(faux, ctx())
    assert [(e.type, getattr(e, "delta", None)) for e in events] == [
        ("start", None),
        ("thinking_start", None),
        ("thinking_delta", "think tw"),
        ("thinking_delta", "ice"),
        ("thinking_end", None),
        ("text_start", None),
        ("text_delta", "01234567"),
        ("text_delta", "89"),
        ("text_end", None),
        ("toolcall_start", None),
        ("toolcall_delta", '{"x":1}'),
        ("toolcall_end", None),
        ("done", None),
    ]
    assert events[0].partial.stop_reason == "toolUse"  # pi quirk: start already has the final metadata
    assert events[-1].reason == "toolUse"
    assert final.api == faux.api and final.provider == "faux" and final.model == "faux-1"
    assert events[11].tool_call.arguments == {"x": 1}
    assert faux.state.call_count == 1 and faux.get_pending_response_count() == 0


@pytest.mark.anyio
async def test_usage_estimate_matches_pi_formula(faux: FauxProvider) -> None:
    tool = Tool(name="t", description="d", parameters={"type": "object", "properties": {}})
    context = ctx("What is 2 + 2?", tools=[tool])
    faux.set_responses([faux_assistant_message("2 + 2 = 4")])
    _, final = await collect(faux, context)
    text = 'system:sys\n\nuser:What is 2 + 2?\n\ntools:[{"name":"t","description":"d","parameters":{"type":"object","properties":{}}}]'
    assert serialize_context(context) == text
    assert final.usage.input == math.ceil(len(text) / 4)
    assert final.usage.output == math.ceil(len("2 + 2 = 4") / 4)
    assert final.usage.total_tokens == final.usage.input + final.usage.output


@pytest.mark.anyio
async def test_image_and_tool_result_text_in_estimate() -> None:
    context = Context(
        messages=[
            UserMessage(content=[TextContent(text="look"), ImageContent(data="QUJD", mime_type="image/png")]),
            ToolResultMessage(tool_call_id="c", tool_name="read", content=[TextContent(text="file")]),
        ]
    )
    assert serialize_context(context) == "user:look\n[image:image/png:4]\n\ntoolResult:read\nfile"


@pytest.mark.anyio
async def test_session_cache_simulation_counts_uncached_part_twice(faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("a"), faux_assistant_message("b")])
    options = SimpleStreamOptions(session_id="s1")
    _, first = await collect(faux, ctx("hello"), options)
    assert (first.usage.cache_read, first.usage.cache_write) == (0, first.usage.input)
    longer = ctx("hello")
    longer.messages.append(UserMessage(content="and more text here"))
    _, second = await collect(faux, longer, options)
    prompt = serialize_context(longer)
    cached = len(serialize_context(ctx("hello")))
    assert second.usage.cache_read == math.ceil(cached / 4)
    assert second.usage.cache_write == math.ceil((len(prompt) - cached) / 4)
    assert second.usage.input == math.ceil(len(prompt) / 4) - second.usage.cache_read
    _, third = await collect(faux, ctx("x"), SimpleStreamOptions(session_id="s2", cache_retention="none"))
    assert third.usage.cache_write == 0 == third.usage.cache_read


@pytest.mark.anyio
async def test_no_more_responses_and_throwing_factory(faux: FauxProvider) -> None:
    events, final = await collect(faux, ctx())
    assert [e.type for e in events] == ["error"]
    assert (final.stop_reason, final.error_message) == ("error", "No more faux responses queued")
    assert final.usage.input > 0

    def broken(context: Any, options: Any, state: Any, model: Any) -> Any:
        raise ValueError("factory broke")

    faux.set_responses([broken])
    events, final = await collect(faux, ctx())
    assert (final.stop_reason, final.error_message, final.usage.input) == ("error", "factory broke", 0)


@pytest.mark.anyio
async def test_factory_gets_context_options_state_model_and_may_be_async(faux: FauxProvider) -> None:
    seen: list[Any] = []

    async def factory(context: Any, options: Any, state: Any, model: Any) -> Any:
        seen.append((context.messages[0].content[0].text, options.session_id, state.call_count, model.id))
        return {"role": "assistant", "content": [{"type": "text", "text": "from dict"}], "stopReason": "stop"}

    faux.append_responses([factory])
    _, final = await collect(faux, ctx("q"), SimpleStreamOptions(session_id="s"))
    assert seen == [("q", "s", 1, "faux-1")]
    assert final.content[0].text == "from dict"


@pytest.mark.anyio
async def test_abort_before_start_and_mid_stream() -> None:
    faux = register_faux_provider(tokens_per_second=200, token_size={"min": 1, "max": 1})
    try:
        controller = AbortController()
        controller.abort()
        faux.set_responses([faux_assistant_message("never streamed")])
        events, final = await collect(faux, ctx(), SimpleStreamOptions(signal=controller.signal))
        assert [e.type for e in events] == ["error"]
        assert (final.stop_reason, final.error_message) == ("aborted", "Request was aborted")

        controller = AbortController()
        faux.set_responses([faux_assistant_message("abcdefgh" * 10)])
        stream = stream_simple(faux.get_model(), ctx(), SimpleStreamOptions(signal=controller.signal))
        types = []
        async for event in stream:
            types.append(event.type)
            if types.count("text_delta") == 2:
                controller.abort()
        final = await stream.result()
        assert types[-1] == "error" and "text_end" not in types  # pi quirk: the open block is not closed
        assert final.content[0].text == "abcdefgh"  # two 4-char chunks (1 token each)
    finally:
        faux.unregister()


@pytest.mark.anyio
async def test_scripted_error_streams_content_then_error(faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("partial", stop_reason="error", error_message="HTTP 529")])
    events, final = await collect(faux, ctx())
    assert [e.type for e in events][-2:] == ["text_end", "error"]
    assert (final.stop_reason, final.error_message, final.content[0].text) == ("error", "HTTP 529", "partial")


@pytest.mark.anyio
async def test_models_on_response_and_unregister() -> None:
    faux = register_faux_provider(models=[{"id": "a", "reasoning": True}, {"id": "b", "name": "Bee"}])
    responses: list[Any] = []
    try:
        assert faux.api.startswith("faux:") and [m.id for m in faux.models] == ["a", "b"]
        assert faux.get_model() is faux.models[0] and faux.get_model("b").name == "Bee"  # type: ignore[union-attr]
        assert faux.get_model("zzz") is None and faux.models[0].reasoning is True
        faux.set_responses([faux_assistant_message("x")])
        await collect(faux, ctx(), SimpleStreamOptions(on_response=lambda r, m: responses.append(r)))
        assert responses == [{"status": 200, "headers": {}}]
    finally:
        faux.unregister()
    with pytest.raises(ValueError, match="No API provider registered for api: faux:"):
        stream_simple(faux.models[0], ctx())


def test_faux_helpers() -> None:
    call = faux_tool_call("t", {"a": 1})
    assert call.id.startswith("tool:") and call.arguments == {"a": 1}
    msg = faux_assistant_message(faux_text("x"), stop_reason="length", response_id="r1", timestamp=5)
    assert msg.to_json_dict()["stopReason"] == "length" and msg.response_id == "r1" and msg.timestamp == 5


# ---------------------------------------------------------------- AgentEvent JSON


def test_agent_events_dump_to_pi_json_and_load_back() -> None:
    result = ToolResultMessage(tool_call_id="c1", tool_name="calc", content=[TextContent(text="4")], is_error=False, timestamp=1)
    end = ToolExecutionEndEvent(
        tool_call_id="c1", tool_name="calc", result=AgentToolResult(content=[TextContent(text="4")], details={}, terminate=True), is_error=False
    )
    update = ToolExecutionUpdateEvent(tool_call_id="c1", tool_name="calc", args={"e": 1}, partial_result=AgentToolResult(content=[]))
    dumped = [
        e.model_dump(mode="json", by_alias=True, exclude_none=True)
        for e in (end, update, TurnEndEvent(message=faux_assistant_message("4", timestamp=1), tool_results=[result]))
    ]
    assert dumped[0] == {
        "type": "tool_execution_end",
        "toolCallId": "c1",
        "toolName": "calc",
        "result": {"content": [{"type": "text", "text": "4"}], "details": {}, "terminate": True},
        "isError": False,
    }
    assert dumped[1]["partialResult"] == {"content": []} and dumped[1]["args"] == {"e": 1}
    assert dumped[2]["toolResults"][0]["toolCallId"] == "c1"
    adapter: TypeAdapter[Any] = TypeAdapter(AgentEvent)
    for data in dumped:
        assert adapter.validate_python(data).model_dump(mode="json", by_alias=True, exclude_none=True) == data
    # A role nobody registered (the coding layer registers "notification" globally, so use another).
    custom = adapter.validate_json(json.dumps({"type": "message_start", "message": {"role": "x-unregistered", "text": "hi", "level": "info"}}))
    assert isinstance(custom, MessageStartEvent) and isinstance(custom.message, UnknownAgentMessage)
    assert custom.model_dump(by_alias=True)["message"] == {"role": "x-unregistered", "text": "hi", "level": "info", "timestamp": None}


def test_custom_role_registry() -> None:
    class Notification(CustomAgentMessage):
        level: str
        text: str

    register_agent_message_role("test-notification", Notification)
    try:
        msg = parse_agent_message({"role": "test-notification", "level": "info", "text": "done", "timestamp": 3})
        assert isinstance(msg, Notification) and msg.text == "done"
        assert msg.to_json_dict() == {"role": "test-notification", "level": "info", "text": "done", "timestamp": 3}
        with pytest.raises(ValueError):
            parse_agent_message({"role": "test-notification", "text": "no level"})
    finally:
        unregister_agent_message_role("test-notification")
    unknown = parse_agent_message({"role": "test-notification", "text": "kept", "extraField": [1]})
    assert isinstance(unknown, UnknownAgentMessage) and unknown.to_json_dict()["extraField"] == [1]
    assert parse_agent_message({"role": "user", "content": "hi", "timestamp": 0}).role == "user"
    with pytest.raises(ValueError, match="LLM message role"):
        register_agent_message_role("user", Notification)
    with pytest.raises(ValueError, match="string 'role'"):
        parse_agent_message({"text": "no role"})
    with pytest.raises(ValueError, match="must be an object"):
        parse_agent_message(42)


def test_faux_runs_without_agent_in_plain_asyncio() -> None:
    async def main() -> str:
        faux = register_faux_provider()
        try:
            faux.set_responses([faux_assistant_message("plain")])
            stream = stream_simple(faux.get_model(), ctx())
            return (await stream.result()).content[0].text  # type: ignore[union-attr]
        finally:
            faux.unregister()

    assert asyncio.run(main()) == "plain"
