"""Model catalogue, cost and thinking-level helpers (pi-reference §1.4, §1.7, §1.14, §3.7).

The catalogue is a JSON snapshot shipped in ``pi_tui/ai/data/models.json`` (``{"snapshot": {...},
"providers": {provider: [model JSON, ...]}}``, pi's camelCase field names), loaded lazily on first use and
cached. ``get_model``/``get_models`` return fresh copies, so callers may modify them freely.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from .types import THINKING_LEVELS, CostTier, Model, ModelCost, Usage, UsageCost

DEFAULT_MODEL_PER_PROVIDER: dict[str, str] = {
    "amazon-bedrock": "us.anthropic.claude-opus-4-6-v1",
    "anthropic": "claude-opus-4-7",
    "openai": "gpt-5.4",
    "azure-openai-responses": "gpt-5.4",
    "openai-codex": "gpt-5.5",
    "deepseek": "deepseek-v4-pro",
    "google": "gemini-3.1-pro-preview",
    "google-vertex": "gemini-3.1-pro-preview",
    "github-copilot": "gpt-5.4",
    "openrouter": "moonshotai/kimi-k2.6",
    "vercel-ai-gateway": "zai/glm-5.1",
    "xai": "grok-4.20-0309-reasoning",
    "groq": "openai/gpt-oss-120b",
    "cerebras": "zai-glm-4.7",
    "zai": "glm-5.1",
    "mistral": "devstral-medium-latest",
    "minimax": "MiniMax-M2.7",
    "minimax-cn": "MiniMax-M2.7",
    "moonshotai": "kimi-k2.6",
    "moonshotai-cn": "kimi-k2.6",
    "huggingface": "moonshotai/Kimi-K2.6",
    "fireworks": "accounts/fireworks/models/kimi-k2p6",
    "opencode": "kimi-k2.6",
    "opencode-go": "kimi-k2.6",
    "kimi-coding": "kimi-for-coding",
    "cloudflare-workers-ai": "@cf/moonshotai/kimi-k2.6",
    "cloudflare-ai-gateway": "workers-ai/@cf/moonshotai/kimi-k2.6",
    "xiaomi": "mimo-v2.5-pro",
    "xiaomi-token-plan-cn": "mimo-v2.5-pro",
    "xiaomi-token-plan-ams": "mimo-v2.5-pro",
    "xiaomi-token-plan-sgp": "mimo-v2.5-pro",
}
"""Default model id per provider when nothing else is configured (pi-reference §3.7; pi 0.73.1 model-resolver)."""


@cache
def _catalogue() -> dict[str, Any]:
    text = resources.files("pi_tui.ai").joinpath("data/models.json").read_text(encoding="utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


@cache
def _index() -> dict[str, dict[str, dict[str, Any]]]:
    providers: dict[str, list[dict[str, Any]]] = _catalogue()["providers"]
    return {provider: {m["id"]: m for m in models} for provider, models in providers.items()}


def get_default_model(provider: str) -> Model | None:
    """The provider's default model (:data:`DEFAULT_MODEL_PER_PROVIDER`), else its first catalogue model,
    else ``None`` for a provider without catalogue models (pi-reference §3.7)."""
    model_id = DEFAULT_MODEL_PER_PROVIDER.get(provider)
    model = get_model(provider, model_id) if model_id else None
    if model is None:
        models = get_models(provider)
        model = models[0] if models else None
    return model


def catalogue_snapshot_info() -> dict[str, Any]:
    """The ``snapshot`` header of the catalogue file: ``{date, source, note}``."""
    return dict(_catalogue().get("snapshot", {}))


def get_providers() -> list[str]:
    """Providers in the catalogue, in file order (pi-reference §1.14)."""
    return list(_index())


def get_model(provider: str, model_id: str) -> Model | None:
    """The catalogue model ``provider``/``model_id`` as a new :class:`Model`, or ``None`` if unknown."""
    raw = _index().get(provider, {}).get(model_id)
    return Model.model_validate(raw) if raw is not None else None


def get_models(provider: str) -> list[Model]:
    """All catalogue models of ``provider`` (new objects, file order); ``[]`` for an unknown provider."""
    return [Model.model_validate(raw) for raw in _index().get(provider, {}).values()]


def price_for_request(model: Model, usage: Usage) -> ModelCost | CostTier:
    """The prices that apply to a request with ``usage``: the tier with the highest ``input_tokens_above`` below
    the request's whole input (``input + cache_read + cache_write``), else the model's base prices (pi 0.80.6)."""
    total_input = usage.input + usage.cache_read + usage.cache_write
    rates: ModelCost | CostTier = model.cost
    threshold = -1
    for tier in model.cost.tiers or []:
        if total_input > tier.input_tokens_above > threshold:
            rates, threshold = tier, tier.input_tokens_above
    return rates


def calculate_cost(model: Model, usage: Usage) -> UsageCost:
    """Fill ``usage.cost`` in place from the model's prices ($ per million tokens) and return it (pi-reference
    §1.4). Each component = ``price.<x> / 1_000_000 * usage.<x>``; ``total`` = sum of the four components. The
    prices are the long-context tier the request falls in, if any (:func:`price_for_request`, pi 0.80.6).
    Cache writes with the 1-hour lifetime (``usage.cache_write_1h``) cost twice the input price, Anthropic's
    rate, instead of the 5-minute write price (pi 0.99.0).
    """
    rates = price_for_request(model, usage)
    cost = usage.cost
    cost.input = rates.input / 1_000_000 * usage.input
    cost.output = rates.output / 1_000_000 * usage.output
    cost.cache_read = rates.cache_read / 1_000_000 * usage.cache_read
    long_writes = min(usage.cache_write, max(0, usage.cache_write_1h or 0))
    short_writes = usage.cache_write - long_writes
    cost.cache_write = (rates.cache_write * short_writes + rates.input * 2 * long_writes) / 1_000_000
    cost.total = cost.input + cost.output + cost.cache_read + cost.cache_write
    cost.total_from_provider = None
    return cost


def get_supported_thinking_levels(model: Model) -> list[str]:
    """Thinking levels ``model`` supports, in order ``off … xhigh`` (pi-reference §1.7).

    Non-reasoning model → ``["off"]``. Otherwise every level except those mapped to ``None`` in
    ``thinking_level_map``; ``xhigh`` only when explicitly mapped (key present, not ``None``).
    """
    if not model.reasoning:
        return ["off"]
    level_map = model.thinking_level_map or {}
    levels = []
    for level in THINKING_LEVELS:
        if level in level_map and level_map[level] is None:
            continue
        if level == "xhigh" and level not in level_map:
            continue
        levels.append(level)
    return levels


def clamp_thinking_level(model: Model, level: str) -> str:
    """``level`` if supported, else the next supported level upward, else downward (pi-reference §1.7).

    An unknown level string (or no supported level) falls back to the first supported level, or ``"off"``.
    """
    available = get_supported_thinking_levels(model)
    if level in available:
        return level
    fallback = available[0] if available else "off"
    if level not in THINKING_LEVELS:
        return fallback
    index = THINKING_LEVELS.index(level)
    for candidate in THINKING_LEVELS[index:]:
        if candidate in available:
            return candidate
    for candidate in reversed(THINKING_LEVELS[:index]):
        if candidate in available:
            return candidate
    return fallback


def supports_xhigh(model: Model) -> bool:
    """True when ``xhigh`` is among :func:`get_supported_thinking_levels` (pi-reference §1.7, supports-xhigh test)."""
    return "xhigh" in get_supported_thinking_levels(model)


def models_are_equal(a: Model | None, b: Model | None) -> bool:
    """True when both are given and share ``id`` and ``provider`` (pi-reference §1.7)."""
    if a is None or b is None:
        return False
    return a.id == b.id and a.provider == b.provider
