"""OpenRouter router models carry placeholder prices of -1,000,000 $/1M tokens (pi 1.2.0, pi#10672).

pi 0.73.1 showed ``openrouter/auto`` as costing -$1,000,000 per 1M tokens and added negative amounts to the
session cost. A negative price is treated as 0 (unknown), for the built-in catalogue and for models.json.
"""

from __future__ import annotations

from pi_tui.ai.models import calculate_cost, get_model
from pi_tui.ai.types import Model, ModelCost, Usage


def test_openrouter_auto_costs_nothing_instead_of_minus_a_million() -> None:
    model = get_model("openrouter", "openrouter/auto")
    assert model is not None
    assert (model.cost.input, model.cost.output) == (0, 0)
    cost = calculate_cost(model, Usage(input=1000, output=500))
    assert cost.total == 0


def test_negative_prices_from_models_json_are_zero_and_real_ones_kept() -> None:
    model = Model.model_validate({"id": "r", "api": "openai-completions", "provider": "p",
                                  "cost": {"input": -1, "output": 2.5, "cacheRead": -0.5, "cacheWrite": 0.1}})
    assert model.cost == ModelCost(input=0, output=2.5, cache_read=0, cache_write=0.1)
    assert calculate_cost(model, Usage(input=10**6, output=10**6)).total == 2.5
