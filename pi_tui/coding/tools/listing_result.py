"""The result text of the listing tools (``find``, ``grep``, ``ls``): the lines joined, cut at pi's byte limit
(50 KB; no line limit, pi's ``truncateHead(..., {maxLines: MAX_SAFE_INTEGER})``), then one bracketed notice line
``[<notice>. <notice>]`` naming every limit that was hit, with the matching ``details`` keys (pi 0.73
``find.ts`` / ``grep.ts`` / ``ls.ts``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pi_tui.agent.types import AgentToolResult
from pi_tui.coding.tools.common import text_result
from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES, format_size, truncate_head

#: ``(notice text, details key, details value)`` for one limit that was hit.
Notice = tuple[str, str, Any]


def listing_result(
    lines: Sequence[str], before: Sequence[Notice] = (), after: Sequence[Notice] = ()
) -> AgentToolResult:
    """``lines`` joined with ``\\n`` and cut at ``DEFAULT_MAX_BYTES``; the notices are ``before`` (a result-count
    limit), then ``"50.0KB limit reached"`` (``details.truncation``) when the cut happened, then ``after`` (grep's
    long-line note). ``details`` is None when no limit was hit."""
    cut = truncate_head("\n".join(lines), max_lines=2**53 - 1)
    notices = list(before)
    if cut.truncated:
        notices.append((f"{format_size(DEFAULT_MAX_BYTES)} limit reached", "truncation", cut.to_dict()))
    notices.extend(after)
    output = cut.content
    if notices:
        output += "\n\n[" + ". ".join(text for text, _, _ in notices) + "]"
    details = {key: value for _, key, value in notices}
    return text_result(output, details or None)
