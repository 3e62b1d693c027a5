"""Snapshot: the ``/settings`` screen of a real PiApp + AgentSession (issue 12), with a global settings file
that sets a few values and a project file that overrides one (``Compaction keep tokens``: marked ``project``,
and the lines under the list say that the project value wins). Typed as a user would: ``/settings`` Enter,
then Down to the overridden row."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pi_tui.coding.config.settings import SettingsManager
from tests.tui.helpers import make_app, settle, snapshot_session, wait_until

from .scenarios import SIZE

GLOBAL = Path("/tmp/pi-tui-snapshot-settings/settings.json")  # shown in the detail line: fixed paths
PROJECT = Path("/tmp/pi-tui-snapshot-settings/project/.pi-tui/settings.json")


def build_settings_screen() -> tuple[Any, Any, tuple[int, int]]:
    """``(app, drive, size)`` for the settings screen."""
    session, _ = snapshot_session()
    GLOBAL.parent.mkdir(parents=True, exist_ok=True)
    GLOBAL.write_text(json.dumps({"theme": "dark", "steeringMode": "all", "compaction": {"keepRecentTokens": 30000},
                                  "retry": {"maxRetries": 5}}))
    PROJECT.parent.mkdir(parents=True, exist_ok=True)
    PROJECT.write_text(json.dumps({"compaction": {"keepRecentTokens": 8000}}))
    manager = SettingsManager(GLOBAL, PROJECT)
    app = make_app(session, settings_manager=manager)

    async def drive(pilot: Any) -> None:
        from pi_tui.tui.modals.settings_screen import SettingsScreen

        await settle(pilot)
        pilot.app.prompt_input.insert("/settings")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        while (state := screen.highlighted_state()) is not None and state.spec.id != "compaction-keep":
            await pilot.press("down")
        await pilot.pause(0.1)

    return app, drive, SIZE


def test_settings_screen(snap_compare: Any) -> None:
    app, drive, size = build_settings_screen()
    assert snap_compare(app, run_before=drive, terminal_size=size)
