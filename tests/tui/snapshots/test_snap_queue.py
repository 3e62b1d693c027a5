"""Snapshot: queue (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_queue


def test_queue(snap_compare: Any) -> None:
    app, drive, size = build_queue()
    assert snap_compare(app, run_before=drive, terminal_size=size)
