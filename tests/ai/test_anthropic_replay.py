"""anthropic-messages: recorded streams and bug-report cases replayed through the real provider.

Fixtures are served by the loopback ReplayServer cut at random byte boundaries (several seeds) and one byte
per write; the final message must match ``*.expected.json`` and the events must obey pi-reference §1.10.
Cases 10 and 11 of shared/cases/README.md, the §1.18 error texts, and abort against a stalled stream.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.ai.options import SimpleStreamOptions, StreamOptions
from pi_tui.ai.providers import anthropic
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

API = "anthropic-messages"
NAMES = fixture_names(API)


def _model(base_url: str, **kw: Any) -> Model:
    return Model(id="claude-test", api=API, provider="anthropic", base_url=base_url, **kw)


def _context() -> Context:
    tool = Tool(name="weather", description="d", parameters={"type": "object", "properties": {}})
    return Context(system_prompt="sys", messages=[UserMessage(content="hi")], tools=[tool])


async def _run(model: Model, options: StreamOptions | None = None) -> tuple[list[Any], AssistantMessage]:
    s = anthropic.stream(model, _context(), options or StreamOptions(api_key="k", max_retries=0))
    events = [e async for e in s]
    return events, await s.result()


def _sse(*events: dict[str, Any] | tuple[str, str]) -> bytes:
    """SSE body: dicts get ``event: <type>``; ``(name, raw data)`` tuples are written as given."""
    out = []
    for ev in events:
        if isinstance(ev, tuple):
            out.append(f"event: {ev[0]}\ndata: {ev[1]}\n\n")
        else:
            out.append(f"event: {ev['type']}\ndata: {json.dumps(ev)}\n\n")
    return "".join(out).encode()


def _message_start(msg_id: str = "msg_1", **usage: int) -> dict[str, Any]:
    return {"type": "message_start", "message": {"id": msg_id, "type": "message", "role": "assistant", "model": "m",
            "content": [], "stop_reason": None, "usage": {"input_tokens": 12, "output_tokens": 1, **usage}}}


def _stop(reason: str = "end_turn", **usage: Any) -> list[dict[str, Any]]:
    return [{"type": "message_delta", "delta": {"stop_reason": reason}, "usage": {"output_tokens": 5, **usage}},
            {"type": "message_stop"}]


@pytest.mark.anyio
@pytest.mark.parametrize("cut", ["seed1", "seed2", "seed3", "one_byte"])
@pytest.mark.parametrize("name", NAMES)
async def test_fixture_replay(name: str, cut: str, replay_server: ReplayServer) -> None:
    body = sse_body(API, name)
    if cut == "one_byte":
        replay_server.enqueue(ReplayResponse(body=body, one_byte=True))
    else:
        replay_server.enqueue(ReplayResponse(body=body, seed=int(cut[-1]) * 101, max_chunk=48))
    events, msg = await _run(_model(replay_server.base_url))
    assert_matches_expected(msg, load_expected(API, name), API)
    assert check_event_protocol(events) == []
    assert events[0].type == "start"


# ------------------------------------------------------------------ case 10: error event after HTTP 200

CASE10_MAIN = _sse(
    _message_start(),
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "ping"},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me"}},
    ("error", '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
)


@pytest.mark.anyio
async def test_case10_error_event_mid_stream(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=CASE10_MAIN, seed=4, max_chunk=7))
    events, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert msg.error_message is not None and "overloaded_error" in msg.error_message
    texts = [b.text for b in msg.content if b.type == "text"]
    assert texts == ["Let me"]  # the partial text is kept once, never duplicated
    deltas = [e.delta for e in events if e.type == "text_delta"]
    assert deltas == ["Let me"]
    assert [e.type for e in events if e.type in ("done", "error")] == ["error"]
    assert check_event_protocol(events) == []
    assert msg.usage.input == 12


@pytest.mark.anyio
async def test_case10_variant_b_error_first(replay_server: ReplayServer) -> None:
    body = _sse(("error", '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'))
    replay_server.enqueue(ReplayResponse(body=body))
    events, msg = await _run(_model(replay_server.base_url))
    assert [e.type for e in events] == ["start", "error"]
    assert msg.stop_reason == "error" and msg.content == []
    assert "overloaded_error" in (msg.error_message or "")


# ------------------------------------------------------------------ case 11: empty partial_json, split input


def _case11_body() -> bytes:
    def delta(index: int, fragment: str) -> dict[str, Any]:
        return {"type": "content_block_delta", "index": index,
                "delta": {"type": "input_json_delta", "partial_json": fragment}}

    return _sse(
        _message_start(),
        {"type": "content_block_start", "index": 1,
         "content_block": {"type": "tool_use", "id": "toolu_a", "name": "ls", "input": {}}},
        delta(1, ""),
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_start", "index": 2,
         "content_block": {"type": "tool_use", "id": "toolu_b", "name": "read", "input": {}}},
        delta(2, ""),
        delta(2, '{"pa'),
        delta(2, 'th": "src/m'),
        delta(2, 'ain.py"}'),
        {"type": "content_block_stop", "index": 2},
        *_stop("tool_use"),
    )


@pytest.mark.anyio
async def test_case11_empty_and_split_partial_json(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_case11_body(), one_byte=True))
    events, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "toolUse"
    calls = [(b.id, b.name, b.arguments) for b in msg.content if b.type == "toolCall"]
    assert calls == [("toolu_a", "ls", {}), ("toolu_b", "read", {"path": "src/main.py"})]
    # live preview: every delta leaves a dict in partial.content (never raises, never missing)
    previews = [e.partial.content[e.content_index].arguments for e in events if e.type == "toolcall_delta"]
    assert all(isinstance(p, dict) for p in previews)
    ends = [e.tool_call.arguments for e in events if e.type == "toolcall_end"]
    assert ends == [{}, {"path": "src/main.py"}]
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_case11_partial_preview_grows(replay_server: ReplayServer) -> None:
    """The best-effort parse while streaming shows the unfinished string (pi-reference §1.10 item 5)."""
    body = _sse(
        _message_start(),
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "tool_use", "id": "t", "name": "read", "input": {}}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": '{"path": "ab'}},
    )
    seen: list[dict[str, Any]] = []
    replay_server.enqueue(ReplayResponse(body=body))
    s = anthropic.stream(_model(replay_server.base_url), _context(), StreamOptions(api_key="k", max_retries=0))
    async for e in s:
        if e.type == "toolcall_delta":
            seen.append(dict(e.partial.content[0].arguments))
    msg = await s.result()
    assert seen == [{"path": "ab"}]
    assert msg.error_message == "Anthropic stream ended before message_stop"


# ------------------------------------------------------------------ §1.18 rules


@pytest.mark.anyio
async def test_unknown_stop_reason_is_error(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse(_message_start(), *_stop("brand_new_reason"))))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert msg.error_message == (
        "Anthropic ended the reply with stop reason brand_new_reason, which pi-tui does not know"
    )  # DIFFERENCES.md P4 (pi: "Unhandled stop reason: brand_new_reason")


@pytest.mark.anyio
async def test_refusal_is_error_with_reason(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse(_message_start(), *_stop("refusal"))))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert msg.error_message == "The model refused to answer this request (stop reason: refusal)."


@pytest.mark.anyio
async def test_ended_before_message_stop(replay_server: ReplayServer) -> None:
    body = _sse(_message_start(), {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "half"}})
    replay_server.enqueue(ReplayResponse(body=body))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert msg.error_message == "Anthropic stream ended before message_stop"
    assert msg.content[0].text == "half"


@pytest.mark.anyio
async def test_second_message_start_with_other_id_is_error(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse(_message_start("msg_a"), _message_start("msg_b"), *_stop())))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert "msg_b" in (msg.error_message or "") and "msg_a" in (msg.error_message or "")


@pytest.mark.anyio
async def test_malformed_sse_json_repaired_and_unknown_events_ignored(replay_server: ReplayServer) -> None:
    """anthropic-sse-parsing.test.ts: raw control chars in JSON strings are repaired; unknown events after
    message_stop ([DONE], proxy.stats) are ignored."""
    # a raw TAB inside JSON strings (outer event and inner tool JSON): strict parsing fails, repair fixes it
    bad_delta = '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\\"a\\": \\"x\ty\\"}"}}'
    body = _sse(
        _message_start(),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t1", "name": "f"}},
        ("content_block_delta", bad_delta),
        {"type": "content_block_stop", "index": 0},
        *_stop("tool_use"),
        ("proxy.stats", '{"n": 1}'),
        ("message", "[DONE]"),
    )
    replay_server.enqueue(ReplayResponse(body=body))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "toolUse", msg.error_message
    assert msg.content[0].arguments == {"a": "x\ty"}


@pytest.mark.anyio
async def test_unparseable_event_error_text(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse(_message_start(), ("message_delta", "{not json"))))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert (msg.error_message or "").startswith("Could not parse Anthropic SSE event message_delta: ")
    assert "data={not json" in (msg.error_message or "")


@pytest.mark.anyio
async def test_redacted_thinking_and_signature(replay_server: ReplayServer) -> None:
    body = _sse(
        _message_start(),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "redacted_thinking", "data": "OPAQUE"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "thinking", "thinking": ""}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "thinking_delta", "thinking": "hmm"}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "signature_delta", "signature": "SIG"}},
        {"type": "content_block_stop", "index": 1},
        *_stop(),
    )
    replay_server.enqueue(ReplayResponse(body=body))
    events, msg = await _run(_model(replay_server.base_url))
    red, think = msg.content
    assert (red.thinking, red.thinking_signature, red.redacted) == ("[Reasoning redacted]", "OPAQUE", True)
    assert (think.thinking, think.thinking_signature) == ("hmm", "SIG")
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_message_delta_null_usage_keeps_message_start_values(replay_server: ReplayServer) -> None:
    body = _sse(_message_start(cache_read_input_tokens=7),
                {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                 "usage": {"input_tokens": None, "output_tokens": 9, "cache_read_input_tokens": None}},
                {"type": "message_stop"})
    replay_server.enqueue(ReplayResponse(body=body))
    _, msg = await _run(_model(replay_server.base_url, cost={"input": 3, "output": 15, "cacheRead": 0.3}))
    u = msg.usage
    assert (u.input, u.output, u.cache_read, u.cache_write, u.total_tokens) == (12, 9, 7, 0, 28)
    assert u.cost.total == pytest.approx((12 * 3 + 9 * 15 + 7 * 0.3) / 1e6)


# ------------------------------------------------------------------ HTTP errors, keys, abort


@pytest.mark.anyio
async def test_http_error_before_headers_gives_only_error(replay_server: ReplayServer) -> None:
    err = b'{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}'
    replay_server.enqueue(ReplayResponse(body=err, status=400, headers={"content-type": "application/json"}))
    events, msg = await _run(_model(replay_server.base_url))
    assert [e.type for e in events] == ["error"]
    assert msg.error_message == "400 " + err.decode()


@pytest.mark.anyio
async def test_no_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_OAUTH_TOKEN", raising=False)
    s = anthropic.stream_simple(_model("http://127.0.0.1:9"), _context(), SimpleStreamOptions())
    events = [e async for e in s]
    assert [e.type for e in events] == ["error"]
    assert events[0].error.error_message == "No API key for provider: anthropic"


@pytest.mark.anyio
async def test_abort_stalled_stream_keeps_partial(replay_server: ReplayServer) -> None:
    body = _sse(_message_start(), {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "partial"}})
    replay_server.enqueue(ReplayResponse(body=body + b"event: ping\ndata: {}\n\n", stall_after=len(body)))
    ctrl = AbortController()
    s = anthropic.stream(_model(replay_server.base_url), _context(),
                         StreamOptions(api_key="k", max_retries=0, signal=ctrl.signal))
    events = []
    async for e in s:
        events.append(e)
        if e.type == "text_delta":
            ctrl.abort()
    msg = await s.result()
    assert msg.stop_reason == "aborted"
    assert events[-1].type == "error" and events[-1].reason == "aborted"
    assert msg.content[0].text == "partial"
    # pi 0.73.1 (Node 20): fetch's AbortError rejects the pending body read; no text_end for the open block.
    assert msg.error_message == "This operation was aborted"
    assert "text_end" not in [e.type for e in events]
    for _ in range(100):  # the connection is closed (server sees the disconnect)
        if replay_server.disconnects:
            break
        await asyncio.sleep(0.01)
    assert replay_server.disconnects


@pytest.mark.anyio
async def test_blocks_without_stop_are_ended(replay_server: ReplayServer) -> None:
    """A proxy that drops content_block_stop: every started block still gets its end before done."""
    body = _sse(
        _message_start(),
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "a"}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "b"}},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "t", "name": "f"}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '{"x": 1}'}},
        *_stop("tool_use"),
    )
    replay_server.enqueue(ReplayResponse(body=body))
    events, msg = await _run(_model(replay_server.base_url))
    assert [b.type for b in msg.content] == ["text", "text", "toolCall"]
    assert msg.content[2].arguments == {"x": 1}
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_empty_body_is_error(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=b""))
    events, msg = await _run(_model(replay_server.base_url))
    assert [e.type for e in events] == ["start", "error"]
    assert msg.error_message == "Anthropic stream ended before message_start"
