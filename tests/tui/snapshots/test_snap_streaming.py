"""Snapshot: streaming (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_streaming


def test_streaming(snap_compare: Any) -> None:
    app, drive, size = build_streaming()
    assert snap_compare(app, run_before=drive, terminal_size=size)
