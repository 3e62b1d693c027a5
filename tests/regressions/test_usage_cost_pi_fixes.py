"""Costs and cache usage as the provider billed them (pi 1.5.0, 0.80.6, 0.74.1, 0.84.3).

* OpenRouter's reported ``usage.cost`` (plus the upstream cost for BYOK keys) is the request's total, not the
  catalogue estimate (pi 1.5.0, #9980: catalogue prices are list prices; OpenRouter routes to providers with
  other prices, discounts and caching).
* Long-context price tiers: GPT-5.4/5.5 above 272K input tokens and Gemini Pro above 200K cost more for the
  whole request (pi 0.80.6); custom models and overrides in models.json can set ``cost.tiers``.
* OpenRouter's ``cached_tokens`` are cache reads only; pi 0.73 subtracted the cache writes from them (0.74.1).
* Kimi's top-level ``cached_tokens`` are cache reads, not input (pi 0.84.3, #8075).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.models import calculate_cost, get_model
from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import anthropic, openai_completions
from pi_tui.ai.providers.openai_completions import parse_chunk_usage
from pi_tui.ai.types import Context, Model, ModelCost, Usage, UserMessage
from pi_tui.coding.config.auth import AuthStorage, clear_command_cache
from pi_tui.coding.config.model_registry import ModelRegistry
from tests.ai.helpers import chat_sse, mock_reads

ROUTER = Model(
    id="moonshotai/kimi-k2.6", api="openai-completions", provider="openrouter",
    base_url="https://openrouter.ai/api/v1", cost=ModelCost(input=1, output=4, cache_read=0.25),
)


def _usage(**extra: Any) -> dict[str, Any]:
    return {"prompt_tokens": 10_000, "completion_tokens": 1_000, **extra}


def test_openrouter_reported_cost_is_the_total() -> None:
    usage = parse_chunk_usage(_usage(cost=0.0123, is_byok=False), ROUTER)
    assert usage.cost.total == pytest.approx(0.0123)
    assert usage.cost.input == pytest.approx(0.01) and usage.cost.output == pytest.approx(0.004)  # estimates
    assert usage.to_json_dict()["cost"]["totalFromProvider"] is True


def test_openrouter_byok_total_adds_the_upstream_cost() -> None:
    details = {"upstream_inference_cost": 0.02}
    assert parse_chunk_usage(_usage(cost=0.001, is_byok=True, cost_details=details), ROUTER).cost.total == (
        pytest.approx(0.021)
    )
    split = {"upstream_inference_cost": None, "upstream_inference_prompt_cost": 0.015,
             "upstream_inference_completions_cost": 0.005}
    assert parse_chunk_usage(_usage(cost=0.001, is_byok=True, cost_details=split), ROUTER).cost.total == (
        pytest.approx(0.021)
    )


@pytest.mark.parametrize(
    "extra",
    [
        {"cost": 0.5},  # no is_byok: unknown billing, keep the estimate
        {"cost": -1, "is_byok": False},
        {"cost": "0.5", "is_byok": False},
        {"cost": True, "is_byok": False},
        {"cost": float("nan"), "is_byok": False},
        {"cost": 0.5, "is_byok": True},  # BYOK without cost_details
        {"cost": 0.5, "is_byok": True, "cost_details": {"upstream_inference_cost": None}},
        {"cost": 0.5, "is_byok": True, "cost_details": {"upstream_inference_cost": -3}},
    ],
)
def test_missing_or_bad_billing_keeps_the_catalogue_estimate(extra: dict[str, Any]) -> None:
    usage = parse_chunk_usage(_usage(**extra), ROUTER)
    assert usage.cost.total == pytest.approx(0.014)
    assert "totalFromProvider" not in usage.to_json_dict()["cost"]


def test_other_providers_reporting_a_cost_field_keep_the_estimate() -> None:
    other = ROUTER.model_copy(update={"provider": "myproxy", "base_url": "https://proxy.example/v1"})
    assert parse_chunk_usage(_usage(cost=9.0, is_byok=False), other).cost.total == pytest.approx(0.014)
    custom = ROUTER.model_copy(update={"provider": "my-openrouter", "base_url": "https://OpenRouter.ai/api/v1"})
    assert parse_chunk_usage(_usage(cost=0.5, is_byok=False), custom).cost.total == pytest.approx(0.5)


@pytest.mark.anyio
async def test_a_streamed_openrouter_reply_keeps_the_billed_total(monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = [
        {"id": "gen-1", "choices": [{"index": 0, "delta": {"content": "hi"}}]},
        {"id": "gen-1", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {"id": "gen-1", "choices": [], "usage": _usage(cost=0.0042, is_byok=False)},
    ]
    mock_reads(monkeypatch, [chat_sse(*chunks)])
    stream = openai_completions.stream(ROUTER, Context(messages=[UserMessage(content="q")]), StreamOptions(api_key="k"))
    message = await stream.result()
    assert message.usage.cost.total == pytest.approx(0.0042)


@pytest.mark.anyio
async def test_anthropic_messages_through_openrouter_keep_the_billed_total(monkeypatch: pytest.MonkeyPatch) -> None:
    model = Model(id="anthropic/claude-sonnet-4.5", api="anthropic-messages", provider="openrouter",
                  base_url="https://openrouter.ai/api", cost=ModelCost(input=3, output=15))
    events: list[tuple[str, dict[str, Any]]] = [
        ("message_start", {"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": model.id, "content": [],
            "usage": {"input_tokens": 1000, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn"},
                           "usage": {"output_tokens": 100, "cost": 0.0031, "is_byok": False}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    body = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events).encode()
    mock_reads(monkeypatch, [body])
    stream = anthropic.stream(model, Context(messages=[UserMessage(content="q")]), StreamOptions(api_key="k"))
    message = await stream.result()
    assert message.stop_reason == "stop", message.error_message
    assert message.usage.cost.total == pytest.approx(0.0031)
    assert message.usage.cost.input == pytest.approx(0.003)  # the component stays the estimate


def test_openrouter_cached_tokens_are_reads_and_writes_are_separate() -> None:
    raw = {"prompt_tokens": 2000, "completion_tokens": 10,
           "prompt_tokens_details": {"cached_tokens": 1000, "cache_write_tokens": 500}}
    usage = parse_chunk_usage(raw, ROUTER)
    assert (usage.input, usage.cache_read, usage.cache_write) == (500, 1000, 500)
    assert usage.total_tokens == 2010


def test_kimi_top_level_cached_tokens_are_cache_reads() -> None:
    kimi = Model(id="kimi-k2.6", api="openai-completions", provider="moonshotai", base_url="https://api.moonshot.ai/v1")
    usage = parse_chunk_usage({"prompt_tokens": 3000, "completion_tokens": 5, "cached_tokens": 2500}, kimi)
    assert (usage.input, usage.cache_read) == (500, 2500)


@pytest.mark.parametrize(
    ("provider", "model_id", "threshold", "base_in", "tier_in", "tier_out"),
    [
        ("openai", "gpt-5.4", 272_000, 2.5, 5, 22.5),
        ("openai", "gpt-5.5", 272_000, 5, 10, 45),
        ("openai", "gpt-5.5-pro", 272_000, 30, 60, 270),
        ("opencode", "gpt-5.5", 272_000, 5, 10, 45),
        ("google", "gemini-3.1-pro-preview", 200_000, 2, 4, 18),
    ],
)
def test_long_context_requests_are_priced_at_the_tier(
    provider: str, model_id: str, threshold: int, base_in: float, tier_in: float, tier_out: float
) -> None:
    model = get_model(provider, model_id)
    assert model is not None
    at = Usage(input=threshold - 1000, cache_read=1000, output=1000)  # exactly at the threshold: base prices
    assert calculate_cost(model, at).input == pytest.approx(base_in * (threshold - 1000) / 1e6)
    above = Usage(input=threshold - 1000, cache_read=1001, output=1000)  # cached input counts toward the tier
    cost = calculate_cost(model, above)
    assert cost.input == pytest.approx(tier_in * (threshold - 1000) / 1e6)
    assert cost.output == pytest.approx(tier_out * 1000 / 1e6)


def test_highest_matching_tier_wins_whatever_the_order() -> None:
    model = Model.model_validate({"id": "m", "api": "openai-completions", "provider": "p", "cost": {
        "input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0,
        "tiers": [{"inputTokensAbove": 500_000, "input": 3, "output": 3, "cacheRead": 0, "cacheWrite": 0},
                  {"inputTokensAbove": 100_000, "input": 2, "output": 2, "cacheRead": 0, "cacheWrite": 0}]}})
    assert calculate_cost(model, Usage(input=1_000_000)).input == pytest.approx(3.0)
    assert calculate_cost(model, Usage(input=200_000)).input == pytest.approx(0.4)
    assert calculate_cost(model, Usage(input=100_000)).input == pytest.approx(0.1)


def test_models_json_tiers_for_custom_models_and_overrides(tmp_path: Path) -> None:
    tier = {"inputTokensAbove": 128000, "input": 2, "output": 8, "cacheRead": 0, "cacheWrite": 0}
    config = {"providers": {
        "local": {"baseUrl": "http://127.0.0.1:8080/v1", "api": "openai-completions", "models": [
            {"id": "big", "cost": {"input": 1, "output": 4, "cacheRead": 0, "cacheWrite": 0, "tiers": [tier]}}]},
        "openai": {"modelOverrides": {"gpt-5.4": {"cost": {"input": 3}}, "gpt-5.5": {"cost": {"tiers": []}}}},
    }}
    path = tmp_path / "models.json"
    path.write_text(json.dumps(config))
    clear_command_cache()
    registry = ModelRegistry(AuthStorage.in_memory(), path)
    assert registry.error is None
    big = registry.find("local", "big")
    assert big is not None
    assert calculate_cost(big, Usage(input=200_000)).input == pytest.approx(0.4)
    gpt54 = registry.find("openai", "gpt-5.4")
    assert gpt54 is not None and gpt54.cost.input == 3 and gpt54.cost.tiers  # a price override keeps the tiers
    gpt55 = registry.find("openai", "gpt-5.5")
    assert gpt55 is not None and gpt55.cost.tiers == []  # an explicit empty list removes them
    bad = {"providers": {"local": {"baseUrl": "http://127.0.0.1:8080/v1", "api": "openai-completions", "models": [
        {"id": "x", "cost": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "tiers": [{"input": 2}]}}]}}}
    path.write_text(json.dumps(bad))
    assert ModelRegistry(AuthStorage.in_memory(), path).error is not None  # a tier needs all its fields
