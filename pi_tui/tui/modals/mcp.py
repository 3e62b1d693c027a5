"""``/mcp``: the session's MCP servers and their tools (issue 13; pi 1.x docs/mcp.md "Inspect or change a server").

One row per server (servers that need attention first, as in pi): state (connected / connecting / failed /
disconnected / disabled), tool count, transport and source; below each connected server its tools, ``[x]`` when
enabled for this session. The line under the list shows the highlighted server's command or URL and, for a failed
server, the whole reason (with the tail of its stderr). Keys: ``r`` reconnect the server, Space enable/disable the
highlighted server or tool for this session (nothing is written to ``mcp.json``), Enter on an HTTP server that
OAuth applies to signs in (``tui/modals/mcp_sign_in.py``; then the server is reconnected with the new
credentials), Esc close. ``sign_in``: a server to start signing in to at once (``/mcp login NAME``). The screen listens to
the session's MCP link and redraws on every change.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from pi_tui.coding.mcp.oauth import needs_sign_in, oauth_applies
from pi_tui.tui.modals.typing_refusal import flash, refuse_typing

STATE_STYLE = {
    "connected": "green",
    "connecting": "yellow",
    "failed": "red",
    "disconnected": "red",
    "disabled": "dim",
}
_ATTENTION = {"failed": 0, "disconnected": 1, "connecting": 2, "connected": 3, "disabled": 4}


def mcp_rows(link: Any) -> list[tuple[str, str, str | None]]:
    """``(kind, server, tool_name)`` rows in display order: each server, then its tools when it has any."""
    manager = link.manager
    order = sorted(manager.connections, key=lambda n: (_ATTENTION.get(manager.connections[n].state, 9), n))
    rows: list[tuple[str, str, str | None]] = []
    for name in order:
        rows.append(("server", name, None))
        if manager.connections[name].state != "disabled":
            rows.extend(("tool", name, tool.name) for tool in manager.server_tools(name))
    return rows

HINT = "Enter sign in (OAuth) · r reconnect · Space enable/disable for this session · Esc close"


class McpScreen(ModalScreen[None]):
    """Modal list of MCP servers and tools over an ``McpSessionLink`` (module docstring)."""

    DEFAULT_CSS = """
    McpScreen { align: center middle; }
    McpScreen > Vertical {
        width: 90%; max-width: 120; height: 80%; border: round $border; background: $surface; padding: 0 1;
    }
    McpScreen #mcp-title { height: 1; text-style: bold; }
    McpScreen OptionList, McpScreen OptionList:focus { height: 1fr; border: none; }
    McpScreen OptionList { text-wrap: nowrap; text-overflow: ellipsis; }
    McpScreen #mcp-detail { height: auto; max-height: 4; color: $text-muted; }
    McpScreen #mcp-hint { height: 1; color: $text-muted; }
    McpScreen.-short > Vertical, McpScreen.-tiny > Vertical { height: 100%; }  /* the list keeps its rows */
    McpScreen.-short #mcp-detail, McpScreen.-tiny #mcp-detail { max-height: 2; }
    """

    BINDINGS = [
        Binding("escape", "close", "Close", show=False),
        Binding("r", "reconnect", "Reconnect", show=False),
        Binding("space", "switch", "Enable/disable", show=False),
    ]

    def __init__(self, link: Any, *, sign_in: str | None = None, open_url: Any = None) -> None:
        super().__init__()
        self.link = link
        self._sign_in_first = sign_in
        self._open_url = open_url  # the sign-in's browser opener (tests); None: the default
        self.signed_in: str | None = None  # the last server signed in to from here
        self.rows: list[tuple[str, str, str | None]] = []
        self._unsubscribe: Any = None
        self._busy: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._drawable = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("MCP servers", id="mcp-title")
            yield OptionList(id="mcp-list")
            yield Static("", id="mcp-detail")
            yield Static(HINT, id="mcp-hint")

    def on_mount(self) -> None:
        self._drawable = True
        self._unsubscribe = self.link.subscribe(lambda _change: self._redraw())
        self._redraw()
        self.query_one(OptionList).focus()
        if self._sign_in_first is not None:
            self.sign_in(self._sign_in_first)

    def on_unmount(self) -> None:
        self._drawable = False
        if self._unsubscribe is not None:
            self._unsubscribe()

    # ------------------------------------------------------------ drawing

    def _server_line(self, name: str) -> Text:
        manager = self.link.manager
        connection = manager.connections[name]
        state = "reconnecting" if name in self._busy else connection.state
        tools = manager.server_tools(name)
        enabled = sum(1 for t in tools if t.name not in manager.disabled_tools)
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("● ", style=STATE_STYLE.get(connection.state, ""))
        text.append(name, style="bold")
        text.append(f"  {state}", style=STATE_STYLE.get(connection.state, ""))
        if tools:
            text.append(f"  {enabled}/{len(tools)} tools" if enabled != len(tools) else f"  {len(tools)} tools")
        text.append(f"  {connection.config.transport} · {connection.config.source}", style="dim")
        if connection.error and connection.state in ("failed", "disconnected"):
            text.append(f"  {connection.error.splitlines()[0]}", style="red")
        return text

    def _tool_line(self, server: str, tool_name: str) -> Text:
        manager = self.link.manager
        tool = next((t for t in manager.server_tools(server) if t.name == tool_name), None)
        on = tool_name not in manager.disabled_tools
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("    [x] " if on else "    [ ] ", style="" if on else "dim")
        text.append(tool.server_tool if tool is not None else tool_name, style="" if on else "dim")
        if tool is not None and tool.description:
            text.append(f"  {tool.description.splitlines()[0]}", style="dim")
        return text

    def _redraw(self) -> None:
        if not self._drawable:
            return
        ol = self.query_one(OptionList)
        previous = self.rows[ol.highlighted] if ol.highlighted is not None and ol.highlighted < len(self.rows) else None
        self.rows = mcp_rows(self.link)
        ol.clear_options()
        if not self.rows:
            ol.add_option(Option(Text("No MCP servers configured: pi-tui mcp add NAME -- COMMAND", style="dim"),
                                 disabled=True))
            self._show_detail(None)
            return
        ol.add_options(
            [Option(self._server_line(s) if kind == "server" else self._tool_line(s, t or "")) for kind, s, t in self.rows]
        )
        ol.highlighted = self.rows.index(previous) if previous in self.rows else 0
        self._show_detail(ol.highlighted)

    def _show_detail(self, index: int | None) -> None:
        detail = self.query_one("#mcp-detail", Static)
        if index is None or index >= len(self.rows):
            detail.update("")
            return
        _kind, server, _tool = self.rows[index]
        connection = self.link.manager.connections[server]
        lines = [f"{server}: {connection.config.summary()}  (log: {connection.log_path})"]
        if connection.error and connection.state in ("failed", "disconnected"):
            lines.append(connection.error)
            if oauth_applies(connection.config) and needs_sign_in(connection.error):
                lines.append("Press Enter to sign in.")
        detail.update(Text("\n".join(lines)))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail(event.option_index)

    # ------------------------------------------------------------ actions

    def _selected(self) -> tuple[str, str, str | None] | None:
        index = self.query_one(OptionList).highlighted
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None

    def _run(self, server: str, coro: Any) -> None:
        self._busy.add(server)
        self._redraw()

        async def runner() -> None:
            try:
                await coro
            finally:
                self._busy.discard(server)
                self.link.refresh()
                self._redraw()

        task = asyncio.ensure_future(runner())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def on_key(self, event: events.Key) -> None:
        refuse_typing(self, event, self.query_one("#mcp-hint", Static), HINT)

    def _said(self, text: str) -> None:
        """What a one-key action did, on the hint line (tester3 #13: r and Space changed state unannounced)."""
        flash(self.query_one("#mcp-hint", Static), text, HINT)

    def action_reconnect(self) -> None:
        selected = self._selected()
        if selected is None or selected[1] in self._busy:
            return
        self._said(f"r: reconnecting {selected[1]}…")
        self._run(selected[1], self.link.manager.reconnect(selected[1]))

    def action_switch(self) -> None:
        selected = self._selected()
        if selected is None:
            return
        kind, server, tool = selected
        manager = self.link.manager
        if kind == "tool" and tool is not None:
            enable = tool in manager.disabled_tools
            manager.set_tool_enabled(tool, enable)
            self.link.refresh()
            self._redraw()
            self._said(f"Space: {tool} {'on' if enable else 'off'} for this session (Space again to undo)")
            return
        if server in self._busy:
            return
        enable = manager.connections[server].state == "disabled"
        self._said(f"Space: {'enabling' if enable else 'disabling'} {server} for this session (Space again to undo)")
        self._run(server, manager.set_server_enabled(server, enable))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter: sign in to the highlighted server when OAuth applies to it."""
        index = event.option_index
        if 0 <= index < len(self.rows) and self.rows[index][0] == "server":
            self.sign_in(self.rows[index][1])

    def sign_in(self, server: str) -> None:
        """Open the sign-in screen for ``server``; once signed in, reconnect it. A server OAuth does not apply to
        (stdio, or an ``Authorization`` header) gets one line saying so."""
        from pi_tui.tui.modals.mcp_sign_in import McpSignInScreen

        manager = self.link.manager
        connection = manager.connections.get(server)
        detail = self.query_one("#mcp-detail", Static)
        if connection is None:
            detail.update(Text(f"No MCP server named {server}", style="red"))
            return
        if not oauth_applies(connection.config):
            detail.update(Text(f"{server}: sign-in applies to HTTP servers without an Authorization header"))
            return

        def done(tools: int | None) -> None:
            if tools is None:
                return
            self.signed_in = server
            self._run(server, manager.reconnect(server))

        extra = {} if self._open_url is None else {"open_url": self._open_url}
        self.app.push_screen(McpSignInScreen(connection.config, manager.auth_path, **extra), done)

    def action_close(self) -> None:
        self.dismiss(None)
