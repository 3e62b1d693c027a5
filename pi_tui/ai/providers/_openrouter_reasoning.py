"""OpenRouter's reasoning switch for models that always reason (pi 0.84.4, earendil-works/pi#8614).

Thinking level ``off`` on an OpenRouter reasoning model is sent as ``reasoning: {effort: "none"}``. Models whose
reasoning is mandatory reject that with HTTP 400 "Reasoning is mandatory for this endpoint and cannot be
disabled" (deepseek-r1, openai/o3, openai/gpt-5, ...: vellum-ai/vellum-assistant#32428, dendrux/dendrux#44), so
``off`` made them unusable. pi-tui's rule:

* a model is reasoning-mandatory when its ``thinking_level_map`` maps ``off`` to ``None``, when
  ``compat.reasoningMandatory`` says so (true/false wins over the rest), or when its id is one of the families
  in :data:`MANDATORY_REASONING_IDS` (OpenRouter lists them as ``reasoning.mandatory``); for those, ``off`` sends
  no ``reasoning`` field (OpenRouter then uses the model's default);
* any other model whose request with ``effort: "none"`` is refused with such a 400 is sent once more without the
  field (:func:`rejects_disabled_reasoning`, :func:`without_disabled_reasoning`), so a model the list misses
  still works.
"""

from __future__ import annotations

import re
from typing import Any

from ..types import Model

MANDATORY_REASONING_IDS = re.compile(
    r"""^~?(?:[\w.-]+/)?(?:
        o\d[\w.-]*                                   # openai/o1, o3, o3-pro, o4-mini-high
      | gpt-5(?:-(?:mini|nano|pro|codex))?           # gpt-5 family before 5.1 (5.1+ accept "none")
      | gpt-5\.\d+-(?:pro|codex[\w-]*)               # pro and codex variants
      | gpt-oss[\w.:-]*
      | deepseek-r1[\w.:-]*
      | [\w.:-]*thinking[\w.:-]*                     # *-thinking, :thinking
      | gemini-2\.5-pro[\w.:-]*
      | gemini-3(?:\.\d+)?-pro[\w.:-]*
      | grok-3-mini[\w.:-]*
      | grok-4(?::[\w-]+)?
      | grok-code-fast[\w.:-]*
      | minimax-m[12][\w.:-]*
    )$""",
    re.IGNORECASE | re.VERBOSE,
)
"""Model ids (with or without the ``vendor/`` prefix) that always reason on OpenRouter."""

_REJECTION = re.compile(r"reasoning[^\n]{0,80}(?:mandatory|cannot be disabled|can ?not be turned off|required)",
                        re.IGNORECASE)


def is_reasoning_mandatory(model: Model) -> bool:
    """True when thinking ``off`` must send no ``reasoning`` field to ``model`` (rule in the module docstring)."""
    flag = (model.compat or {}).get("reasoningMandatory")
    if isinstance(flag, bool):
        return flag
    level_map = model.thinking_level_map or {}
    if "off" in level_map and level_map["off"] is None:
        return True
    return bool(MANDATORY_REASONING_IDS.match(model.id))


def rejects_disabled_reasoning(status: int, body: str) -> bool:
    """Is an HTTP error the server's refusal to turn reasoning off?"""
    return status == 400 and bool(_REJECTION.search(body))


def without_disabled_reasoning(body: dict[str, Any]) -> dict[str, Any] | None:
    """``body`` without a ``reasoning: {effort: "none"}`` field, or None when it has no such field."""
    reasoning = body.get("reasoning")
    if not (isinstance(reasoning, dict) and reasoning.get("effort") == "none"):
        return None
    return {k: v for k, v in body.items() if k != "reasoning"}


__all__ = [
    "MANDATORY_REASONING_IDS",
    "is_reasoning_mandatory",
    "rejects_disabled_reasoning",
    "without_disabled_reasoning",
]
