"""Snapshot: tool panel on a narrow, short terminal (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_narrow_tool_panel


def test_narrow_tool_panel(snap_compare: Any) -> None:
    app, drive, size = build_narrow_tool_panel()
    assert snap_compare(app, run_before=drive, terminal_size=size)
