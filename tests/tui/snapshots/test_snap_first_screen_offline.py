"""Snapshot: first screen offline (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_first_screen_offline


def test_first_screen_offline(snap_compare: Any) -> None:
    app, drive, size = build_first_screen_offline()
    assert snap_compare(app, run_before=drive, terminal_size=size)
