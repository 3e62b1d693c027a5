"""tester3 #12 and #13: text typed into /changelog or /mcp is refused on the screen's hint line instead of vanishing,
and /mcp's one-key actions (r, Space) say what they did."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from pi_tui.tui.modals.changelog import ChangelogScreen
from pi_tui.tui.modals.mcp import McpScreen
from pi_tui.tui.modals.typing_refusal import REFUSAL

from .helpers import make_app, make_session, wait_until
from .test_mcp_screen import Host, _link, _settle

pytestmark = pytest.mark.anyio


def _text(widget: Static) -> str:
    return str(widget.render())


async def test_typing_into_the_changelog_is_refused_visibly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("# Changelog\n\n## [0.1.0]\n\n- first\n", encoding="utf-8")
    monkeypatch.setattr("pi_tui.coding.changelog.get_changelog_path", lambda: changelog)
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("/changelog")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ChangelogScreen))
        screen = app.screen
        await pilot.press("q", "u", "i", "c", "k", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChangelogScreen)  # q no longer closes it
        assert REFUSAL in _text(screen.query_one("#changelog-hint", Static))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ChangelogScreen))
        assert app.prompt_input.has_focus


async def test_the_mcp_screen_refuses_text_and_announces_its_one_key_actions(tmp_path: Path) -> None:
    offered: list[Any] = []
    link = _link(tmp_path, offered)
    app = Host()
    async with app.run_test(size=(110, 30)) as pilot:
        link.start()
        await link.manager.wait_ready(30)
        screen = McpScreen(link)
        app.push_screen(screen)
        await pilot.pause()
        await pilot.press("t", "e", "s", "t")
        await pilot.pause()
        assert REFUSAL in _text(screen.query_one("#mcp-hint", Static))
        await pilot.press("down", "down", "space")  # the echo tool of the fault server
        await pilot.pause()
        detail = _text(screen.query_one("#mcp-hint", Static))
        assert "off for this session" in detail and "echo" in detail
        row = screen.rows.index(("server", "fault", None))
        screen.query_one("OptionList").highlighted = row  # type: ignore[attr-defined]
        await pilot.press("r")
        await pilot.pause()
        assert "reconnecting fault" in _text(screen.query_one("#mcp-hint", Static))
        await _settle(screen, link)
        await pilot.press("escape")
    await link.close()
