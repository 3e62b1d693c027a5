"""Snapshots: extension widgets above and below the editor (``ctx.ui.set_widget``); a custom message drawn
by its extension's message renderer (``pi.register_message_renderer``). Scenarios in
extension_scenarios.py."""

from __future__ import annotations

from typing import Any

from .extension_scenarios import build_extension_message_renderer, build_extension_widgets


def test_extension_widgets_above_and_below_the_editor(snap_compare: Any) -> None:
    app, drive, size = build_extension_widgets()
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_extension_message_renderer(snap_compare: Any) -> None:
    app, drive, size = build_extension_message_renderer()
    assert snap_compare(app, run_before=drive, terminal_size=size)
