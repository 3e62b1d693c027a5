"""llama.cpp streams report their token usage (pi 0.83.0, pi #7258).

pi's built-in llama.cpp provider never asked for ``stream_options.include_usage``; llama-server only sends the
usage chunk when asked (since ggml-org/llama.cpp#16052), so every reply recorded 0 tokens and context accounting
stayed empty. pi-tui has no special llama.cpp provider: a models.json provider on llama-server is an
openai-completions one, which asks for usage unless the compat settings say otherwise, and the usage chunk is
read whether it comes alone (``choices: []``, current servers) or beside the finish reason (older servers).
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.types import Context, Model, UserMessage
from tests.ai.helpers import chat_sse, mock_reads

MODEL = Model(id="qwen3-8b-q4_k_m.gguf", api="openai-completions", provider="llama.cpp",
              base_url="http://127.0.0.1:8080/v1")
TIMINGS = {"prompt_n": 20, "prompt_ms": 40.1, "predicted_n": 3, "predicted_ms": 51.0}
USAGE = {"completion_tokens": 3, "prompt_tokens": 20, "total_tokens": 23, "prompt_tokens_details": {"cached_tokens": 5}}


def _chunk(**fields: Any) -> dict[str, Any]:
    return {"id": "chatcmpl-abc", "object": "chat.completion.chunk", "created": 1, "model": MODEL.id,
            "system_fingerprint": "b10094-2b2f4e7", **fields}


CURRENT = [  # llama-server b10094 with include_usage: the usage chunk comes last, with no choices
    _chunk(choices=[{"index": 0, "delta": {"role": "assistant", "content": None}, "finish_reason": None}]),
    _chunk(choices=[{"index": 0, "delta": {"content": "Hi there"}, "finish_reason": None}]),
    _chunk(choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}], timings=TIMINGS),
    _chunk(choices=[], usage=USAGE, timings=TIMINGS),
]
OLDER = [  # before llama.cpp#16052: usage beside the finish reason
    _chunk(choices=[{"index": 0, "delta": {"content": "Hi there"}, "finish_reason": None}]),
    _chunk(choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}], usage=USAGE, timings=TIMINGS),
]


@pytest.mark.anyio
@pytest.mark.parametrize("chunks", [CURRENT, OLDER], ids=["usage-chunk-alone", "usage-with-finish"])
async def test_llama_server_usage_is_requested_and_recorded(
    monkeypatch: pytest.MonkeyPatch, chunks: list[dict[str, Any]]
) -> None:
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [chat_sse(*chunks)], requests=requests)
    s = openai_completions.stream(MODEL, Context(messages=[UserMessage(content="hi")]), StreamOptions())
    _ = [e async for e in s]
    msg = await s.result()
    body = json.loads(requests[0].content)
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert msg.stop_reason == "stop"
    assert (msg.usage.input, msg.usage.cache_read, msg.usage.output, msg.usage.total_tokens) == (15, 5, 3, 23)
