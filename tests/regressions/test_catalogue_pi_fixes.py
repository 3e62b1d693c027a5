"""Model catalogue corrections pi shipped after 0.73.1 (PI_FIXES.md catalogue rows).

pi-tui's catalogue is pi-ai 0.73.1's, so it carried the metadata errors pi fixed later: levels the API rejects
are offered in /model, /thinking and the cycle key, and a request at such a level fails with HTTP 400.
The fixes live in ``scripts/refresh_models.py`` (``apply_corrections``), so a refresh keeps them.

* pi 0.78.1 (#5243): GPT-5.5 has no ``minimal``.
* pi 0.77.0: GPT-5.5 Pro offers only ``medium``, ``high``, ``xhigh`` (OpenAI and OpenRouter).
* pi 0.79.1 (#5559): GPT-5 Pro's output limit is 128,000 (272,000 was its input limit).
* pi 1.3.0 (#10818): Xiaomi MiMo answers 400 at ``minimal``; only ``off`` and ``high``.
* pi 0.77.0 (#5075) and 0.80.4 (#6204): the Xiaomi Token Plans do not serve ``mimo-v2-flash`` or ``mimo-v2-omni``.
"""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import pytest

from pi_tui.ai.models import get_model, get_models, get_supported_thinking_levels

ROOT = Path(__file__).resolve().parents[2]


def _levels(provider: str, model_id: str) -> list[str]:
    model = get_model(provider, model_id)
    assert model is not None, f"{provider}/{model_id} not in the catalogue"
    return get_supported_thinking_levels(model)


@pytest.mark.parametrize(("provider", "model_id"), [("openai", "gpt-5.5"), ("opencode", "gpt-5.5"),
                                                    ("openrouter", "openai/gpt-5.5")])
def test_gpt_5_5_offers_no_minimal(provider: str, model_id: str) -> None:
    levels = _levels(provider, model_id)
    assert "minimal" not in levels and {"low", "medium", "high", "xhigh"} <= set(levels)


@pytest.mark.parametrize(("provider", "model_id"), [("openai", "gpt-5.5-pro"), ("opencode", "gpt-5.5-pro"),
                                                    ("openrouter", "openai/gpt-5.5-pro")])
def test_gpt_5_5_pro_offers_medium_high_xhigh(provider: str, model_id: str) -> None:
    assert _levels(provider, model_id) == ["medium", "high", "xhigh"]


def test_gpt_5_pro_output_limit() -> None:
    model = get_model("openai", "gpt-5-pro")
    assert model is not None and model.max_tokens == 128000


def test_xiaomi_mimo_offers_only_off_and_high() -> None:
    for provider in ("xiaomi", "xiaomi-token-plan-ams", "xiaomi-token-plan-cn", "xiaomi-token-plan-sgp"):
        reasoning = [m for m in get_models(provider) if m.reasoning]
        assert reasoning, provider
        for model in reasoning:
            assert get_supported_thinking_levels(model) == ["off", "high"], (provider, model.id)


def test_xiaomi_token_plans_drop_models_they_do_not_serve() -> None:
    for provider in ("xiaomi-token-plan-ams", "xiaomi-token-plan-cn", "xiaomi-token-plan-sgp"):
        ids = {m.id for m in get_models(provider)}
        assert ids and not ids & {"mimo-v2-flash", "mimo-v2-omni"}, provider
    assert any(m.id == "mimo-v2-flash" for m in get_models("xiaomi"))  # the pay-as-you-go API still has it


def test_a_refresh_keeps_the_corrections() -> None:
    spec = importlib.util.spec_from_file_location("refresh_models", ROOT / "scripts" / "refresh_models.py")
    assert spec is not None and spec.loader is not None
    refresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh)
    shipped = json.loads((ROOT / "pi_tui" / "ai" / "data" / "models.json").read_text(encoding="utf-8"))["providers"]
    again = copy.deepcopy(shipped)
    refresh.apply_corrections(again)
    assert again == shipped  # the shipped catalogue is corrected, and correcting is idempotent
    raw = {"openai": [{"id": "gpt-5.5", "api": "openai-responses", "reasoning": True,
                       "thinkingLevelMap": {"off": None, "xhigh": "xhigh"}}],
           "xiaomi-token-plan-cn": [{"id": "mimo-v2-flash", "api": "anthropic-messages", "reasoning": True},
                                    {"id": "mimo-v2.5-pro", "api": "anthropic-messages", "reasoning": True}]}
    out = refresh.convert(raw)
    assert out["openai"][0]["thinkingLevelMap"]["minimal"] is None
    assert [m["id"] for m in out["xiaomi-token-plan-cn"]] == ["mimo-v2.5-pro"]
