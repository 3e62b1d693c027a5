"""Snapshot: the ``/fork`` picker (issue 12; scenario in session_scenarios.py)."""

from __future__ import annotations

from typing import Any

from .session_scenarios import build_fork_picker


def test_fork_picker(snap_compare: Any) -> None:
    app, drive, size = build_fork_picker()
    assert snap_compare(app, run_before=drive, terminal_size=size)
