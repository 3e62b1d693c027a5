"""Snapshots: an extension's confirm dialog; a custom-rendered tool result with footer status segments
(scenarios in extension_scenarios.py)."""

from __future__ import annotations

from typing import Any

from .extension_scenarios import build_extension_confirm, build_extension_todo_status


def test_extension_confirm_dialog(snap_compare: Any) -> None:
    app, drive, size = build_extension_confirm()
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_extension_tool_render_and_status(snap_compare: Any) -> None:
    app, drive, size = build_extension_todo_status()
    assert snap_compare(app, run_before=drive, terminal_size=size)
