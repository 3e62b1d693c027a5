"""Model catalogue, cost and thinking levels (pi-reference §1.4, §1.7, §1.14, §3.7, §4.2 supports-xhigh.test.ts).

``data/thinking_levels.json`` holds pi-ai 0.73.1's ``getSupportedThinkingLevels`` and ``clampThinkingLevel``
for every model of its catalogue (``data/gen_thinking_levels.mjs``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pi_tui.ai as ai
from pi_tui.ai.models import (
    DEFAULT_MODEL_PER_PROVIDER,
    calculate_cost,
    catalogue_snapshot_info,
    clamp_thinking_level,
    get_default_model,
    get_model,
    get_models,
    get_providers,
    get_supported_thinking_levels,
    models_are_equal,
    supports_xhigh,
)
from pi_tui.ai.types import THINKING_LEVELS, Model, Usage

PI_LEVELS = json.loads((Path(__file__).parent / "data" / "thinking_levels.json").read_text(encoding="utf-8"))
IMPLEMENTED_APIS = {"openai-completions", "anthropic-messages", "openai-responses", "google-generative-ai"}


def test_catalogue_shape() -> None:
    providers = get_providers()
    for provider in (
        "anthropic",
        "openai",
        "google",
        "openrouter",
        "groq",
        "deepseek",
        "xai",
        "mistral",
        "cerebras",
        "zai",
        "moonshotai",
    ):
        assert provider in providers
    for provider in providers:
        models = get_models(provider)
        assert models, provider
        for model in models:
            assert model.provider == provider
            assert model.api in IMPLEMENTED_APIS
            assert model.base_url.startswith("https://")
            assert model.context_window > 0 and model.max_tokens > 0
            assert model.name
    info = catalogue_snapshot_info()
    assert info["date"] and "pi-ai" in info["source"]


def test_default_model_of_every_catalogue_provider_exists() -> None:
    for provider in get_providers():
        model_id = DEFAULT_MODEL_PER_PROVIDER[provider]
        assert get_model(provider, model_id) is not None, (provider, model_id)
        assert get_default_model(provider).id == model_id  # type: ignore[union-attr]
    assert get_default_model("no-such-provider") is None
    for provider in (
        "anthropic",
        "openai",
        "google",
        "openrouter",
        "xai",
        "groq",
        "mistral",
        "deepseek",
        "zai",
    ):
        assert provider in DEFAULT_MODEL_PER_PROVIDER


def test_known_models() -> None:
    opus = get_model("anthropic", "claude-opus-4-7")
    assert opus is not None
    assert opus.api == "anthropic-messages" and opus.base_url == "https://api.anthropic.com"
    assert opus.reasoning is True and "image" in opus.input
    assert get_model("openai", "gpt-5.4").api == "openai-responses"  # type: ignore[union-attr]
    assert get_model("google", "gemini-3.1-pro-preview").api == "google-generative-ai"  # type: ignore[union-attr]
    assert get_model("anthropic", "no-such-model") is None
    assert get_model("no-such-provider", "x") is None
    assert get_models("no-such-provider") == []


def test_mistral_uses_openai_compatible_endpoint() -> None:
    devstral = get_model("mistral", "devstral-medium-latest")
    assert devstral is not None
    assert devstral.api == "openai-completions"
    assert devstral.base_url == "https://api.mistral.ai/v1"
    assert devstral.compat is not None and devstral.compat["maxTokensField"] == "max_tokens"


def test_get_model_returns_independent_copies() -> None:
    a = get_model("anthropic", "claude-opus-4-7")
    b = get_model("anthropic", "claude-opus-4-7")
    assert a is not None and b is not None and a is not b
    a.cost.input = 999
    assert get_model("anthropic", "claude-opus-4-7").cost.input != 999  # type: ignore[union-attr]


def test_calculate_cost_mutates_usage_and_returns_it() -> None:
    model = Model(
        id="m", api="x", provider="p", cost={"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite": 3.75}
    )
    usage = Usage(input=1_000_000, output=200_000, cache_read=500_000, cache_write=100_000)
    cost = calculate_cost(model, usage)
    assert cost is usage.cost
    assert cost.input == 3
    assert cost.output == 3
    assert cost.cache_read == pytest.approx(0.15)
    assert cost.cache_write == pytest.approx(0.375)
    assert cost.total == pytest.approx(6.525)


def test_calculate_cost_with_catalogue_prices() -> None:
    model = get_model("anthropic", "claude-opus-4-7")
    assert model is not None
    usage = Usage(input=1000, output=500)
    calculate_cost(model, usage)
    assert usage.cost.total == pytest.approx(model.cost.input / 1000 + model.cost.output / 2000)


# Levels pi corrected after 0.73.1 (scripts/refresh_models.py apply_corrections; DIFFERENCES PF14):
# checked against the corrected values in tests/regressions/test_catalogue_pi_fixes.py.
CORRECTED_AFTER_PI_073 = {"openai/gpt-5.5", "opencode/gpt-5.5", "openrouter/openai/gpt-5.5", "openai/gpt-5.5-pro",
                          "opencode/gpt-5.5-pro", "openrouter/openai/gpt-5.5-pro",
                          "mistral/mistral-medium-2604", "mistral/mistral-medium-latest",
                          "mistral/magistral-medium-latest", "opencode-go/deepseek-v4-flash"}
CORRECTED_PROVIDERS = {"xiaomi", "xiaomi-token-plan-ams", "xiaomi-token-plan-cn", "xiaomi-token-plan-sgp"}


def test_thinking_levels_match_pi_for_every_catalogue_model() -> None:
    compared = 0
    mismatches = []
    for key, expected in PI_LEVELS.items():
        provider, model_id = key.split("/", 1)
        model = get_model(provider, model_id)
        if model is None:  # provider not shipped (unimplemented API / OAuth), or dropped by a later pi fix
            continue
        compared += 1
        if key in CORRECTED_AFTER_PI_073 or (provider in CORRECTED_PROVIDERS and model.reasoning):
            continue
        got = {
            "supported": get_supported_thinking_levels(model),
            "clamp": [clamp_thinking_level(model, level) for level in THINKING_LEVELS],
        }
        if got != expected:
            mismatches.append((key, got, expected))
    assert mismatches == []
    from_pi = [
        m for p in get_providers() for m in get_models(p) if not (m.model_extra or {}).get("handAdded")
    ]
    assert compared == len(from_pi)


def test_hand_added_deepseek_aliases() -> None:
    chat = get_model("deepseek", "deepseek-chat")
    reasoner = get_model("deepseek", "deepseek-reasoner")
    assert chat is not None and reasoner is not None
    assert get_supported_thinking_levels(chat) == ["off"]
    assert get_supported_thinking_levels(reasoner) == ["high"]
    assert clamp_thinking_level(reasoner, "off") == "high"
    assert (chat.model_extra or {}).get("handAdded") is True


def test_supports_xhigh() -> None:
    assert supports_xhigh(get_model("anthropic", "claude-opus-4-6"))  # type: ignore[arg-type]
    assert supports_xhigh(get_model("anthropic", "claude-opus-4-7"))  # type: ignore[arg-type]
    assert not supports_xhigh(get_model("anthropic", "claude-sonnet-4-6"))  # type: ignore[arg-type]
    assert not supports_xhigh(get_model("anthropic", "claude-opus-4-5"))  # type: ignore[arg-type]
    assert supports_xhigh(get_model("openai", "gpt-5.4"))  # type: ignore[arg-type]
    assert not supports_xhigh(get_model("openai", "gpt-5-mini"))  # type: ignore[arg-type]
    deepseek = get_model("deepseek", "deepseek-v4-pro")
    assert deepseek is not None
    assert get_supported_thinking_levels(deepseek) == ["off", "high", "xhigh"]


def test_thinking_levels_from_map() -> None:
    plain = Model(id="m", api="x", provider="p")
    assert get_supported_thinking_levels(plain) == ["off"]
    assert clamp_thinking_level(plain, "high") == "off"
    gemini3 = Model(
        id="g",
        api="x",
        provider="p",
        reasoning=True,
        thinking_level_map={"off": None, "minimal": None, "low": "LOW", "medium": None, "high": "HIGH"},
    )
    assert get_supported_thinking_levels(gemini3) == ["low", "high"]
    assert clamp_thinking_level(gemini3, "off") == "low"
    assert clamp_thinking_level(gemini3, "medium") == "high"
    assert clamp_thinking_level(gemini3, "xhigh") == "high"
    assert clamp_thinking_level(gemini3, "bogus") == "low"
    mapped = Model(id="o", api="x", provider="p", reasoning=True, thinking_level_map={"xhigh": "max"})
    assert get_supported_thinking_levels(mapped) == list(THINKING_LEVELS)


def test_models_are_equal() -> None:
    a = Model(id="m", api="x", provider="p")
    assert models_are_equal(a, Model(id="m", api="y", provider="p", name="other"))
    assert not models_are_equal(a, Model(id="m", api="x", provider="q"))
    assert not models_are_equal(a, None)
    assert not models_are_equal(None, None)


def test_root_package_exports() -> None:
    assert ai.get_model is get_model
    assert ai.calculate_cost is calculate_cost
