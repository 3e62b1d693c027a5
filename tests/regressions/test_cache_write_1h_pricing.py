"""1-hour cache writes cost twice the input price (pi 0.99.0: the Vercel AI Gateway's, and any Anthropic
Messages server's, 1-hour writes were priced at the 5-minute rate).

With long cache retention pi-tui asks Anthropic-style servers for ``ttl: "1h"`` breakpoints; their usage reports
the split in ``cache_creation`` (``ephemeral_5m_input_tokens`` / ``ephemeral_1h_input_tokens``). A 1-hour write
costs 2x the base input price, a 5-minute write the catalogue's ``cacheWrite`` (1.25x): every 1-hour write was
undercounted by 37.5%.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_tui.ai.models import calculate_cost
from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import anthropic
from pi_tui.ai.types import Context, Model, ModelCost, Usage, UserMessage
from tests.ai.helpers import mock_reads

MODEL = Model(id="anthropic/claude-sonnet-4.5", api="anthropic-messages", provider="vercel-ai-gateway",
              base_url="https://ai-gateway.vercel.sh", cost=ModelCost(input=3, output=15, cache_read=0.3,
                                                                       cache_write=3.75))


def _body(start_usage: dict[str, Any], delta_usage: dict[str, Any]) -> bytes:
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": MODEL.id, "content": [],
            "usage": start_usage}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": delta_usage}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode()


@pytest.mark.anyio
async def test_one_hour_writes_cost_twice_the_input_price(monkeypatch: pytest.MonkeyPatch) -> None:
    start = {"input_tokens": 100, "output_tokens": 1, "cache_creation_input_tokens": 2000,
             "cache_creation": {"ephemeral_5m_input_tokens": 500, "ephemeral_1h_input_tokens": 1500}}
    mock_reads(monkeypatch, [_body(start, {"output_tokens": 10})])
    stream = anthropic.stream(MODEL, Context(messages=[UserMessage(content="q")]), StreamOptions(api_key="k"))
    message = await stream.result()
    assert message.stop_reason == "stop", message.error_message
    assert message.usage.cache_write == 2000 and message.usage.cache_write_1h == 1500
    assert message.usage.cost.cache_write == pytest.approx((500 * 3.75 + 1500 * 6) / 1e6)
    assert message.usage.to_json_dict()["cacheWrite1h"] == 1500


@pytest.mark.anyio
async def test_without_the_split_every_write_is_a_five_minute_one(monkeypatch: pytest.MonkeyPatch) -> None:
    mock_reads(monkeypatch, [_body({"input_tokens": 100, "cache_creation_input_tokens": 2000}, {"output_tokens": 10})])
    stream = anthropic.stream(MODEL, Context(messages=[UserMessage(content="q")]), StreamOptions(api_key="k"))
    message = await stream.result()
    assert message.usage.cost.cache_write == pytest.approx(2000 * 3.75 / 1e6)
    assert "cacheWrite1h" not in message.usage.to_json_dict()


def test_a_bad_split_never_prices_more_writes_than_there_were() -> None:
    usage = Usage(cache_write=100, cache_write_1h=5000)
    assert calculate_cost(MODEL, usage).cache_write == pytest.approx(100 * 6 / 1e6)
    usage = Usage(cache_write=100, cache_write_1h=-3)
    assert calculate_cost(MODEL, usage).cache_write == pytest.approx(100 * 3.75 / 1e6)
