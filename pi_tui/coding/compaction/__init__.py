"""Context compaction (pi-reference §3.8–§3.9): token maths, cut points, serialisation, summarisation."""

from __future__ import annotations

from .prepare import CompactionPreparation, CompactionSettings, CutPoint, find_cut_point, prepare_compaction
from .serialize import serialize_conversation
from .summarize import CompactionResult, compact
from .tokens import (
    calculate_context_tokens,
    estimate_context_tokens,
    estimate_tokens,
    get_last_assistant_usage,
    should_compact,
)

__all__ = [
    "CompactionPreparation",
    "CompactionResult",
    "CompactionSettings",
    "CutPoint",
    "calculate_context_tokens",
    "compact",
    "estimate_context_tokens",
    "estimate_tokens",
    "find_cut_point",
    "get_last_assistant_usage",
    "prepare_compaction",
    "serialize_conversation",
    "should_compact",
]
