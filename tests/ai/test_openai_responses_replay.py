"""openai-responses: recorded streams and synthetic edge cases replayed through the real provider.

Fixtures go through the loopback ReplayServer cut at random byte boundaries (several seeds) and one byte per
write; results must match ``*.expected.json`` (tool ids compared before ``|``; thinking signature = the stored
item's ``encrypted_content``) and the events must obey pi-reference §1.10.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.ai.options import SimpleStreamOptions, StreamOptions
from pi_tui.ai.providers import openai_responses
from pi_tui.ai.types import AssistantMessage, Context, Model, Tool, UserMessage

from .replay_server import (
    ReplayResponse,
    ReplayServer,
    assert_matches_expected,
    check_event_protocol,
    fixture_names,
    load_expected,
    sse_body,
)

API = "openai-responses"
NAMES = fixture_names(API)


def _model(base_url: str, **kw: Any) -> Model:
    return Model(id="gpt-test", api=API, provider="openai", base_url=base_url, **kw)


def _context() -> Context:
    tool = Tool(name="weather", description="d", parameters={"type": "object", "properties": {}})
    return Context(system_prompt="sys", messages=[UserMessage(content="hi")], tools=[tool])


async def _run(model: Model, options: StreamOptions | None = None) -> tuple[list[Any], AssistantMessage]:
    s = openai_responses.stream(model, _context(), options or StreamOptions(api_key="k", max_retries=0))
    events = [e async for e in s]
    return events, await s.result()


def _sse(*events: dict[str, Any]) -> bytes:
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def _completed(status: str = "completed", **response: Any) -> dict[str, Any]:
    usage = {"input_tokens": 100, "output_tokens": 20, "total_tokens": 120,
             "input_tokens_details": {"cached_tokens": 30}}
    return {"type": "response.completed", "response": {"id": "resp_1", "status": status, "usage": usage, **response}}


@pytest.mark.anyio
@pytest.mark.parametrize("cut", ["seed1", "seed2", "seed3", "one_byte"])
@pytest.mark.parametrize("name", NAMES)
async def test_fixture_replay(name: str, cut: str, replay_server: ReplayServer) -> None:
    body = sse_body(API, name)
    if cut == "one_byte" and len(body) < 64_000:
        replay_server.enqueue(ReplayResponse(body=body, one_byte=True))
    else:
        seed = int(cut[-1]) * 97 if cut != "one_byte" else 5
        replay_server.enqueue(ReplayResponse(body=body, seed=seed, max_chunk=48 if len(body) < 64_000 else 2048))
    events, msg = await _run(_model(replay_server.base_url))
    assert_matches_expected(msg, load_expected(API, name), API)
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_stored_forms(replay_server: ReplayServer) -> None:
    """Tool ids keep pi's ``call_id|item_id``; reasoning keeps the whole item JSON; text the v1 signature."""
    replay_server.enqueue(ReplayResponse(body=sse_body(API, "lmstudio-reasoning-text-message-function-call")))
    events, msg = await _run(_model(replay_server.base_url))
    thinking, text, call = msg.content
    assert call.id == "call_2025306790300011|fc_z9synwu0kvc33k6e9u3dq4"
    item = json.loads(thinking.thinking_signature or "")
    assert item["type"] == "reasoning" and item["id"] == "rs_3yo6zy4vu4hq6iegqwhn1"
    assert json.loads(text.text_signature or "") == {"v": 1, "id": "msg_y4g4x99xneifrr153t0y4g"}
    # function_call_arguments.done without deltas streams the whole argument string once
    assert [e.delta for e in events if e.type == "toolcall_delta"] == ['{"location":"San Francisco"}']
    assert msg.response_id == "resp_cc7bfe18e2f2eca93006515c0fd19cfed16e46a93a60444a"


@pytest.mark.anyio
async def test_error_event_text(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=sse_body(API, "error-event-insufficient-quota")))
    events, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert (msg.error_message or "").startswith("Error Code insufficient_quota: You exceeded your current quota")
    assert [e.type for e in events] == ["start", "error"]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("response", "text"),
    [
        ({"error": {"code": "server_error", "message": "boom"}}, "server_error: boom"),
        ({"error": None, "incomplete_details": {"reason": "max_output_tokens"}}, "incomplete: max_output_tokens"),
        ({"error": None}, "Unknown error (no error details in response)"),
    ],
)
async def test_response_failed_texts(response: dict[str, Any], text: str, replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse({"type": "response.failed", "response": {"status": "failed", **response}})))
    _, msg = await _run(_model(replay_server.base_url))
    assert (msg.stop_reason, msg.error_message) == ("error", text)


@pytest.mark.anyio
async def test_incomplete_is_length_and_usage(replay_server: ReplayServer) -> None:
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "id": "msg_1"}},
        {"type": "response.content_part.added", "output_index": 0, "part": {"type": "output_text", "text": ""}},
        {"type": "response.output_text.delta", "output_index": 0, "delta": "cut"},
        {"type": "response.incomplete", "response": {"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
                                                     "usage": {"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}},
    )
    replay_server.enqueue(ReplayResponse(body=body))
    events, msg = await _run(_model(replay_server.base_url, cost={"input": 2, "output": 8}))
    assert msg.stop_reason == "length"
    assert msg.content[0].text == "cut"  # an item that never got output_item.done is built from its deltas
    assert (msg.usage.input, msg.usage.output, msg.usage.total_tokens) == (10, 5, 15)
    assert msg.usage.cost.total == pytest.approx((10 * 2 + 5 * 8) / 1e6)
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_content_filter_is_error(replay_server: ReplayServer) -> None:
    body = _sse({"type": "response.incomplete", "response": {"status": "incomplete",
                                                             "incomplete_details": {"reason": "content_filter"}}})
    replay_server.enqueue(ReplayResponse(body=body))
    _, msg = await _run(_model(replay_server.base_url))
    assert (msg.stop_reason, msg.error_message) == ("error", "incomplete: content_filter")


@pytest.mark.anyio
async def test_usage_cached_and_priority_tier(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse(_completed(service_tier="priority"))))
    _, msg = await _run(_model(replay_server.base_url, cost={"input": 1, "output": 1, "cacheRead": 1}))
    u = msg.usage
    assert (u.input, u.cache_read, u.cache_write, u.output, u.total_tokens) == (70, 30, 0, 20, 120)
    assert u.cost.total == pytest.approx(2 * 120 / 1e6)


@pytest.mark.anyio
async def test_stream_without_completed_is_error(replay_server: ReplayServer) -> None:
    body = _sse({"type": "response.created", "response": {"id": "r"}},
                {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "id": "m"}},
                {"type": "response.output_text.delta", "output_index": 0, "delta": "par"})
    replay_server.enqueue(ReplayResponse(body=body))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert msg.error_message == "OpenAI Responses stream ended before response.completed"
    assert msg.content[0].text == "par"


@pytest.mark.anyio
async def test_items_keyed_by_output_index_and_partial_json_removed(replay_server: ReplayServer) -> None:
    """Interleaved deltas of two function calls land on their own blocks; no scratch field survives."""
    def added(i: int, call: str) -> dict[str, Any]:
        return {"type": "response.output_item.added", "output_index": i,
                "item": {"type": "function_call", "id": f"fc_{i}", "call_id": call, "name": "f", "arguments": ""}}

    def delta(i: int, d: str) -> dict[str, Any]:
        return {"type": "response.function_call_arguments.delta", "output_index": i, "item_id": "rotating", "delta": d}

    body = _sse(added(0, "c0"), added(1, "c1"), delta(0, '{"a":'), delta(1, '{"b":'), delta(1, "2}"), delta(0, "1}"),
                {"type": "response.output_item.done", "output_index": 1,
                 "item": {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": '{"b":2}'}},
                {"type": "response.output_item.done", "output_index": 0,
                 "item": {"type": "function_call", "id": "fc_0", "call_id": "c0", "name": "f", "arguments": '{"a":1}'}},
                _completed())
    replay_server.enqueue(ReplayResponse(body=body, one_byte=True))
    events, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "toolUse"
    assert [(c.id, c.arguments) for c in msg.content] == [("c0|fc_0", {"a": 1}), ("c1|fc_1", {"b": 2})]
    for block in msg.content:
        assert not (block.__pydantic_extra__ or {})
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_reasoning_summary_parts_joined(replay_server: ReplayServer) -> None:
    item = {"type": "reasoning", "id": "rs_1", "summary": []}
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.reasoning_summary_part.added", "output_index": 0, "part": {"type": "summary_text", "text": ""}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "one"},
        {"type": "response.reasoning_summary_part.done", "output_index": 0},
        {"type": "response.reasoning_summary_part.added", "output_index": 0, "part": {"type": "summary_text", "text": ""}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "two"},
        {"type": "response.output_item.done", "output_index": 0,
         "item": {**item, "summary": [{"type": "summary_text", "text": "one"}, {"type": "summary_text", "text": "two"}],
                  "encrypted_content": "ENC"}},
        _completed(),
    )
    replay_server.enqueue(ReplayResponse(body=body))
    events, msg = await _run(_model(replay_server.base_url))
    assert msg.content[0].thinking == "one\n\ntwo"
    assert json.loads(msg.content[0].thinking_signature or "")["encrypted_content"] == "ENC"
    assert [e.delta for e in events if e.type == "thinking_delta"] == ["one", "\n\n", "two"]
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_completed_stops_reading_open_body(replay_server: ReplayServer) -> None:
    """The response ends at response.completed even if the server keeps the body open (Codex behaviour)."""
    body = _sse(_completed())
    replay_server.enqueue(ReplayResponse(body=body + b"event: keepalive\ndata: {}\n\n", stall_after=len(body)))
    _, msg = await asyncio.wait_for(_run(_model(replay_server.base_url)), 10)
    assert msg.stop_reason == "stop"


@pytest.mark.anyio
async def test_abort_stalled_stream(replay_server: ReplayServer) -> None:
    body = _sse({"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "id": "m"}},
                {"type": "response.output_text.delta", "output_index": 0, "delta": "partial"})
    replay_server.enqueue(ReplayResponse(body=body + b"data: {}\n\n", stall_after=len(body)))
    ctrl = AbortController()
    s = openai_responses.stream(_model(replay_server.base_url), _context(),
                                StreamOptions(api_key="k", max_retries=0, signal=ctrl.signal))
    async for e in s:
        if e.type == "text_delta":
            ctrl.abort()
    msg = await s.result()
    assert (msg.stop_reason, msg.error_message) == ("aborted", "Request was aborted")
    assert msg.content[0].text == "partial"


@pytest.mark.anyio
async def test_no_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    s = openai_responses.stream_simple(_model("http://127.0.0.1:9"), _context(), SimpleStreamOptions())
    events = [e async for e in s]
    assert [e.type for e in events] == ["error"]
    assert events[0].error.error_message == "No API key for provider: openai"
