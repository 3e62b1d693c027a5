"""Anthropic-compatible relays that answer with another model name keep signed thinking replayable (pi 0.86.0).

pi 0.86.0 fixed relays (one-api, LiteLLM-style gateways) whose ``message_start`` names a different model than
the one requested: pi took the reported model for the assistant message, so on the next request the message no
longer matched the current model and its signed thinking was downgraded to plain text (which Claude rejects in
a tool-use turn). pi-tui never reads the response's model name into ``model``: the message keeps the requested
model and its signed thinking is sent back as a signed ``thinking`` block.
"""

from __future__ import annotations

import json

import httpx
import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import anthropic
from pi_tui.ai.types import Context, Model, ThinkingContent, UserMessage
from tests.ai.helpers import mock_reads
from tests.ai.replay_server import sse_body_from_lines

MODEL = Model(id="claude-sonnet-4-5", api="anthropic-messages", provider="relay", base_url="https://relay.example",
              reasoning=True)
LINES = [
    {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant",
                                          "model": "claude-3-7-sonnet-20250219-relay-7", "content": [],
                                          "usage": {"input_tokens": 5, "output_tokens": 1}}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Let me think."}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "SIG=="}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Done."}},
    {"type": "content_block_stop", "index": 1},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 9}},
    {"type": "message_stop"},
]


@pytest.mark.anyio
async def test_signed_thinking_from_a_relay_reporting_another_model_is_replayed_signed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    body = sse_body_from_lines("anthropic-messages", [json.dumps(x) for x in LINES])
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [body], requests=requests)
    first = anthropic.stream(MODEL, Context(messages=[UserMessage(content="hi")]), StreamOptions(api_key="k"))
    _ = [e async for e in first]
    reply = await first.result()
    assert reply.model == MODEL.id and reply.stop_reason == "stop"
    assert isinstance(reply.content[0], ThinkingContent) and reply.content[0].thinking_signature == "SIG=="
    second = anthropic.stream(
        MODEL, Context(messages=[UserMessage(content="hi"), reply, UserMessage(content="again")]),
        StreamOptions(api_key="k"),
    )
    _ = [e async for e in second]
    sent = json.loads(requests[1].content)["messages"][1]
    assert sent["role"] == "assistant"
    assert sent["content"][0] == {"type": "thinking", "thinking": "Let me think.", "signature": "SIG=="}
