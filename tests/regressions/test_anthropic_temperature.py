"""Claude Opus 4.7 and later get no ``temperature`` (pi 0.78.1, earendil-works/pi#5251).

Anthropic deprecated sampling parameters on Opus 4.7: a request that sets ``temperature`` (an SDK caller, an
extension, a compaction model set up with one) is refused with HTTP 400 ``temperature is deprecated for this
model``. Older models keep it; ``compat.supportsTemperature`` overrides the rule either way (pi 1.x's flag).
"""

from __future__ import annotations

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers._anthropic_convert import build_params
from pi_tui.ai.types import Context, Model, UserMessage


def _body(model_id: str, compat: dict[str, object] | None = None, provider: str = "anthropic") -> dict[str, object]:
    model = Model(id=model_id, api="anthropic-messages", provider=provider, base_url="https://api.anthropic.com",
                  reasoning=True, compat=compat)
    options = StreamOptions(temperature=0.3, extra={"thinking_enabled": False})
    return build_params(model, Context(messages=[UserMessage(content="q")]), False, options)


@pytest.mark.parametrize("model_id", ["claude-opus-4-7", "claude-opus-4.7", "anthropic/claude-opus-4.7",
                                      "claude-opus-4-7-20260301", "claude-opus-4-8", "claude-opus-5"])
def test_opus_4_7_and_later_get_no_temperature(model_id: str) -> None:
    assert "temperature" not in _body(model_id)


@pytest.mark.parametrize("model_id", ["claude-opus-4-6", "claude-opus-4-5-20251101", "claude-opus-4-20250514",
                                      "claude-opus-4-1-20250805", "claude-sonnet-4-5", "claude-3-opus-20240229"])
def test_older_models_keep_it(model_id: str) -> None:
    assert _body(model_id)["temperature"] == 0.3


def test_the_compat_flag_decides_when_set() -> None:
    assert "temperature" not in _body("my-claude-proxy", {"supportsTemperature": False}, provider="proxy")
    assert _body("claude-opus-4-7", {"supportsTemperature": True})["temperature"] == 0.3
