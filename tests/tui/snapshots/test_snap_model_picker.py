"""Snapshot: model picker (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_model_picker


def test_model_picker(snap_compare: Any) -> None:
    app, drive, size = build_model_picker()
    assert snap_compare(app, run_before=drive, terminal_size=size)
