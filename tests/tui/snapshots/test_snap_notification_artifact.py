"""Snapshot: notification artifact (scenario in scenarios.py)."""

from __future__ import annotations

from typing import Any

from .scenarios import build_notification_artifact


def test_notification_artifact(snap_compare: Any) -> None:
    app, drive, size = build_notification_artifact()
    assert snap_compare(app, run_before=drive, terminal_size=size)
