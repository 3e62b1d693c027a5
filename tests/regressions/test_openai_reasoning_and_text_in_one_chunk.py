"""pi 1.3.0: a proxy (LiteLLM) that sends the reasoning and the first text of an answer in the same chunk made the
thinking block appear after the text (and so after the answer in the transcript and in the history sent back).
The thought of a delta comes first."""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.types import Context, Model, UserMessage
from tests.ai.helpers import chat_sse, mock_reads
from tests.ai.replay_server import check_event_protocol

MODEL = Model(id="deepseek-reasoner", api="openai-completions", provider="litellm", base_url="http://127.0.0.1:4000/v1")


@pytest.mark.anyio
@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
async def test_thinking_before_text_when_both_arrive_in_one_chunk(monkeypatch: pytest.MonkeyPatch, field: str) -> None:
    chunks: list[dict[str, Any]] = [
        {"choices": [{"index": 0, "delta": {"role": "assistant", field: "Think first.", "content": "Answer"}}]},
        {"choices": [{"index": 0, "delta": {field: " More thought."}}]},
        {"choices": [{"index": 0, "delta": {"content": " goes on."}, "finish_reason": "stop"}]},
    ]
    mock_reads(monkeypatch, [chat_sse(*chunks)])
    stream = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="q")]), StreamOptions())
    events = [e async for e in stream]
    assert not check_event_protocol(events), check_event_protocol(events)
    message = await stream.result()
    assert [b.type for b in message.content] == ["thinking", "text"]
    assert message.content[0].thinking == "Think first. More thought."  # type: ignore[union-attr]
    assert message.content[1].text == "Answer goes on."  # type: ignore[union-attr]
