"""Snapshot: four queued messages at 60x16 (scenario in scenarios.py; issue 9 #9)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_narrow_queue


def test_narrow_queue(snap_compare: Any) -> None:
    app, drive, size = build_narrow_queue()
    assert snap_compare(app, run_before=drive, terminal_size=size)
