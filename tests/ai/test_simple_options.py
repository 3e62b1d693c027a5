"""build_base_options / adjust_max_tokens_for_thinking / map_thinking_level (pi-reference §1.7, §1.8)."""

from __future__ import annotations

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.ai.options import SimpleStreamOptions, StreamOptions
from pi_tui.ai.simple_options import (
    DEFAULT_THINKING_BUDGETS,
    adjust_max_tokens_for_thinking,
    build_base_options,
    map_thinking_level,
)
from pi_tui.ai.types import Model


def _model(max_tokens: int = 64000, **kw: object) -> Model:
    return Model(id="m", api="x", provider="p", max_tokens=max_tokens, **kw)  # type: ignore[arg-type]


def test_default_max_tokens_is_capped_at_32000() -> None:
    assert build_base_options(_model(64000), None, None).max_tokens == 32000
    assert build_base_options(_model(8192), None, None).max_tokens == 8192
    assert build_base_options(_model(0), None, None).max_tokens is None
    assert build_base_options(_model(64000), StreamOptions(max_tokens=100), None).max_tokens == 100


def test_copies_base_fields_and_prefers_explicit_api_key() -> None:
    signal = AbortController().signal
    headers = {"x-a": "1"}
    options = SimpleStreamOptions(
        temperature=0.2,
        signal=signal,
        api_key="from-options",
        cache_retention="long",
        session_id="s1",
        headers=headers,
        timeout_ms=5000,
        max_retries=1,
        max_retry_delay_ms=0,
        metadata={"user_id": "u"},
        reasoning="high",
        thinking_budgets={"high": 100},
        extra={"tool_choice": "auto"},
    )
    base = build_base_options(_model(), options, "resolved")
    assert type(base) is StreamOptions
    assert base.api_key == "resolved"
    assert (base.temperature, base.signal, base.cache_retention, base.session_id) == (
        0.2,
        signal,
        "long",
        "s1",
    )
    assert (base.timeout_ms, base.max_retries, base.max_retry_delay_ms) == (5000, 1, 0)
    assert base.metadata == {"user_id": "u"}
    assert base.headers == headers and base.headers is not headers
    assert base.extra == {"tool_choice": "auto"}
    assert build_base_options(_model(), options, None).api_key == "from-options"
    assert build_base_options(_model(), options, "").api_key == "from-options"


@pytest.mark.parametrize(
    ("base", "model_max", "level", "expected"),
    [
        (32000, 64000, "minimal", (33024, 1024)),
        (32000, 64000, "low", (34048, 2048)),
        (32000, 64000, "medium", (40192, 8192)),
        (32000, 64000, "high", (48384, 16384)),
        (32000, 64000, "xhigh", (48384, 16384)),  # xhigh clamps to high
        (32000, 40000, "high", (40000, 16384)),  # capped at the model maximum
        (4000, 8000, "medium", (8000, 6976)),  # max <= budget → budget = max - 1024
        (0, 1000, "high", (1000, 0)),  # never negative
    ],
)
def test_adjust_max_tokens_for_thinking(
    base: int, model_max: int, level: str, expected: tuple[int, int]
) -> None:
    assert adjust_max_tokens_for_thinking(base, model_max, level) == expected


def test_custom_budgets_override_defaults() -> None:
    assert adjust_max_tokens_for_thinking(1000, 100000, "low", {"low": 5000}) == (6000, 5000)
    assert adjust_max_tokens_for_thinking(1000, 100000, "high", {"low": 5000}) == (17384, 16384)
    assert DEFAULT_THINKING_BUDGETS == {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}
    with pytest.raises(ValueError, match="No thinking budget for level 'off'"):
        adjust_max_tokens_for_thinking(1000, 2000, "off")


def test_map_thinking_level() -> None:
    plain = _model(reasoning=True)
    assert map_thinking_level(plain, "high") == "high"
    assert map_thinking_level(plain, "off") is None
    assert map_thinking_level(plain, None) is None
    mapped = _model(reasoning=True, thinking_level_map={"xhigh": "max", "minimal": None, "off": "none"})
    assert map_thinking_level(mapped, "xhigh") == "max"
    assert map_thinking_level(mapped, "minimal") is None
    assert map_thinking_level(mapped, "off") == "none"
