"""A Chat Completions stream whose connection closes with neither a ``finish_reason`` nor ``[DONE]`` (a dropped
proxy, a crashed local server) was stored as a complete answer (``stopReason: "stop"``; found by a new-user run).
It is an error that keeps the partial text and is retried; a stream with either marker still ends normally."""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.types import AssistantMessage, Context, Model, UserMessage
from pi_tui.coding.retry import is_retryable_error
from tests.ai.helpers import chat_sse, mock_reads

MODEL = Model(id="local-model", api="openai-completions", provider="local", base_url="http://127.0.0.1:8080/v1")
PART = {"choices": [{"index": 0, "delta": {"role": "assistant", "content": "Partial answer that gets cut"}}]}
END = {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}


async def _run(monkeypatch: pytest.MonkeyPatch, chunks: list[dict[str, Any]], done: bool) -> AssistantMessage:
    mock_reads(monkeypatch, [chat_sse(*chunks, done=done)])
    stream = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="q")]), StreamOptions())
    _ = [e async for e in stream]
    return await stream.result()


@pytest.mark.anyio
async def test_cut_off_stream_is_a_retryable_error_with_the_partial_text(monkeypatch: pytest.MonkeyPatch) -> None:
    message = await _run(monkeypatch, [PART], done=False)
    assert message.stop_reason == "error"
    assert "cut off" in (message.error_message or "")
    assert message.content and message.content[0].text == "Partial answer that gets cut"  # type: ignore[union-attr]
    assert is_retryable_error(message)


@pytest.mark.anyio
@pytest.mark.parametrize(("chunks", "done"), [([PART, END], False), ([PART], True), ([PART, END], True)])
async def test_either_end_marker_is_a_normal_end(monkeypatch: pytest.MonkeyPatch, chunks: list[dict[str, Any]], done: bool) -> None:
    message = await _run(monkeypatch, chunks, done)
    assert message.stop_reason == "stop" and message.error_message is None
