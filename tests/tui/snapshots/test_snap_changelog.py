"""Snapshot: ``/changelog`` (pi's "What's New") over a real PiApp + AgentSession, on a fixed two-version
changelog so the picture does not change with CHANGELOG.md. Typed as a user would: ``/changelog`` Enter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tui.helpers import make_app, settle, snapshot_session, wait_until

from .scenarios import SIZE

CHANGELOG = """# Changelog

## [0.2.0] - 2026-12-02

### Added
- `/changelog`: this file in a **scrollable** screen.

### Fixed
- The export escapes `<script>` in messages.

## [0.1.0] - 2026-12-01

- First release.
"""


def test_changelog_screen(snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "CHANGELOG.md"
    path.write_text(CHANGELOG, encoding="utf-8")
    monkeypatch.setattr("pi_tui.coding.changelog.get_changelog_path", lambda: path)
    session, _ = snapshot_session()
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        from pi_tui.tui.modals.changelog import ChangelogScreen

        await settle(pilot)
        pilot.app.prompt_input.insert("/changelog")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ChangelogScreen))
        await settle(pilot)

    assert snap_compare(app, run_before=drive, terminal_size=SIZE)
