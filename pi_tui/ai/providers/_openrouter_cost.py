"""OpenRouter's own billing figure replaces the catalogue estimate of a request's total cost (pi 1.5.0, #9980).

OpenRouter reports what it charged in the stream's ``usage``: ``cost`` (dollars) and ``is_byok``. Without
BYOK the charge is the whole cost. With BYOK (the user's own upstream key) OpenRouter charges a fee and the
upstream provider bills the rest, reported as ``cost_details.upstream_inference_cost`` (or, when that is
null, ``upstream_inference_prompt_cost`` + ``upstream_inference_completions_cost``): the total is both.
Only ``usage.cost.total`` changes (and ``totalFromProvider`` is set); the per-component costs stay catalogue
estimates. Missing, negative or non-numeric figures leave the estimate alone. Applies to models whose
provider is ``openrouter`` or whose base URL is on openrouter.ai (Chat Completions and Anthropic Messages).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..types import Model, Usage


def is_openrouter_model(model: Model) -> bool:
    """The request goes to OpenRouter: provider ``openrouter`` or a base URL on openrouter.ai."""
    return model.provider == "openrouter" or "openrouter.ai" in (model.base_url or "").lower()


def _valid(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def apply_openrouter_reported_cost(model: Model, usage: Usage, reported: Mapping[str, Any]) -> None:
    """Set ``usage.cost.total`` (in place) from OpenRouter's reported ``usage`` object, when it has one."""
    if not is_openrouter_model(model) or not _valid(reported.get("cost")):
        return
    charged = float(reported["cost"])
    byok = reported.get("is_byok")
    if byok is False:
        total = charged
    elif byok is True:
        details = reported.get("cost_details")
        if not isinstance(details, Mapping):
            return
        upstream = details.get("upstream_inference_cost")
        if upstream is None:
            parts: list[Any] = [
                details.get("upstream_inference_prompt_cost"), details.get("upstream_inference_completions_cost")
            ]
            if not all(_valid(p) for p in parts):
                return
            upstream = sum(float(p) for p in parts)
        if not _valid(upstream):
            return
        total = charged + float(upstream)
    else:
        return
    usage.cost.total = total
    usage.cost.total_from_provider = True
