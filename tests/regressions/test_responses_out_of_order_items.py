"""Responses output items that finish out of order keep their reasoning for replay (pi 0.80.3, pi#6009).

A server may end the message item before the reasoning item that came first (parallel output items; proxies
that reorder ``output_item.done``). Each event is matched to its item by ``output_index``, so the reasoning
item's final payload (with its ``encrypted_content``) still lands on the thinking block and goes back on the
next request, and the message text stays the message's. Already right in pi-tui: pinned.
"""

from __future__ import annotations

import json

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_responses
from pi_tui.ai.types import Context, Model, TextContent, ThinkingContent, UserMessage
from tests.ai.helpers import mock_reads
from tests.ai.replay_server import sse_body_from_lines

REASONING = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Plan it."}],
             "encrypted_content": "gAAAA-secret"}
MESSAGE = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
           "content": [{"type": "output_text", "text": "Done.", "annotations": []}]}
EVENTS = [
    {"type": "response.created", "response": {"id": "resp_1"}},
    {"type": "response.output_item.added", "output_index": 0, "item": {"type": "reasoning", "id": "rs_1", "summary": []}},
    {"type": "response.reasoning_summary_part.added", "output_index": 0, "summary_index": 0},
    {"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 0, "delta": "Plan it."},
    {"type": "response.output_item.added", "output_index": 1, "item": {"type": "message", "id": "msg_1", "content": []}},
    {"type": "response.content_part.added", "output_index": 1, "content_index": 0, "part": {"type": "output_text", "text": ""}},
    {"type": "response.output_text.delta", "output_index": 1, "content_index": 0, "delta": "Done."},
    {"type": "response.output_item.done", "output_index": 1, "item": MESSAGE},  # the later item finishes first
    {"type": "response.output_item.done", "output_index": 0, "item": REASONING},
    {"type": "response.completed", "response": {"id": "resp_1", "status": "completed",
                                                "usage": {"input_tokens": 5, "output_tokens": 7}}},
]
MODEL = Model(id="gpt-5.4", api="openai-responses", provider="openai", base_url="https://api.openai.com/v1",
              reasoning=True)


@pytest.mark.anyio
async def test_reasoning_that_finishes_last_is_kept_and_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    mock_reads(monkeypatch, [sse_body_from_lines("openai-responses", [json.dumps(e) for e in EVENTS])])
    stream = openai_responses.stream(MODEL, Context(messages=[UserMessage(content="q")]), StreamOptions(api_key="k"))
    message = await stream.result()
    assert message.stop_reason == "stop", message.error_message
    thinking, text = message.content
    assert isinstance(thinking, ThinkingContent) and isinstance(text, TextContent)
    assert thinking.thinking == "Plan it." and text.text == "Done."
    assert json.loads(thinking.thinking_signature or "")["encrypted_content"] == "gAAAA-secret"
    body = openai_responses.build_params(MODEL, Context(messages=[UserMessage(content="q"), message]), StreamOptions())
    replayed = [item for item in body["input"] if item.get("type") == "reasoning"]
    assert replayed and replayed[0]["encrypted_content"] == "gAAAA-secret"
