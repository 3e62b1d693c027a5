"""Snapshot: small terminal (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_small_terminal


def test_small_terminal(snap_compare: Any) -> None:
    app, drive, size = build_small_terminal()
    assert snap_compare(app, run_before=drive, terminal_size=size)
