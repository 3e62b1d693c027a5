"""Errors of an OpenAI-compatible Responses endpoint name that provider, not OpenAI (pi 0.86.0, pi #9298).

pi-tui ships Responses models of other providers (OpenCode's GPT models, ...); a stream from them that ended
early was reported as "OpenAI Responses stream ended before response.completed", sending users to look at
OpenAI. Now the provider's id is named; OpenAI's own wording is unchanged.
"""

from __future__ import annotations

import json

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_responses
from pi_tui.ai.types import Context, Model, UserMessage
from tests.ai.helpers import mock_reads
from tests.ai.replay_server import sse_body_from_lines

CUT_SHORT = [
    {"type": "response.created", "response": {"id": "r"}},
    {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "id": "m"}},
    {"type": "response.output_text.delta", "output_index": 0, "delta": "par"},
]


@pytest.mark.anyio
@pytest.mark.parametrize(("provider", "label"), [("opencode", "opencode"), ("openai", "OpenAI")])
async def test_a_cut_short_stream_names_the_provider(monkeypatch: pytest.MonkeyPatch, provider: str,
                                                     label: str) -> None:
    mock_reads(monkeypatch, [sse_body_from_lines("openai-responses", [json.dumps(x) for x in CUT_SHORT])])
    model = Model(id="gpt-5.5", api="openai-responses", provider=provider, base_url="https://x.example/v1")
    s = openai_responses.stream(model, Context(messages=[UserMessage(content="hi")]), StreamOptions(api_key="k"))
    _ = [e async for e in s]
    msg = await s.result()
    assert msg.stop_reason == "error"
    assert msg.error_message == f"{label} Responses stream ended before response.completed"


@pytest.mark.anyio
async def test_an_unparseable_event_names_the_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    mock_reads(monkeypatch, [b"event: response.created\ndata: {not json\n\n"])
    model = Model(id="gpt-5.5", api="openai-responses", provider="opencode", base_url="https://x.example/v1")
    s = openai_responses.stream(model, Context(messages=[UserMessage(content="hi")]), StreamOptions(api_key="k"))
    _ = [e async for e in s]
    msg = await s.result()
    assert msg.stop_reason == "error" and msg.error_message is not None
    assert msg.error_message.startswith("Could not parse opencode Responses SSE event")
