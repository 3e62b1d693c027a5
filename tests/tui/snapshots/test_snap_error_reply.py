"""Snapshot: error reply (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_error_reply


def test_error_reply(snap_compare: Any) -> None:
    app, drive, size = build_error_reply()
    assert snap_compare(app, run_before=drive, terminal_size=size)
