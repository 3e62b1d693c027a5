"""OpenAI-compatible servers that resend a tool call's arguments whole (issue 10, class 4, found afresh).

Real reports, all vLLM tool parsers: the end-of-stream flush sends the whole arguments again after they were
streamed, so clients get ``{"city": "Seattle", ...}{"city": "Seattle", ...}`` or, under another chunk
alignment, ``{{"city": ...}`` (vllm#51697, xlam); the final "remaining arguments" chunk re-emits the call's
id, type and name (vllm#44098, GLM); with MTP the last chunk carries the complete object after part of it had
been streamed, so the pieces do not join into a dict (vllm#42167, GLM-5.1). Before the fix pi-tui opened a
second call for the duplicate (the tool ran twice) or flagged the joined text as invalid JSON (the tool did
not run). A resend is recognised only where the joined text is not valid JSON (or is an exact duplicate), so
ordinary streams — nested objects arriving as one fragment included — are untouched.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.types import AssistantMessage, Context, Model, UserMessage
from tests.ai.helpers import chat_sse, mock_reads
from tests.ai.replay_server import check_event_protocol

MODEL = Model(id="m", api="openai-completions", provider="vllm", base_url="http://127.0.0.1:8000/v1")
ARGS = {"city": "Seattle", "state": "WA", "unit": "celsius"}
FULL = json.dumps(ARGS)


def _tc(args: str, *, index: int | None = 0, call_id: str | None = None, name: str | None = None,
        finish: str | None = None) -> dict[str, Any]:
    fn: dict[str, Any] = {"arguments": args}
    if name is not None:
        fn["name"] = name
    tc: dict[str, Any] = {"type": "function", "function": fn}
    if index is not None:
        tc["index"] = index
    if call_id is not None:
        tc["id"] = call_id
    return {"choices": [{"index": 0, "delta": {"tool_calls": [tc]}, "finish_reason": finish}]}


FINISH = {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}


def _pieces(text: str, size: int = 7) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


async def _run(monkeypatch: pytest.MonkeyPatch, *chunks: dict[str, Any]) -> AssistantMessage:
    mock_reads(monkeypatch, [chat_sse(*chunks)])
    s = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="go")]), StreamOptions())
    events = [e async for e in s]
    assert not check_event_protocol(events), check_event_protocol(events)
    return await s.result()


def _calls(msg: AssistantMessage) -> list[tuple[str, Any]]:
    return [(b.name, b.arguments) for b in msg.content if b.type == "toolCall"]


@pytest.mark.anyio
@pytest.mark.parametrize("flush_has_identity", [False, True], ids=["bare-flush", "flush-repeats-id-and-name"])
async def test_whole_arguments_flushed_again_after_streaming(
    monkeypatch: pytest.MonkeyPatch, flush_has_identity: bool
) -> None:
    ident: dict[str, Any] = {"call_id": "call_1", "name": "get_weather"} if flush_has_identity else {}
    first, *rest = _pieces(FULL)
    msg = await _run(
        monkeypatch,
        _tc(first, call_id="call_1", name="get_weather"),
        *[_tc(p) for p in rest],
        _tc(FULL, finish="tool_calls", **ident),
    )
    assert _calls(msg) == [("get_weather", ARGS)]
    assert msg.diagnostics is None and msg.stop_reason == "toolUse"


@pytest.mark.anyio
async def test_opening_brace_then_the_whole_object(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(monkeypatch, _tc("{", call_id="call_1", name="get_weather"), _tc(FULL), FINISH)
    assert _calls(msg) == [("get_weather", ARGS)]
    assert msg.diagnostics is None


@pytest.mark.anyio
async def test_last_chunk_carries_the_complete_object_after_a_partial_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    args = {"date": "2025-03-26", "amount": 300, "fee_type": "过路费", "income_type": "支出"}
    text = json.dumps(args, ensure_ascii=False)
    streamed = _pieces(text, 9)[:-1]  # the final piece never comes: the full object does
    msg = await _run(
        monkeypatch,
        _tc(streamed[0], call_id="c", name="record"),
        *[_tc(p) for p in streamed[1:]],
        _tc(text, finish="tool_calls", call_id=None),
    )
    assert _calls(msg) == [("record", args)]
    assert msg.diagnostics is None


@pytest.mark.anyio
async def test_nested_object_arriving_as_one_fragment_is_ordinary_streaming(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(
        monkeypatch,
        _tc('{"path":"a.py","edits":[', call_id="c", name="edit"),
        _tc('{"oldText":"x","newText":"y"}'),
        _tc(","),
        _tc('{"oldText":"x","newText":"y"}'),
        _tc("]}"),
        FINISH,
    )
    assert _calls(msg) == [("edit", {"path": "a.py", "edits": [{"oldText": "x", "newText": "y"}] * 2})]


@pytest.mark.anyio
async def test_two_identical_calls_with_their_own_ids_stay_two(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(monkeypatch, _tc(FULL, call_id="a", name="get_weather"),
                     _tc(FULL, call_id="b", name="get_weather"), FINISH)
    assert _calls(msg) == [("get_weather", ARGS), ("get_weather", ARGS)]


@pytest.mark.anyio
async def test_two_different_calls_without_ids_or_index_stay_two(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(monkeypatch, _tc('{"a":1}', index=None, name="f"), _tc('{"b":2}', index=None), FINISH)
    assert [c[1] for c in _calls(msg)] == [{"a": 1}, {"b": 2}]


@pytest.mark.anyio
async def test_really_broken_arguments_are_still_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(monkeypatch, _tc('{"a":1', call_id="c", name="f"), _tc('{"b":"x"'), FINISH)
    assert msg.diagnostics is not None
    assert msg.diagnostics[0]["details"]["reason"] == "invalid_json"
