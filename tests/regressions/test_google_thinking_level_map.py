"""Google models follow their ``thinkingLevelMap`` (pi 0.84.3, earendil-works/pi#8135).

A custom Google model (models.json) that maps pi's levels to the Gemini levels it accepts was sent the built-in
family guess instead: Gemini 3.1 Pro at ``medium`` got ``HIGH``, a budget model mapped ``high -> medium`` got the
``high`` budget, and a model that cannot turn thinking off got ``LOW`` even where its map says it starts at
``medium``. An unknown mapping value fails with one clear message instead of a request the API rejects.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.models import get_model
from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.providers import google
from pi_tui.ai.types import Context, Model, UserMessage
from tests.ai.helpers import mock_reads

REPLY = b'data: {"candidates":[{"content":{"parts":[{"text":"hi"}],"role":"model"},"finishReason":"STOP"}]}\n\n'


def _custom(model_id: str, level_map: dict[str, str | None]) -> Model:
    return Model(id=model_id, api="google-generative-ai", provider="my-gemini",
                 base_url="https://gemini-proxy.example/v1beta", reasoning=True, thinking_level_map=level_map)


async def _thinking_config(monkeypatch: pytest.MonkeyPatch, model: Model, level: str | None) -> dict[str, Any]:
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [REPLY], requests=requests)
    options = SimpleStreamOptions(api_key="k", reasoning=level)  # type: ignore[arg-type]
    message = await google.stream_simple(model, Context(messages=[UserMessage(content="q")]), options).result()
    assert message.stop_reason == "stop", message.error_message
    config: dict[str, Any] = json.loads(requests[0].content)["generationConfig"]["thinkingConfig"]
    return config


@pytest.mark.anyio
async def test_a_level_model_sends_the_level_its_map_names(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _custom("gemini-3.1-pro-preview", {"off": None, "minimal": None, "low": "low", "medium": "medium",
                                               "high": "high"})
    assert (await _thinking_config(monkeypatch, model, "medium"))["thinkingLevel"] == "MEDIUM"
    assert (await _thinking_config(monkeypatch, model, "low"))["thinkingLevel"] == "LOW"


@pytest.mark.anyio
async def test_a_budget_model_takes_the_budget_of_the_mapped_level(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _custom("gemini-2.5-flash", {"high": "medium"})
    assert (await _thinking_config(monkeypatch, model, "high"))["thinkingBudget"] == 8192
    assert (await _thinking_config(monkeypatch, model, "low"))["thinkingBudget"] == 2048  # unmapped: as before


@pytest.mark.anyio
async def test_thinking_off_uses_the_lowest_level_the_map_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _custom("gemini-3-pro-preview", {"off": None, "minimal": None, "low": None, "medium": "MEDIUM",
                                             "high": "HIGH"})
    assert (await _thinking_config(monkeypatch, model, None))["thinkingLevel"] == "MEDIUM"


@pytest.mark.anyio
async def test_an_unknown_mapping_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [REPLY], requests=requests)
    model = _custom("gemini-3-flash-preview", {"high": "ultra"})
    options = SimpleStreamOptions(api_key="k", reasoning="high")
    message = await google.stream_simple(model, Context(messages=[UserMessage(content="q")]), options).result()
    assert message.stop_reason == "error"
    assert "my-gemini/gemini-3-flash-preview: high -> ultra" in (message.error_message or "")
    assert requests == []


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("model_id", "level", "expected"),
    [
        ("gemini-3-pro-preview", "low", {"thinkingLevel": "LOW"}),
        ("gemini-3-pro-preview", "medium", {"thinkingLevel": "HIGH"}),  # medium unsupported: clamped up
        ("gemini-3-pro-preview", None, {"thinkingLevel": "LOW"}),
        ("gemini-3-flash-preview", None, {"thinkingLevel": "MINIMAL"}),
        ("gemma-4-31b-it", None, {"thinkingLevel": "MINIMAL"}),
        ("gemini-2.5-pro", "medium", {"thinkingBudget": 8192}),
        ("gemini-2.5-flash", None, {"thinkingBudget": 0}),
    ],
)
async def test_built_in_models_send_what_they_sent_before(
    monkeypatch: pytest.MonkeyPatch, model_id: str, level: str | None, expected: dict[str, Any]
) -> None:
    model = get_model("google", model_id)
    assert model is not None
    config = await _thinking_config(monkeypatch, model, level)
    assert {k: v for k, v in config.items() if k in ("thinkingLevel", "thinkingBudget")} == expected
