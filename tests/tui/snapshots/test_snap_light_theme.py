"""Snapshot: light theme (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_light_theme


def test_light_theme(snap_compare: Any) -> None:
    app, drive, size = build_light_theme()
    assert snap_compare(app, run_before=drive, terminal_size=size)
