"""Reasoning streamed inside the content as ``<think>…</think>`` (issue 10, class 4, found afresh).

Real reports: LM Studio's server puts the thinking of R1 distills, Qwen3 thinking and GLM models in the
``content`` stream wrapped in ``<think>`` tags (lmstudio-bug-tracker#1569), as llama.cpp does without a reasoning
format (llama.cpp#11325); clients then show the raw tags and the whole thought as the answer. pi-tui showed the
thought as answer text and sent it back as the assistant's words. Only a tag at the very start opens thinking;
tags may arrive split across deltas.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.providers._think_tags import ThinkTagSplitter
from pi_tui.ai.types import AssistantMessage, Context, Model, UserMessage
from tests.ai.helpers import chat_sse, mock_reads
from tests.ai.replay_server import check_event_protocol

MODEL = Model(id="deepseek-r1-distill-qwen-7b", api="openai-completions", provider="lmstudio",
              base_url="http://127.0.0.1:1234/v1")


async def _run(monkeypatch: pytest.MonkeyPatch, pieces: list[str]) -> AssistantMessage:
    chunks: list[dict[str, Any]] = [{"choices": [{"index": 0, "delta": {"content": p}}]} for p in pieces]
    chunks.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    mock_reads(monkeypatch, [chat_sse(*chunks)])
    s = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="q")]), StreamOptions())
    events = [e async for e in s]
    assert not check_event_protocol(events), check_event_protocol(events)
    return await s.result()


def _blocks(msg: AssistantMessage) -> list[tuple[str, str]]:
    return [(b.type, b.thinking if b.type == "thinking" else b.text) for b in msg.content]  # type: ignore[union-attr]


@pytest.mark.anyio
async def test_think_tags_at_the_start_become_a_thinking_block(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(monkeypatch, ["<thi", "nk>\nThe user", " greets me.\n</th", "ink>\n\nHello!", " How can I help?"])
    assert _blocks(msg) == [("thinking", "\nThe user greets me.\n"), ("text", "Hello! How can I help?")]


@pytest.mark.anyio
async def test_unclosed_thought_stays_thinking(monkeypatch: pytest.MonkeyPatch) -> None:
    msg = await _run(monkeypatch, ["<think>", "still thinking when the stream e", "nded </thi"])
    assert _blocks(msg) == [("thinking", "still thinking when the stream ended </thi")]


@pytest.mark.anyio
@pytest.mark.parametrize("pieces", [
    ["Use the ", "<think> tag like this."],
    ["<thinking>not our tag</thinking> answer"],
    ["  ", "<", "b>bold</b>"],
    ["<"],
])
async def test_content_not_starting_with_the_tag_is_untouched(monkeypatch: pytest.MonkeyPatch,
                                                              pieces: list[str]) -> None:
    msg = await _run(monkeypatch, pieces)
    assert _blocks(msg) == [("text", "".join(pieces))]


@settings(max_examples=150, derandomize=True, deadline=None)
@given(thought=st.text(alphabet="ab <>/\n", max_size=30).filter(lambda t: "</think>" not in t),
       answer=st.text(alphabet="ab <>/\nk", min_size=1, max_size=30),
       cuts=st.lists(st.integers(min_value=0, max_value=80), max_size=8))
def test_any_split_of_the_stream_gives_the_same_blocks(thought: str, answer: str, cuts: list[int]) -> None:
    answer = answer.lstrip("\r\n") or "x"
    content = f"<think>{thought}</think>\n\n{answer}"
    bounds = sorted({c for c in cuts if c < len(content)} | {0, len(content)})
    splitter = ThinkTagSplitter()
    out: list[tuple[str, str]] = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        out += splitter.feed(content[a:b])
    out += splitter.flush()
    thinking = "".join(t for k, t in out if k == "thinking")
    text = "".join(t for k, t in out if k == "text")
    assert (thinking, text) == (thought, answer)


@pytest.mark.anyio
async def test_thought_sent_both_as_field_and_tags_is_kept_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """llama.cpp ``--reasoning-format deepseek-legacy`` keeps the ``<think>`` tags in the content while also
    filling ``reasoning_content`` (llama.cpp#16394): the thought must not appear twice."""
    chunks: list[dict[str, Any]] = [
        {"choices": [{"index": 0, "delta": {"reasoning_content": "Hmm, ", "content": "<think>Hmm, "}}]},
        {"choices": [{"index": 0, "delta": {"reasoning_content": "a greeting.", "content": "a greeting."}}]},
        {"choices": [{"index": 0, "delta": {"content": "</think>\n\nHi!"}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
    ]
    mock_reads(monkeypatch, [chat_sse(*chunks)])
    s = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="q")]), StreamOptions())
    events = [e async for e in s]
    assert not check_event_protocol(events), check_event_protocol(events)
    msg = await s.result()
    assert _blocks(msg) == [("thinking", "Hmm, a greeting."), ("text", "Hi!")]
    assert msg.content[0].thinking_signature == "reasoning_content"  # type: ignore[union-attr]
