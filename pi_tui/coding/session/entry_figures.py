"""Figures over a session's entries kept up to date as entries are appended (pi fixes 0.99.0 / 0.99.2, issue 15).

The footer asks, after every finished message, for the usage totals of every assistant entry and for the latest
compaction on the current branch. Both walked all entries each time: 150-250 ms per refresh on a 10,000-message
session (measured). :class:`EntryFigures` adds only the entries appended since the last question (the manager's
:meth:`~pi_tui.coding.session.session_manager.SessionManager.entries_version`: within one epoch entries are only
appended) and remembers, per entry, the latest compaction on its path, so a new leaf walks up only to the first
entry already known. Results equal the full walks (tests/coding/session/test_entry_figures.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_tui.coding.session.entries import SessionEntryBase, iso_to_ms
from pi_tui.coding.session.messages import message_role

if TYPE_CHECKING:
    from pi_tui.coding.session.session_manager import SessionManager

TOTAL_KEYS = ("input", "output", "cacheRead", "cacheWrite", "total")


def empty_totals() -> dict[str, Any]:
    """``{input, output, cacheRead, cacheWrite, total: 0, cost: 0.0}``."""
    return {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0, "cost": 0.0}


def add_usage(totals: dict[str, Any], entry: SessionEntryBase) -> None:
    """Add an assistant message entry's usage to ``totals`` (other entries add nothing)."""
    message = getattr(entry, "message", None) if entry.type == "message" else None
    usage = getattr(message, "usage", None) if message_role(message) == "assistant" else None
    if usage is None:
        return
    totals["input"] += usage.input
    totals["output"] += usage.output
    totals["cacheRead"] += usage.cache_read
    totals["cacheWrite"] += usage.cache_write
    totals["total"] += usage.total_tokens
    totals["cost"] += usage.cost.total


class EntryFigures:
    """Incremental usage totals and latest-compaction look-ups for one session (any number of managers in turn:
    a different manager or epoch starts over)."""

    def __init__(self) -> None:
        self._owner: tuple[SessionManager, int] | None = None
        self._counted = 0
        self._totals = empty_totals()
        self._compaction_ms: dict[str, int | None] = {}  # entry id -> latest compaction on its path (ms)

    def _sync(self, manager: SessionManager) -> int:
        epoch, count = manager.entries_version()
        if self._owner is None or self._owner[0] is not manager or self._owner[1] != epoch or count < self._counted:
            self._owner = (manager, epoch)
            self._counted = 0
            self._totals = empty_totals()
            self._compaction_ms = {}
        return count

    def totals(self, manager: SessionManager) -> dict[str, Any]:
        """Usage summed over every assistant message entry of ``manager`` (a new dict)."""
        count = self._sync(manager)
        if count > self._counted:
            for entry in manager.entries_since(self._counted):
                add_usage(self._totals, entry)
            self._counted = count
        return dict(self._totals)

    def latest_compaction_ms(self, manager: SessionManager) -> int | None:
        """Timestamp (ms) of the latest compaction entry on the branch root -> leaf, ``None`` without one."""
        self._sync(manager)
        known = self._compaction_ms
        chain: list[str] = []
        seen: set[str] = set()
        current: SessionEntryBase | None = manager.get_leaf_entry()
        found: int | None = None
        while current is not None and current.id not in seen:
            if current.id in known:
                found = known[current.id]
                break
            seen.add(current.id)
            chain.append(current.id)
            if current.type == "compaction":
                found = iso_to_ms(current.timestamp)
                break
            current = manager.get_entry(current.parent_id) if current.parent_id else None
        for entry_id in chain:
            known[entry_id] = found
        return found
