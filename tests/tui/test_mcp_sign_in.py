"""Signing in from ``/mcp`` (issue 13, DIFFERENCES M4) against the loopback OAuth server of
tests/fixtures/mcp/oauth_server.py: Enter on the server that needs sign-in opens the sign-in screen, which shows
the authorization URL and opens it in a (stand-in) browser; once approved the server is reconnected and its tools
are offered. A redirected URL pasted into the screen (browser on another machine) signs in too; Esc cancels. The
tokens are never on screen."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.widgets import Input, OptionList, Static

from pi_tui.coding.mcp.config import McpConfigLoad, McpServerConfig
from pi_tui.coding.mcp.manager import McpManager
from pi_tui.coding.mcp.oauth import credential_key
from pi_tui.coding.mcp.session_link import McpSessionLink
from pi_tui.tui.modals.mcp import McpScreen
from pi_tui.tui.modals.mcp_sign_in import McpSignInScreen
from tests.coding.mcp.conftest import FIXTURES
from tests.coding.mcp.test_oauth import _serve
from tests.tui.helpers import wait_until

pytestmark = pytest.mark.anyio


class Host(App[None]):
    """An empty app to push the screen on."""


@pytest.fixture
def server_url(tmp_path: Path) -> Iterator[str]:
    yield from _serve(tmp_path)


def _link(tmp_path: Path, url: str) -> McpSessionLink:
    config = McpServerConfig(name="notes", transport="http", url=url, timeout=30)
    manager = McpManager(McpConfigLoad(servers={"notes": config}), log_dir=tmp_path / "logs",
                         auth_path=tmp_path / "mcp-auth.json")
    return McpSessionLink(manager, set_tools=lambda tools: None, notify=lambda level, text: None)


def _fake_browser(url: str) -> None:
    """As a user who clicks "Allow": the stand-in browser follows the approval to the loopback callback."""
    subprocess.run([sys.executable, str(FIXTURES / "fake_browser.py"), url], check=False, timeout=60,
                   capture_output=True)


def _screen_text(app: Any) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _approve_elsewhere(url: str) -> str:
    """Approve in "another machine's" browser: the URL it is redirected to (never reaching the callback)."""
    try:
        urllib.request.build_opener(_NoRedirect).open(url, timeout=30)
    except urllib.error.HTTPError as exc:
        return str(exc.headers["Location"])
    raise AssertionError("the authorization server did not redirect")


async def test_enter_signs_in_and_the_server_connects(tmp_path: Path, server_url: str) -> None:
    link = _link(tmp_path, server_url)
    shown: list[str] = []
    app = Host()
    async with app.run_test(size=(110, 30)) as pilot:
        link.start()
        await link.manager.wait_ready(60)
        assert link.manager.connections["notes"].state == "failed"
        screen = McpScreen(link, open_url=lambda url: (shown.append(url), _fake_browser(url)))
        app.push_screen(screen)
        await pilot.pause()
        assert "Press Enter to sign in." in str(screen.query_one("#mcp-detail", Static).render())
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.signed_in == "notes", limit=60)
        await wait_until(pilot, lambda: not screen._busy and link.manager.connections["notes"].state == "connected",
                         limit=60)
        assert len(shown) == 1 and "/authorize?" in shown[0]
        ol = screen.query_one(OptionList)
        assert str(ol.get_option_at_index(0).prompt).startswith("● notes  connected  1 tools")
        tokens = json.loads((tmp_path / "mcp-auth.json").read_text())[credential_key(link.manager.config_of("notes"))]
        assert tokens["tokens"]["access_token"] not in _screen_text(app)
    await link.close()


async def test_a_pasted_redirect_url_signs_in_and_esc_cancels(tmp_path: Path, server_url: str) -> None:
    link = _link(tmp_path, server_url)
    opened: list[str] = []
    app = Host()
    async with app.run_test(size=(110, 30)) as pilot:
        config = link.manager.config_of("notes")
        app.push_screen(McpSignInScreen(config, tmp_path / "mcp-auth.json", open_url=opened.append))
        await wait_until(pilot, lambda: bool(opened), limit=60)
        screen = app.screen
        assert isinstance(screen, McpSignInScreen) and opened[0] in _screen_text(app).replace("\n", "")
        await pilot.press("escape")  # cancelled: nothing stored, the callback port is closed
        await pilot.pause()
        assert not isinstance(app.screen, McpSignInScreen)
        assert not (tmp_path / "mcp-auth.json").exists() or "tokens" not in (tmp_path / "mcp-auth.json").read_text()

        opened.clear()
        results: list[int | None] = []
        app.push_screen(McpSignInScreen(config, tmp_path / "mcp-auth.json", open_url=opened.append), results.append)
        await wait_until(pilot, lambda: bool(opened), limit=60)
        screen = app.screen
        screen.query_one(Input).value = "https://not-a-redirect.example/"
        await pilot.press("enter")
        await pilot.pause()
        assert "not a redirected sign-in URL" in _screen_text(app)
        redirected = await asyncio.to_thread(_approve_elsewhere, opened[0])
        screen.query_one(Input).value = redirected
        await pilot.press("enter")
        await wait_until(pilot, lambda: results == [1], limit=60)
    await link.close()
