"""google-generative-ai: recorded Gemini/Vertex streams and edge cases replayed through the real provider.

Fixtures go through the loopback ReplayServer cut at random byte boundaries (several seeds) and one byte per
write; results must match ``*.expected.json`` (signatures on text, thinking and tool calls) and the events
must obey pi-reference §1.10. Also: Vertex ``partialArgs`` assembly, generated tool-call ids, finish reasons.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.ai.options import SimpleStreamOptions, StreamOptions
from pi_tui.ai.providers import google
from pi_tui.ai.providers._google_parse import parse_json_path, set_json_path
from pi_tui.ai.types import AssistantMessage, Context, Model, UserMessage

from .replay_server import (
    ReplayResponse,
    ReplayServer,
    assert_matches_expected,
    check_event_protocol,
    fixture_names,
    load_expected,
    sse_body,
)

API = "google-generative-ai"
NAMES = fixture_names(API)


def _model(base_url: str, **kw: Any) -> Model:
    return Model(id="gemini-3-flash-preview", api=API, provider="google", base_url=base_url, **kw)


async def _run(model: Model, options: StreamOptions | None = None) -> tuple[list[Any], AssistantMessage]:
    s = google.stream(model, Context(messages=[UserMessage(content="hi")]),
                      options or StreamOptions(api_key="k", max_retries=0))
    events = [e async for e in s]
    return events, await s.result()


def _sse(*chunks: dict[str, Any]) -> bytes:
    return "".join(f"data: {json.dumps(c)}\r\n\r\n" for c in chunks).encode()


def _parts(*parts: dict[str, Any], finish: str | None = None, usage: dict[str, Any] | None = None) -> dict[str, Any]:
    cand: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish:
        cand["finishReason"] = finish
    chunk: dict[str, Any] = {"candidates": [cand], "responseId": "r1"}
    if usage:
        chunk["usageMetadata"] = usage
    return chunk


@pytest.mark.anyio
@pytest.mark.parametrize("cut", ["seed1", "seed2", "seed3", "one_byte"])
@pytest.mark.parametrize("name", NAMES)
async def test_fixture_replay(name: str, cut: str, replay_server: ReplayServer) -> None:
    body = sse_body(API, name)
    if cut == "one_byte":
        replay_server.enqueue(ReplayResponse(body=body, one_byte=True))
    else:
        replay_server.enqueue(ReplayResponse(body=body, seed=int(cut[-1]) * 89, max_chunk=40))
    events, msg = await _run(_model(replay_server.base_url))
    assert_matches_expected(msg, load_expected(API, name), API)
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_vertex_streamed_arguments(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=sse_body(API, "vertex-thought-no-args-and-streamed-calls")))
    events, msg = await _run(_model(replay_server.base_url))
    calls = [b for b in msg.content if b.type == "toolCall"]
    assert [(c.name, c.arguments) for c in calls] == [
        ("read_theme", {}), ("read_screen", {"id": "A"}), ("read_screen", {"id": "B"}), ("read_screen", {"id": "C"})]
    ids = [c.id for c in calls]
    assert len(set(ids)) == 4 and all(re.fullmatch(r"read_(theme|screen)_\d+_\d+", i) for i in ids)
    # Google does not stream JSON text: per call the deltas join to the final JSON
    for idx, call in enumerate(msg.content):
        if call.type == "toolCall":
            joined = "".join(e.delta for e in events if e.type == "toolcall_delta" and e.content_index == idx)
            assert json.loads(joined) == call.arguments
    assert msg.stop_reason == "toolUse"


def test_json_path_assignment() -> None:
    assert parse_json_path("$.a.b[0]['c d'][\"e\"]") == ["a", "b", 0, "c d", "e"]
    with pytest.raises(ValueError):
        parse_json_path("a.b")
    args: dict[str, Any] = {}
    set_json_path(args, ["a", "b", 1, "c"], "x", append_string=True)
    set_json_path(args, ["a", "b", 1, "c"], "y", append_string=True)
    set_json_path(args, ["n"], 3, append_string=False)
    set_json_path(args, ["a", "flag"], True, append_string=False)
    assert args == {"a": {"b": [None, {"c": "xy"}], "flag": True}, "n": 3}


@pytest.mark.anyio
async def test_partial_args_number_bool_null_and_open_call_closed_at_end(replay_server: ReplayServer) -> None:
    body = _sse(
        _parts({"functionCall": {"name": "f", "willContinue": True}}),
        _parts({"functionCall": {"partialArgs": [{"jsonPath": "$.n", "numberValue": 2.5},
                                                 {"jsonPath": "$.o.ok", "boolValue": True, "willContinue": True}]}}),
        _parts({"functionCall": {"partialArgs": [{"jsonPath": "$.z", "nullValue": None},
                                                 {"jsonPath": "$.s", "stringValue": "ab", "willContinue": True}]}}),
        _parts({"functionCall": {"willContinue": True}}),  # continuation marker only
        _parts({"functionCall": {"partialArgs": [{"jsonPath": "$.s", "stringValue": "c", "willContinue": True}],
                                 "willContinue": True}}, finish="STOP"),
    )
    replay_server.enqueue(ReplayResponse(body=body, one_byte=True))
    events, msg = await _run(_model(replay_server.base_url))
    assert msg.content[0].arguments == {"n": 2.5, "o": {"ok": True}, "z": None, "s": "abc"}
    assert msg.stop_reason == "toolUse"
    assert check_event_protocol(events) == []


@pytest.mark.anyio
async def test_duplicate_and_missing_ids_generated(replay_server: ReplayServer) -> None:
    body = _sse(_parts({"functionCall": {"name": "a", "args": {}, "id": "same"}},
                       {"functionCall": {"name": "b", "args": {"x": 1}, "id": "same"}},
                       {"functionCall": {"name": "c"}}, finish="STOP"))
    replay_server.enqueue(ReplayResponse(body=body))
    _, msg = await _run(_model(replay_server.base_url))
    ids = [b.id for b in msg.content]
    assert ids[0] == "same"
    assert re.fullmatch(r"b_\d+_\d+", ids[1]) and re.fullmatch(r"c_\d+_\d+", ids[2])
    assert msg.content[2].arguments == {}


@pytest.mark.anyio
async def test_thinking_text_merge_and_signatures(replay_server: ReplayServer) -> None:
    body = _sse(
        _parts({"text": "think ", "thought": True, "thoughtSignature": "AAAA"}, {"text": "more", "thought": True}),
        _parts({"text": "Hi"}, {"text": "", "thoughtSignature": "BBBB"}, {"text": " there"}),
        _parts({"text": "", "thought": True, "thoughtSignature": "CCCC"},
               finish="STOP", usage={"promptTokenCount": 10, "cachedContentTokenCount": 4, "candidatesTokenCount": 3,
                                     "thoughtsTokenCount": 2, "totalTokenCount": 15}),
    )
    replay_server.enqueue(ReplayResponse(body=body))
    events, msg = await _run(_model(replay_server.base_url))
    thinking, text = msg.content
    assert (thinking.thinking, thinking.thinking_signature) == ("think more", "AAAA")
    assert (text.text, text.text_signature) == ("Hi there", "BBBB")  # CCCC: preceding block is text, dropped
    u = msg.usage
    assert (u.input, u.cache_read, u.output, u.total_tokens) == (6, 4, 5, 15)
    assert msg.response_id == "r1"
    assert check_event_protocol(events) == []


@pytest.mark.anyio
@pytest.mark.parametrize(("finish", "stop", "error"), [
    ("MAX_TOKENS", "length", None),
    ("SAFETY", "error", "Provider finishReason: SAFETY"),
    ("MALFORMED_FUNCTION_CALL", "error", "Provider finishReason: MALFORMED_FUNCTION_CALL"),
])
async def test_finish_reasons(finish: str, stop: str, error: str | None, replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse(_parts({"text": "x"}, finish=finish))))
    _, msg = await _run(_model(replay_server.base_url))
    assert (msg.stop_reason, msg.error_message) == (stop, error)


@pytest.mark.anyio
async def test_missing_finish_reason_and_prompt_block(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse(_parts({"text": "half"}))))
    _, msg = await _run(_model(replay_server.base_url))
    assert (msg.stop_reason, msg.error_message) == ("error", "Google stream ended without a finishReason")
    assert msg.content[0].text == "half"
    replay_server.enqueue(ReplayResponse(body=_sse({"promptFeedback": {"blockReason": "SAFETY"}})))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.error_message == "Prompt blocked: SAFETY"


@pytest.mark.anyio
async def test_error_object_in_stream(replay_server: ReplayServer) -> None:
    replay_server.enqueue(ReplayResponse(body=_sse({"error": {"code": 503, "message": "The model is overloaded."}})))
    _, msg = await _run(_model(replay_server.base_url))
    assert msg.stop_reason == "error"
    assert (msg.error_message or "").startswith("503 ") and "overloaded" in (msg.error_message or "")


@pytest.mark.anyio
async def test_abort_stalled_stream(replay_server: ReplayServer) -> None:
    body = _sse(_parts({"text": "partial"}))
    replay_server.enqueue(ReplayResponse(body=body + b"data: {}\r\n\r\n", stall_after=len(body)))
    ctrl = AbortController()
    s = google.stream(_model(replay_server.base_url), Context(messages=[UserMessage(content="hi")]),
                      StreamOptions(api_key="k", max_retries=0, signal=ctrl.signal))
    async for e in s:
        if e.type == "text_delta":
            ctrl.abort()
    msg = await s.result()
    assert (msg.stop_reason, msg.error_message) == ("aborted", "Request was aborted")
    assert msg.content[0].text == "partial"


@pytest.mark.anyio
async def test_no_api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    s = google.stream_simple(_model("http://127.0.0.1:9"), Context(messages=[]), SimpleStreamOptions())
    events = [e async for e in s]
    assert [e.type for e in events] == ["error"]
    assert events[0].error.error_message == "No API key for provider: google"
