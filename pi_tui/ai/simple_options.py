"""Helpers shared by every provider's ``stream_simple`` (pi-reference §1.7, §1.8).

* :func:`build_base_options` turns caller options into the provider's base :class:`StreamOptions`
  (default ``max_tokens`` = ``min(model.max_tokens, 32000)``, fitted to the context window).
* :func:`adjust_max_tokens_for_thinking` computes ``(max_tokens, thinking_budget)`` for budget-based thinking.
* :func:`map_thinking_level` applies ``model.thinking_level_map`` to a level.
"""

from __future__ import annotations

from collections.abc import Mapping

from .options import StreamOptions
from .output_budget import MIN_OUTPUT_TOKENS, default_max_tokens
from .types import Context, Model

DEFAULT_THINKING_BUDGETS: dict[str, int] = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 16384}
"""Default thinking-token budgets per level (pi-reference §1.8); ``xhigh`` uses ``high``."""


def build_base_options(
    model: Model, options: StreamOptions | None, api_key: str | None, context: Context | None = None
) -> StreamOptions:
    """Base options for a provider call from the caller's (simple) options (pi-reference §1.8 ``buildBaseOptions``).

    Copies every base field; ``max_tokens`` defaults to ``min(model.max_tokens, 32000)`` lowered to what the
    context window leaves after ``context``'s estimated input (:func:`.output_budget.default_max_tokens`; pi
    0.75.0/0.80.3 fixes) when the caller did not set one and ``model.max_tokens > 0``; ``api_key`` wins over ``options.api_key`` when non-empty. Reasoning
    fields of :class:`SimpleStreamOptions` are not copied. ``extra`` (provider-specific options such as
    ``tool_choice``) is copied (shallow) — pi drops such keys here; keeping them is harmless.
    """
    opts = options if options is not None else StreamOptions()
    max_tokens = opts.max_tokens
    if max_tokens is None:
        max_tokens = default_max_tokens(model, context)
    return StreamOptions(
        temperature=opts.temperature,
        max_tokens=max_tokens,
        signal=opts.signal,
        api_key=api_key or opts.api_key,
        transport=opts.transport,
        cache_retention=opts.cache_retention,
        session_id=opts.session_id,
        on_payload=opts.on_payload,
        on_response=opts.on_response,
        headers=dict(opts.headers) if opts.headers is not None else None,
        timeout_ms=opts.timeout_ms,
        max_retries=opts.max_retries,
        max_retry_delay_ms=opts.max_retry_delay_ms,
        metadata=opts.metadata,
        extra=dict(opts.extra),
    )


def clamp_reasoning(level: str) -> str:
    """``xhigh`` → ``high`` for budget-based providers; other levels unchanged."""
    return "high" if level == "xhigh" else level


def adjust_max_tokens_for_thinking(
    base_max_tokens: int,
    model_max_tokens: int,
    level: str,
    custom_budgets: Mapping[str, int] | None = None,
) -> tuple[int, int]:
    """``(max_tokens, thinking_budget)`` for budget-based thinking (pi-reference §1.8).

    Budget = ``custom_budgets`` over :data:`DEFAULT_THINKING_BUDGETS` for ``level`` (``xhigh`` → ``high``);
    ``max_tokens = min(base_max_tokens + budget, model_max_tokens)``; if ``max_tokens <= budget`` the budget
    shrinks to ``max(0, max_tokens - 1024)``. Raises ``ValueError`` for a level without a budget (e.g. ``off``).
    """
    budgets = dict(DEFAULT_THINKING_BUDGETS)
    if custom_budgets:
        budgets.update({k: v for k, v in custom_budgets.items() if v is not None})
    clamped = clamp_reasoning(level)
    if clamped not in budgets:
        raise ValueError(f"No thinking budget for level {level!r}")
    budget = budgets[clamped]
    max_tokens = min(base_max_tokens + budget, model_max_tokens)
    if max_tokens <= budget:
        budget = max(0, max_tokens - MIN_OUTPUT_TOKENS)
    return max_tokens, budget


def map_thinking_level(model: Model, level: str | None) -> str | None:
    """The provider literal for ``level`` via ``model.thinking_level_map`` (pi-reference §1.7).

    Key present → its value (``None`` = unsupported). Key missing → the level itself, except ``off`` (and
    ``None``), which map to ``None`` ("send nothing") unless the map gives ``off`` a literal.
    """
    if level is None:
        return None
    level_map = model.thinking_level_map or {}
    if level in level_map:
        return level_map[level]
    return None if level == "off" else level
