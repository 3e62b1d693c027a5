"""Provider behaviours recorded from the real pi 0.73.1 (pi traces, coding/*, observations 8 and 9).

* P1: the ``start`` event's ``partial`` is a snapshot taken when ``start`` is pushed, so a consumer that
  keeps it (the agent's ``message_start``) never sees later chunks: empty content, zero usage (Anthropic:
  the ``message_start`` usage), ``stop_reason="stop"``, no ``response_id``. Block events alias the live
  message (pi-reference §1.10 item 7).
* P2: tool-call ``arguments`` strings in requests are ``JSON.stringify`` output (compact, non-ASCII kept,
  JavaScript numbers).
* P3: abort texts and block ends: ``Request was aborted.`` before the response (OpenAI/Anthropic SDK text);
  openai-completions mid-stream pushes every ``*_end`` and then fails with ``Request was aborted``;
  Anthropic mid-stream closes nothing and says ``This operation was aborted`` (Node fetch).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_tui.agent import Agent
from pi_tui.ai.abort import AbortController
from pi_tui.ai.js_format import js_json_compact
from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import anthropic, openai_completions, openai_responses
from pi_tui.ai.providers._openai_completions_convert import convert_messages
from pi_tui.ai.providers._responses_shared import convert_responses_messages
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.types import AssistantMessage, Context, Model, ToolCall, UserMessage

from .helpers import chat_sse, mock_reads
from .replay_server import ReplayResponse, ReplayServer, check_event_protocol

CTX = Context(messages=[UserMessage(content="hi")])


def _chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"id": "chatcmpl-1", "model": "m", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            **extra}


TEXT_BODY = chat_sse(
    _chunk({"role": "assistant", "content": ""}),
    _chunk({"content": "Hello "}),
    _chunk({"content": "world"}),
    _chunk({}, "stop"),
    {"id": "chatcmpl-1", "choices": [], "usage": {"prompt_tokens": 7, "completion_tokens": 3}},
)


def _openai_model(base_url: str = "http://127.0.0.1:9/v1") -> Model:
    return Model(id="m", api="openai-completions", provider="local", base_url=base_url)


def _anthropic_model(base_url: str = "http://127.0.0.1:9") -> Model:
    return Model(id="claude-x", api="anthropic-messages", provider="anthropic", base_url=base_url)


def _anthropic_sse(*events: dict[str, Any]) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


ANTHROPIC_BODY = _anthropic_sse(
    {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [],
                                          "usage": {"input_tokens": 11, "output_tokens": 1}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi there"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 5}},
    {"type": "message_stop"},
)


# ---------------------------------------------------------------- P1: start is a snapshot


@pytest.mark.anyio
async def test_openai_start_partial_is_a_snapshot_unchanged_by_later_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    mock_reads(monkeypatch, [TEXT_BODY])  # one read: the producer parses everything before we look
    s = openai_completions.stream(_openai_model(), CTX, StreamOptions(api_key="k"))
    final = await s.result()
    events = [e async for e in s]
    start = events[0]
    assert start.type == "start"
    assert final.content[0].text == "Hello world" and final.response_id == "chatcmpl-1"
    assert final.usage.input == 7
    kept = start.partial
    assert kept is not final
    assert kept.content == []
    assert kept.usage.input == kept.usage.output == kept.usage.total_tokens == 0
    assert kept.stop_reason == "stop"
    assert kept.response_id is None
    # Block events alias the live message (pi-reference §1.10 item 7): no per-delta copy.
    assert all(e.partial is final for e in events[1:-1])


@pytest.mark.anyio
async def test_anthropic_start_partial_has_initial_usage_but_no_response_id(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mock_reads(monkeypatch, [ANTHROPIC_BODY])
    s = anthropic.stream(_anthropic_model(), CTX, StreamOptions(api_key="k"))
    final = await s.result()
    events = [e async for e in s]
    assert [e.type for e in events][:2] == ["start", "text_start"]
    kept = events[0].partial
    assert kept.content == [] and kept.response_id is None and kept.stop_reason == "stop"
    assert (kept.usage.input, kept.usage.output, kept.usage.total_tokens) == (11, 1, 12)
    assert final.response_id == "msg_1" and final.usage.output == 5 and final.content[0].text == "Hi there"


@pytest.mark.anyio
async def test_anthropic_start_is_pushed_even_when_message_start_never_comes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mock_reads(monkeypatch, [b"event: error\ndata: {\"type\":\"error\",\"error\":{\"message\":\"boom\"}}\n\n"])
    s = anthropic.stream(_anthropic_model(), CTX, StreamOptions(api_key="k"))
    events = [e async for e in s]
    assert [e.type for e in events] == ["start", "error"]
    assert events[-1].error.stop_reason == "error"


@pytest.mark.anyio
async def test_agent_message_start_is_not_changed_by_later_deltas(monkeypatch: pytest.MonkeyPatch) -> None:
    mock_reads(monkeypatch, [TEXT_BODY])
    agent = Agent({"model": _openai_model()}, stream_fn=openai_completions.stream_simple)
    kept: list[Any] = []
    agent.subscribe(lambda event: kept.append(event))
    await agent.prompt("hi")
    starts = [e for e in kept if e.type == "message_start" and e.message.role == "assistant"]
    ends = [e for e in kept if e.type == "message_end" and e.message.role == "assistant"]
    assert len(starts) == len(ends) == 1
    start_json = starts[0].message.to_json_dict()
    assert start_json["content"] == [] and "responseId" not in start_json
    assert start_json["usage"]["totalTokens"] == 0 and start_json["stopReason"] == "stop"
    assert ends[0].message.content[0].text == "Hello world"


# ---------------------------------------------------------------- P2: compact arguments JSON


def test_js_json_compact_matches_json_stringify() -> None:
    assert js_json_compact({"path": "ä/ü.txt", "n": 2.0, "eps": 1e-7, "small": 0.00001, "ok": True, "x": None}) == (
        '{"path":"ä/ü.txt","n":2,"eps":1e-7,"small":0.00001,"ok":true,"x":null}'
    )
    assert js_json_compact({"edits": [{"oldText": "a\n", "newText": "\u2028"}]}) == (
        '{"edits":[{"oldText":"a\\n","newText":"\u2028"}]}'
    )
    assert js_json_compact({"s": "\ud83d"}) == '{"s":"\\ud83d"}'  # lone surrogate escaped, as JS does


def _assistant_with_call(api: str) -> AssistantMessage:
    return AssistantMessage(
        content=[ToolCall(id="call_1", name="write", arguments={"path": "out/ß.txt", "content": "hé\n", "n": 1.0})],
        api=api, provider="local", model="m", stop_reason="toolUse",
    )


def test_openai_completions_replays_arguments_as_compact_json() -> None:
    model = _openai_model()
    ctx = Context(messages=[UserMessage(content="go"), _assistant_with_call(model.api)])
    out = convert_messages(model, ctx, resolve_completions_compat(model))
    (assistant,) = [m for m in out if m["role"] == "assistant"]
    args = assistant["tool_calls"][0]["function"]["arguments"]
    assert args == '{"path":"out/ß.txt","content":"hé\\n","n":1}'


def test_openai_responses_replays_arguments_as_compact_json() -> None:
    model = Model(id="gpt-x", api="openai-responses", provider="openai", base_url="http://127.0.0.1:9/v1")
    ctx = Context(messages=[UserMessage(content="go"), _assistant_with_call(model.api)])
    items = convert_responses_messages(model, ctx, {"openai"})
    calls = [i for i in items if i.get("type") == "function_call"]
    assert calls and calls[0]["arguments"] == '{"path":"out/ß.txt","content":"hé\\n","n":1}'


# ---------------------------------------------------------------- P3: abort


@pytest.mark.anyio
async def test_openai_abort_mid_stream_ends_open_blocks_before_the_error(replay_server: ReplayServer) -> None:
    body = chat_sse(
        _chunk({"role": "assistant", "content": ""}),
        _chunk({"content": "partial "}),
        _chunk({"tool_calls": [{"index": 0, "id": "call_1", "type": "function",
                                "function": {"name": "read", "arguments": '{"path":"a.t'}}]}),
        _chunk({"content": "never"}, "stop"),
    )
    stall = body.index(b"never") - 40
    stall = body.rfind(b"\n\n", 0, stall) + 2
    replay_server.enqueue(ReplayResponse(body=body, stall_after=stall))
    controller = AbortController()
    s = openai_completions.stream(_openai_model(replay_server.base_url + "/v1"), CTX,
                                  StreamOptions(api_key="k", signal=controller.signal))
    events: list[Any] = []
    async for e in s:
        events.append(e)
        if e.type == "toolcall_delta" and e.delta:
            controller.abort()
    msg = await s.result()
    types = [e.type for e in events]
    assert types[-3:] == ["text_end", "toolcall_end", "error"]
    assert events[-3].content == "partial "
    assert events[-2].tool_call.arguments == {"path": "a.t"}
    assert not check_event_protocol(events)
    assert msg.stop_reason == "aborted"
    assert msg.error_message == "Request was aborted"
    assert msg.content[0].text == "partial "
    assert msg.usage.total_tokens == 0  # the usage chunk never arrived (pi trace rpc-abort)
    assert msg.response_id == "chatcmpl-1"


@pytest.mark.anyio
async def test_abort_before_the_request_uses_the_sdk_text(replay_server: ReplayServer) -> None:
    controller = AbortController()
    controller.abort()
    opts = StreamOptions(api_key="k", signal=controller.signal)
    base = replay_server.base_url
    streams = {
        "openai-completions": openai_completions.stream(_openai_model(base + "/v1"), CTX, opts),
        "anthropic-messages": anthropic.stream(_anthropic_model(base), CTX, opts),
        "openai-responses": openai_responses.stream(
            Model(id="gpt-x", api="openai-responses", provider="openai", base_url=base + "/v1"), CTX, opts
        ),
    }
    for api, s in streams.items():
        events = [e async for e in s]
        assert [e.type for e in events] == ["error"], api
        assert events[0].error.stop_reason == "aborted", api
        assert events[0].error.error_message == "Request was aborted.", api
    assert replay_server.requests == []


@pytest.mark.anyio
async def test_anthropic_abort_mid_stream_closes_nothing(replay_server: ReplayServer) -> None:
    stall = ANTHROPIC_BODY.index(b"event: content_block_stop")
    replay_server.enqueue(ReplayResponse(body=ANTHROPIC_BODY, stall_after=stall))
    controller = AbortController()
    s = anthropic.stream(_anthropic_model(replay_server.base_url), CTX,
                         StreamOptions(api_key="k", max_retries=0, signal=controller.signal))
    events: list[Any] = []
    async for e in s:
        events.append(e)
        if e.type == "text_delta":
            controller.abort()
    msg = await s.result()
    assert [e.type for e in events] == ["start", "text_start", "text_delta", "error"]
    assert msg.error_message == "This operation was aborted"
    assert msg.stop_reason == "aborted" and msg.content[0].text == "Hi there"
    assert (msg.usage.input, msg.usage.output) == (11, 1)  # message_start usage kept, as in pi
