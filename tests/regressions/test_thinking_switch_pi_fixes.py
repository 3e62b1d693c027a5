"""Thinking on/off switches the servers understand (pi 0.79.1, 0.80.3, 0.79.6, 0.84.3).

* Z.AI (GLM): pi 0.73 sent ``enable_thinking``, which Z.AI ignores, so ``off`` never turned thinking off; now
  ``thinking: {type: "disabled"}``, and ``{type: "enabled", clear_thinking: false}`` keeps earlier turns'
  reasoning (preserved thinking, pi 0.80.3).
* Moonshot Kimi K2.6: no switch was sent at all; now ``thinking: {type: ...}`` and no ``reasoning_effort``
  (Moonshot rejects it).
* OpenCode Go DeepSeek V4 Flash offers ``low`` (pi 0.84.3, #8181); thinking off sends ``{type: "disabled"}``
  (pi 0.79.6: already right, pinned).
"""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.models import get_model, get_supported_thinking_levels
from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers._openai_completions_convert import build_params
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.types import Context, Model, UserMessage


def _model(provider: str, model_id: str) -> Model:
    model = get_model(provider, model_id)
    assert model is not None
    return model


def _body(model: Model, level: str | None) -> dict[str, Any]:
    options = StreamOptions(extra={"reasoning_effort": level} if level else {})
    ctx = Context(messages=[UserMessage(content="q")])
    return build_params(model, ctx, options, resolve_completions_compat(model), "short")


def test_zai_gets_its_thinking_object() -> None:
    model = _model("zai", "glm-5.1")
    on, off = _body(model, "high"), _body(model, None)
    assert on["thinking"] == {"type": "enabled", "clear_thinking": False}
    assert off["thinking"] == {"type": "disabled"}
    assert "enable_thinking" not in on and "enable_thinking" not in off


@pytest.mark.parametrize("provider", ["moonshotai", "moonshotai-cn"])
def test_kimi_k2_6_gets_the_switch_and_no_effort(provider: str) -> None:
    model = _model(provider, "kimi-k2.6")
    on, off = _body(model, "high"), _body(model, None)
    assert on["thinking"] == {"type": "enabled"} and "reasoning_effort" not in on
    assert off["thinking"] == {"type": "disabled"}


def test_opencode_go_deepseek_flash_offers_low_and_turns_off() -> None:
    model = _model("opencode-go", "deepseek-v4-flash")
    assert "low" in get_supported_thinking_levels(model)
    low = _body(model, "low")
    assert low["thinking"] == {"type": "enabled"} and low["reasoning_effort"] == "low"
    assert _body(model, None)["thinking"] == {"type": "disabled"}


def test_deepseek_itself_still_gets_the_effort() -> None:
    body = _body(_model("deepseek", "deepseek-v4-pro"), "high")
    assert body["thinking"] == {"type": "enabled"} and body["reasoning_effort"] == "high"
