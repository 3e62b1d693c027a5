"""Streamed tool-call arguments are parsed once per delta, not re-parsed whole (pi 1.5.0, pi issue #9265).

pi 1.5.0: "large streamed tool calls taking excessive CPU time and memory because every delta re-parsed the
accumulated arguments". pi-tui had the same fault: the anthropic-messages, openai-responses and faux providers
called ``parse_streaming_json`` on the whole accumulated text for every delta (a 43 KB ``write`` argument in
12-character deltas: 3,628 full parses, 3.75 CPU-s under load), and openai-completions re-parsed every delta
below 16 KB and then only every 5 %, so its live arguments and ``partialArgs`` lagged behind the stream.

Now every provider feeds each delta to :class:`pi_tui.ai.json_stream.StreamingJsonParser`. These tests check:
the live arguments at every ``toolcall_delta`` equal ``parse_streaming_json`` of the text so far (and pi's
``partialJson``/``partialArgs`` scratch is that text), the full-text parser runs over at most a few times the
argument length in all (it ran over ~n²/24 characters before), and the incremental parser agrees with
``parse_streaming_json`` on every prefix of valid, repaired and broken JSON (hypothesis). Speed figure:
``python bench/stream_parse.py`` ("large write tool call").
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.ai import json_parse, json_stream
from pi_tui.ai.events import AssistantMessageEventStream, ToolCallDeltaEvent
from pi_tui.ai.json_parse import parse_streaming_json
from pi_tui.ai.json_stream import StreamingJsonParser
from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import (
    _anthropic_parse,
    _openai_completions_parse,
    _responses_parse,
    anthropic,
    faux,
    openai_completions,
    openai_responses,
)
from pi_tui.ai.stream import stream
from pi_tui.ai.types import AssistantMessage, Context, Model, ToolCall, UserMessage
from tests.ai.helpers import chat_sse, mock_reads
from tests.ai.replay_server import check_event_protocol, sse_body_from_lines

CONTENT = "".join(
    f'line {i}: print("tab\\there", {i})\n\tif x < {i}: return "naïve ✓ 😀"\n' for i in range(300)
)
ARGS = {"path": "src/app.py", "content": CONTENT}
FULL = json.dumps(ARGS)
DELTA = 12


def _pieces(text: str, size: int = DELTA) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _anthropic_body(pieces: list[str]) -> bytes:
    lines = [
        {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "m",
                                              "content": [], "stop_reason": None,
                                              "usage": {"input_tokens": 1, "output_tokens": 1}}},
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "write", "input": {}}},
        *({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": p}}
          for p in pieces),
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 5}},
        {"type": "message_stop"},
    ]
    return sse_body_from_lines("anthropic-messages", [json.dumps(x) for x in lines])


def _responses_body(pieces: list[str]) -> bytes:
    full = "".join(pieces)
    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "write", "arguments": ""}
    lines = [
        {"type": "response.created", "response": {"id": "resp_1", "status": "in_progress", "output": []}},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        *({"type": "response.function_call_arguments.delta", "output_index": 0, "item_id": "fc_1", "delta": p}
          for p in pieces),
        {"type": "response.function_call_arguments.done", "output_index": 0, "item_id": "fc_1",
         "arguments": full},
        {"type": "response.output_item.done", "output_index": 0,
         "item": {**item, "arguments": full, "status": "completed"}},
        {"type": "response.completed", "response": {"id": "resp_1", "status": "completed",
                                                    "usage": {"input_tokens": 1, "output_tokens": 1,
                                                              "total_tokens": 2}}},
    ]
    return sse_body_from_lines("openai-responses", [json.dumps(x) for x in lines])


def _completions_body(pieces: list[str]) -> bytes:
    first = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "write", "arguments": ""}}
    chunks: list[dict[str, Any]] = [{"choices": [{"index": 0, "delta": {"tool_calls": [first]}}]}]
    chunks += [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": p}}]}}]}
               for p in pieces]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})
    return chat_sse(*chunks)


APIS = {
    "anthropic-messages": (anthropic, _anthropic_body),
    "openai-responses": (openai_responses, _responses_body),
    "openai-completions": (openai_completions, _completions_body),
}
SCRATCH = {"anthropic-messages": "partialJson", "openai-responses": "partialJson",
           "openai-completions": "partialArgs"}


class _Recorder:
    """Records, at the moment each ``toolcall_delta`` is pushed, the call's arguments and scratch text."""

    def __init__(self) -> None:
        self.deltas: list[tuple[str, dict[str, Any], Any]] = []

    def install(self, monkeypatch: pytest.MonkeyPatch, scratch: str) -> None:
        original = AssistantMessageEventStream.push
        recorder = self

        def push(stream: AssistantMessageEventStream, event: Any) -> None:
            if isinstance(event, ToolCallDeltaEvent):
                block = event.partial.content[event.content_index]
                assert isinstance(block, ToolCall)
                extra = block.__pydantic_extra__ or {}
                recorder.deltas.append((event.delta, copy.deepcopy(block.arguments), extra.get(scratch)))
            original(stream, event)

        monkeypatch.setattr(AssistantMessageEventStream, "push", push)


@pytest.fixture
def full_parse_chars(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the characters handed to the whole-text parser ``parse_streaming_json`` from anywhere."""
    seen: list[int] = []

    def counting(text: str | None) -> dict[str, Any]:
        seen.append(len(text or ""))
        return json_parse.parse_streaming_json(text)

    for module in (_anthropic_parse, _responses_parse, _openai_completions_parse, json_stream):
        if hasattr(module, "parse_streaming_json"):
            monkeypatch.setattr(module, "parse_streaming_json", counting)
    if hasattr(faux, "parse_streaming_json"):
        monkeypatch.setattr(faux, "parse_streaming_json", counting)
    yield seen


async def _run(monkeypatch: pytest.MonkeyPatch, api: str, pieces: list[str]) -> AssistantMessage:
    module, body = APIS[api]
    mock_reads(monkeypatch, [body(pieces)])
    model = Model(id="m", api=api, provider="test", base_url="http://127.0.0.1:9/v1")
    s = module.stream(model, Context(messages=[UserMessage(content="go")]), StreamOptions(api_key="k"))
    events = [e async for e in s]
    assert not check_event_protocol(events), check_event_protocol(events)
    return await s.result()


@pytest.mark.anyio
@pytest.mark.parametrize("api", list(APIS))
async def test_a_large_streamed_argument_is_not_reparsed_on_every_delta(
    monkeypatch: pytest.MonkeyPatch, api: str, full_parse_chars: list[int]
) -> None:
    pieces = _pieces(FULL)
    assert len(pieces) > 1000
    msg = await _run(monkeypatch, api, pieces)
    calls = [b for b in msg.content if isinstance(b, ToolCall)]
    assert [(c.name, c.arguments) for c in calls] == [("write", ARGS)]
    # Before: every delta parsed the whole text so far (about len² / 24 characters: ~50 million here).
    assert sum(full_parse_chars) <= 3 * len(FULL), (len(full_parse_chars), sum(full_parse_chars))


@pytest.mark.anyio
@pytest.mark.parametrize("api", list(APIS))
async def test_each_delta_carries_the_arguments_parsed_so_far(monkeypatch: pytest.MonkeyPatch, api: str) -> None:
    recorder = _Recorder()
    recorder.install(monkeypatch, SCRATCH[api])
    pieces = _pieces(FULL)
    await _run(monkeypatch, api, pieces)
    streamed = [(d, a, s) for d, a, s in recorder.deltas if d]
    assert [d for d, _a, _s in streamed] == pieces
    so_far = ""
    for i, (delta, arguments, scratch) in enumerate(streamed):
        so_far += delta
        assert arguments == parse_streaming_json(so_far), f"delta {i} of {len(streamed)}"
        assert scratch == so_far, f"delta {i}: pi's {SCRATCH[api]} is the text so far"


@pytest.mark.anyio
async def test_faux_provider_streams_arguments_incrementally(full_parse_chars: list[int]) -> None:
    provider = faux.register_faux_provider(token_size={"min": 3, "max": 3}, partial_arguments=True)
    try:
        provider.set_responses([faux.faux_assistant_message([faux.faux_tool_call("write", ARGS, id="c1")],
                                                            stop_reason="toolUse")])
        s = stream(provider.get_model(), Context(messages=[UserMessage(content="go")]), StreamOptions())
        deltas = [e async for e in s if isinstance(e, ToolCallDeltaEvent)]
        assert len(deltas) > 100
        assert (await s.result()).content[0].arguments == ARGS  # type: ignore[union-attr]
        # Before: each of the deltas parsed the whole text so far.
        assert sum(full_parse_chars) <= 3 * len(FULL)
    finally:
        provider.unregister()


# ---------------------------------------------------------------------------------------------------------------
# The incremental parser against the whole-text parser, on every prefix


def _text_so_far_results(text: str, cuts: list[int]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    parser = StreamingJsonParser()
    pos = 0
    for cut in [*sorted(set(cuts)), len(text)]:
        if cut <= pos:
            continue
        got = parser.feed(text[pos:cut])
        pos = cut
        yield text[:pos], got, parse_streaming_json(text[:pos])
    assert parser.text == text


def _same(got: Any, expected: Any) -> bool:
    """Equal, with key order and int/float kept apart (JSON texts compared)."""
    return json.dumps(got, allow_nan=True) == json.dumps(expected, allow_nan=True)


_SPECIAL = st.sampled_from(['"', "\\", "\n", "\t", "\x01", "é", "😀", "\u2028", "/", "{", "}", "[", "]", ",", ":"])
_STRINGS = st.text(st.one_of(st.sampled_from("ab xyz"), _SPECIAL), max_size=10)
_SCALARS = st.one_of(
    st.integers(-10**20, 10**20), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none(),
    _STRINGS,
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_STRINGS, inner, max_size=4)),
    max_leaves=12,
)
_DAMAGE = st.sampled_from(["\n", "\\q", "\\", "\x01", " ", '"', "}", "]", ",", "1", "\\ud83d", "\\ude00", "x",
                           "\\u00", "tru", "-", "1.", "NaN", "{", "[", ":"])


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    value=st.dictionaries(_STRINGS, _VALUES, max_size=5),
    ascii_only=st.booleans(),
    indent=st.sampled_from([None, 1]),
    cuts=st.lists(st.integers(0, 400), max_size=40),
)
def test_every_prefix_of_valid_json_parses_as_the_whole_text_parser_says(
    value: dict[str, Any], ascii_only: bool, indent: int | None, cuts: list[int]
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    for prefix, got, expected in _text_so_far_results(text, cuts):
        assert _same(got, expected), prefix
    assert _same(got, value)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    value=st.dictionaries(_STRINGS, _VALUES, max_size=4),
    damage=st.lists(st.tuples(st.integers(0, 300), _DAMAGE), min_size=1, max_size=3),
    tail=st.sampled_from(["", " ", "\n", '{"a": 1}', "x", "]"]),
    cuts=st.lists(st.integers(0, 400), max_size=40),
)
def test_every_prefix_of_damaged_json_parses_as_the_whole_text_parser_says(
    value: dict[str, Any], damage: list[tuple[int, str]], tail: str, cuts: list[int]
) -> None:
    text = json.dumps(value, ensure_ascii=False)
    for at, piece in damage:  # raw control characters, invalid escapes, cut-off tokens, stray syntax
        at = min(at, len(text))
        text = text[:at] + piece + text[at:]
    text += tail
    for prefix, got, expected in _text_so_far_results(text, cuts):
        assert _same(got, expected), prefix


@pytest.mark.parametrize(
    "text",
    [
        '{"a": "x\\',  # an escape cut off: left out
        '{"a": "x\\u00e',
        '{"a": "\\q", "b": "x\\u00',  # ... unless the text was already repaired: then literal
        '{"a": "\\ud83d\\ude00", "b": "\\ud83d',  # a surrogate pair, then half of one
        '{"a": 1, "b": 1.',  # unfinished numbers and literals are left out
        '{"a": [1, tru',
        '{"a": {"b": [1, {"c": "open',
        '{"a": 1}{"a": 2}',  # a resend after the object closed is ignored
        '[1, 2]',  # not an object
        '{"a": NaN',  # outside the incremental rules: whole-text re-parse
        '{"a": 01',
    ],
)
def test_one_character_at_a_time(text: str) -> None:
    for prefix, got, expected in _text_so_far_results(text, list(range(len(text)))):
        assert _same(got, expected), prefix


def test_a_result_is_not_changed_by_later_pieces() -> None:
    parser = StreamingJsonParser()
    first = parser.feed('{"edits": [{"old": "a", "new": "b')
    snapshot = copy.deepcopy(first)
    parser.feed('c"}, {"old": "d"')
    assert first == snapshot
