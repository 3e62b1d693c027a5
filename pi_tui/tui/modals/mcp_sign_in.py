"""Signing in to an OAuth MCP server from ``/mcp`` (issue 13, DIFFERENCES M4; pi 1.x docs/mcp.md "Select 'Sign in'
... Pi opens the authorization page and waits for approval. If the browser runs on another machine, such as over
SSH, paste its redirected URL into the sign-in screen").

:class:`McpSignInScreen` runs :func:`pi_tui.coding.mcp.oauth.login` for one server: it opens the authorization URL
in the browser and shows it (to copy), listens on the loopback callback, and takes a pasted redirected URL as
the callback too. It dismisses with the number of tools the server offers once signed in, or None (Esc cancels;
a failed sign-in stays on screen with its reason until Esc). Tokens are never shown: the screen shows only the
authorization URL and secret-redacted error text.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.mcp.config import McpServerConfig
from pi_tui.coding.mcp.oauth import login, open_in_browser, parse_redirect


class McpSignInScreen(ModalScreen[int | None]):
    """The sign-in of ``config``'s server, its credentials stored in ``auth_path`` (module docstring).
    ``open_url(url)`` opens the browser (default :func:`~pi_tui.coding.mcp.oauth.open_in_browser`)."""

    DEFAULT_CSS = """
    McpSignInScreen { align: center middle; }
    McpSignInScreen > Vertical {
        width: 90%; max-width: 120; height: auto; max-height: 80%; border: round $border; background: $surface;
        padding: 0 1;
    }
    McpSignInScreen #sign-in-title { height: 1; text-style: bold; }
    McpSignInScreen #sign-in-url { height: auto; margin: 1 0; }
    McpSignInScreen #sign-in-status { height: auto; color: $text-muted; }
    McpSignInScreen Input { margin: 1 0 0 0; }
    McpSignInScreen #sign-in-hint { height: 1; color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", show=False)]

    def __init__(self, config: McpServerConfig, auth_path: Path, *,
                 open_url: Callable[[str], Any] = open_in_browser) -> None:
        super().__init__()
        self.config = config
        self.auth_path = auth_path
        self.open_url = open_url
        self.answers: asyncio.Queue[dict[str, str]] = asyncio.Queue()
        self.status = "starting"
        self.error: str | None = None
        self._worker: Any = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Sign in to {self.config.name}", id="sign-in-title")
            yield Static("", id="sign-in-url")
            yield Static("Starting the sign-in…", id="sign-in-status")
            yield Input(placeholder="Browser on another machine? Paste the redirected URL here and press Enter",
                        id="sign-in-paste")
            yield Static("Esc cancels", id="sign-in-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._worker = self.run_worker(self._sign_in(), name="mcp-sign-in", exclusive=True)


    def _say(self, text: str) -> None:
        """``login``'s message with the authorization URL (the only thing it says)."""
        self.status = "waiting"
        self.query_one("#sign-in-url", Static).update(Text(text))
        self.query_one("#sign-in-status", Static).update(
            "The browser was asked to open this page; approve there. Waiting for the answer…")

    async def _sign_in(self) -> None:
        try:
            tools = await login(self.config, path=self.auth_path, say=self._say, open_url=self.open_url,
                                answers=self.answers)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.status = "failed"
            self.error = redact_text(str(exc) or type(exc).__name__)
            self.query_one("#sign-in-status", Static).update(Text(f"Sign-in failed: {self.error}", style="red"))
            return
        self.status = "done"
        self.dismiss(tools)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        params = parse_redirect(event.value)
        event.input.value = ""
        if params is None:
            self.query_one("#sign-in-status", Static).update(
                Text("That is not a redirected sign-in URL (it has no code=… or error=…)", style="red"))
            return
        self.answers.put_nowait(params)

    def action_cancel(self) -> None:
        self._worker.cancel()  # the sign-in stops: its callback port is closed, earlier credentials kept
        self.dismiss(None)
