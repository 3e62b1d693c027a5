"""Context compaction (pi-reference §3.8–§3.9): token maths, cut points, serialisation, summarisation.

Importing the package imports none of its modules: each name below loads its module on first use
(``pi_tui.lazy_exports``; issue 15, the first paint must not pay for modules it does not use).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_tui.lazy_exports import lazy_package

if TYPE_CHECKING:
    from .prepare import (
        CompactionPreparation,
        CompactionSettings,
        CutPoint,
        find_cut_point,
        prepare_compaction,
    )
    from .serialize import serialize_conversation
    from .summarize import CompactionResult, compact
    from .tokens import (
        calculate_context_tokens,
        estimate_context_tokens,
        estimate_tokens,
        get_last_assistant_usage,
        should_compact,
    )

_EXPORTS = {
    "CompactionPreparation": ".prepare", "CompactionSettings": ".prepare", "CutPoint": ".prepare",
    "find_cut_point": ".prepare", "prepare_compaction": ".prepare", "serialize_conversation": ".serialize",
    "CompactionResult": ".summarize", "compact": ".summarize", "calculate_context_tokens": ".tokens",
    "estimate_context_tokens": ".tokens", "estimate_tokens": ".tokens", "get_last_assistant_usage": ".tokens",
    "should_compact": ".tokens",
}
__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)

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
