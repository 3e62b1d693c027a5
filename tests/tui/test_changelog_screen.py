"""``/changelog`` opens pi-tui's changelog in a scrollable screen (pi's "What's New"), at the newest entry;
the scroll keys move it and Escape closes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Markdown

from pi_tui.tui.modals.changelog import ChangelogScreen

from .helpers import make_app, make_session, wait_until

LONG = "# Changelog\n\n" + "\n\n".join(
    f"## [0.{n}.0] - 2026-11-{n:02d}\n\n" + "\n".join(f"- change {n}.{i}" for i in range(8)) for n in range(30, 0, -1)
)


async def _run(pilot: Any, text: str) -> None:
    pilot.app.prompt_input.insert(text)
    await pilot.press("enter")
    await pilot.pause(0.1)


@pytest.mark.anyio
async def test_changelog_opens_scrolls_and_closes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text(LONG, encoding="utf-8")
    monkeypatch.setattr("pi_tui.coding.changelog.get_changelog_path", lambda: changelog)
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _run(pilot, "/changelog")
        await wait_until(pilot, lambda: isinstance(app.screen, ChangelogScreen))
        screen = app.screen
        scroll = screen.query_one(VerticalScroll)
        await wait_until(pilot, lambda: scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y)
        source = screen.query_one(Markdown).source
        assert source.index("## [0.1.0]") < source.index("## [0.30.0]")  # oldest first, newest at the end
        await pilot.press("home")
        await wait_until(pilot, lambda: scroll.scroll_y == 0)
        await pilot.press("pagedown")
        await wait_until(pilot, lambda: scroll.scroll_y > 0)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ChangelogScreen))
        assert app.prompt_input.has_focus


@pytest.mark.anyio
async def test_changelog_without_a_file_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pi_tui.coding.changelog.get_changelog_path", lambda: tmp_path / "none.md")
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _run(pilot, "/changelog")
        await wait_until(pilot, lambda: isinstance(app.screen, ChangelogScreen))
        assert app.screen.query_one(Markdown).source == "No changelog entries found."
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ChangelogScreen))
