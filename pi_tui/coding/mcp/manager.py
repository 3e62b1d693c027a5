"""All MCP servers of one session: background start, the agent tools they offer, per-session switches.

:class:`McpManager` is built from a :class:`~pi_tui.coding.mcp.config.McpConfigLoad`; :meth:`McpManager.start`
returns at once (each server connects in its own task, so the app is interactive before any server answers,
pi 1.x docs/mcp.md "Pi connects every enabled server in the background when a session starts"). Listeners
get an :class:`McpChange` after every state or tool-list change; :meth:`McpManager.tools` is the current list of
enabled agent tools. Enabling/disabling a server or a tool lasts for this session only (nothing is written).
"""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_tui.coding.config.paths import get_agent_dir
from pi_tui.coding.mcp.config import McpConfigLoad, McpServerConfig
from pi_tui.coding.mcp.connection import LOG_MAX_BYTES, McpConnection
from pi_tui.coding.mcp.errors import ServerState
from pi_tui.coding.mcp.oauth import AUTH_FILE_NAME
from pi_tui.coding.mcp.tools import McpAgentTool, build_tools

log = logging.getLogger(__name__)

LOG_DIR_NAME = "mcp-logs"
_configured_log_files: set[Path] = set()


@dataclass(frozen=True)
class McpReload:
    """What :meth:`McpManager.apply_config` changed: server names added (and started), removed (stopped),
    changed (restarted with the new entry) and unchanged (left running as they are)."""

    added: list[str]
    removed: list[str]
    changed: list[str]
    unchanged: list[str]

    def summary(self) -> str:
        """``"time added, git removed, fault restarted"`` or ``"no server changed"``."""
        parts = [f"{n} added" for n in self.added] + [f"{n} removed" for n in self.removed]
        parts += [f"{n} restarted" for n in self.changed]
        return ", ".join(parts) or "no server changed"


@dataclass(frozen=True)
class McpChange:
    """``server`` changed: its ``state`` (and ``error`` when failed/disconnected) or its tools."""

    server: str
    state: ServerState
    error: str | None
    removed: bool = False
    """True when the server is no longer configured (``/reload`` after it left ``mcp.json``)."""


McpListener = Callable[[McpChange], Any]


def mcp_log_dir(agent_dir: Path | None = None) -> Path:
    """``<agent dir>/mcp-logs``: one ``<server>.log`` per server (stderr) and ``mcp.log`` (SDK and client log)."""
    return (agent_dir or get_agent_dir()) / LOG_DIR_NAME


def configure_mcp_logging(log_dir: Path) -> None:
    """Send the SDK's ``mcp`` logger to ``<log_dir>/mcp.log`` (rotated at :data:`LOG_MAX_BYTES`, one old file
    ``mcp.log.1`` kept) and stop it from reaching stderr (the TUI).

    Idempotent per file. Python's last-resort handler would otherwise print SDK warnings (a malformed line
    from a server) over the terminal.
    """
    path = log_dir / "mcp.log"
    sdk = logging.getLogger("mcp")
    sdk.propagate = False
    if path in _configured_log_files:
        return
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=LOG_MAX_BYTES, backupCount=1, encoding="utf-8", delay=True
        )
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("mcp", __package__ or "pi_tui.coding.mcp"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        if logger.level == logging.NOTSET or logger.level > logging.INFO:
            logger.setLevel(logging.INFO)
    _configured_log_files.add(path)


class McpManager:
    """Connections to every configured server (enabled or not) and the agent tools of the connected ones.

    ``log_dir`` defaults to :func:`mcp_log_dir`; ``auth_path`` (OAuth credentials) to ``mcp-auth.json`` beside it,
i.e. in the agent dir. ``errors`` holds the configuration errors (reported once by
    the front end). Not thread-safe: use it from the session's event loop.
    """

    def __init__(self, config: McpConfigLoad, *, log_dir: Path | None = None, auth_path: Path | None = None) -> None:
        self.log_dir = log_dir or mcp_log_dir()
        self.auth_path = auth_path or self.log_dir.parent / AUTH_FILE_NAME  # OAuth credentials (mcp/oauth.py)
        self.errors = list(config.errors)
        self.connections: dict[str, McpConnection] = {
            name: McpConnection(server, log_dir=self.log_dir, on_change=self._on_connection_change,
                                   auth_path=self.auth_path)
            for name, server in config.servers.items()
        }
        self.loaded: dict[str, McpServerConfig] = dict(config.servers)  # the entries as read (apply_config)
        self.disabled_tools: set[str] = set()
        self._tools: dict[str, list[McpAgentTool]] = {}
        self._listeners: list[McpListener] = []
        self._started = False

    # ------------------------------------------------------------ lifecycle

    def add_server(self, server: McpServerConfig) -> None:
        """Add (or replace, by name) one server, e.g. one an ACP client passes in ``session/new``; it starts
        connecting at once when the manager has started. A replaced connection is closed in the background."""
        old = self.connections.pop(server.name, None)
        self._tools.pop(server.name, None)
        connection = McpConnection(server, log_dir=self.log_dir, on_change=self._on_connection_change,
                                   auth_path=self.auth_path)
        self.connections[server.name] = connection
        if old is not None:
            try:
                asyncio.get_running_loop().create_task(old.close())
            except RuntimeError:  # no loop yet: the old connection was never started
                pass
        if self._started:
            connection.start()

    def start(self) -> None:
        """Start connecting every enabled server in the background; returns immediately (needs a running loop)."""
        configure_mcp_logging(self.log_dir)
        self._started = True
        for connection in self.connections.values():
            connection.start()

    async def apply_config(self, config: McpConfigLoad) -> McpReload:
        """Bring the servers in line with a fresh read of ``mcp.json`` (``/reload``, pi 1.x docs/mcp.md "Run
        /reload after adding, removing, or changing a server outside the session"): a server no longer
        configured is stopped and dropped, a new one added (and started when the manager has started), one whose
        entry changed is restarted with the new entry; an unchanged one keeps running as it is (its connection,
        tools and this session's switches stay). Servers an ACP client passed (``source == "client"``) are not
        in the files and are kept. ``errors`` becomes the new load's errors. Listeners hear every change."""
        self.errors = list(config.errors)
        from_files = {n for n, c in self.connections.items() if c.config.source != "client"}
        removed = [n for n in from_files if n not in config.servers]
        added: list[str] = []
        changed: list[str] = []
        unchanged: list[str] = []
        closing: list[McpConnection] = []
        for name in removed:
            gone = self.connections.pop(name)
            gone.on_change = None  # stopping it is no news: listeners hear "removed"
            closing.append(gone)
            self._tools.pop(name, None)
            self.loaded.pop(name, None)
        for name, server in config.servers.items():
            if name in self.connections and name not in from_files:  # an ACP client's server of that name wins
                continue
            if name in self.connections and self.loaded.get(name) == server:
                unchanged.append(name)
                continue
            (changed if name in self.connections else added).append(name)
            old = self.connections.pop(name, None)
            if old is not None:
                old.on_change = None  # its closing is no news: the new connection reports
                closing.append(old)
            self._tools.pop(name, None)
            self.connections[name] = McpConnection(server, log_dir=self.log_dir, on_change=self._on_connection_change,
                                                   auth_path=self.auth_path)
            self.loaded[name] = server
        order = [*config.servers, *(n for n in self.connections if n not in config.servers)]
        self.connections = {n: self.connections[n] for n in order if n in self.connections}
        await asyncio.gather(*(c.close() for c in closing), return_exceptions=True)
        for name in removed:
            self._emit(McpChange(name, "disabled", None, removed=True))
        for name in [*added, *changed]:
            connection = self.connections[name]
            if self._started:
                connection.start()  # reports "connecting"
            else:
                self._emit(McpChange(name, connection.state, connection.error))
        return McpReload(added=added, removed=removed, changed=changed, unchanged=unchanged)

    async def wait_ready(self, limit_s: float | None = None) -> None:
        """Wait until every started server finished its connection attempt (or ``limit_s`` seconds passed)."""
        waits = [c.wait_ready() for c in self.connections.values() if c.state == "connecting"]
        if not waits:
            return
        try:
            async with asyncio.timeout(limit_s):
                await asyncio.gather(*waits)
        except TimeoutError:
            pass

    async def close(self) -> None:
        """Stop every server (in parallel)."""
        await asyncio.gather(*(c.close() for c in self.connections.values()), return_exceptions=True)

    # ------------------------------------------------------------ listeners

    def subscribe(self, listener: McpListener) -> Callable[[], None]:
        """Call ``listener(change)`` after every server change; returns an unsubscribe function."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def _on_connection_change(self, connection: McpConnection) -> None:
        if connection.state == "connected":
            self._tools[connection.name] = build_tools(connection)
        elif connection.state in ("disabled", "failed"):
            self._tools.pop(connection.name, None)
        self._emit(McpChange(connection.name, connection.state, connection.error))

    def _emit(self, change: McpChange) -> None:
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:
                log.exception("mcp: listener failed")

    # ------------------------------------------------------------ tools and switches

    def server_tools(self, server: str) -> list[McpAgentTool]:
        """Every agent tool of ``server`` (enabled or not) from its last successful listing."""
        return list(self._tools.get(server, []))

    def tools(self) -> list[McpAgentTool]:
        """Enabled agent tools of the servers whose tools are known (connected, or disconnected and reconnecting
        on the next call), in configuration order."""
        out: list[McpAgentTool] = []
        for name, connection in self.connections.items():
            if connection.state in ("connected", "disconnected", "connecting"):
                out.extend(t for t in self._tools.get(name, []) if t.name not in self.disabled_tools)
        return out

    def set_tool_enabled(self, tool_name: str, enabled: bool) -> None:
        """Enable or disable one agent tool (``mcp__server__tool``) for this session."""
        (self.disabled_tools.discard if enabled else self.disabled_tools.add)(tool_name)
        server = next((t.server for tools in self._tools.values() for t in tools if t.name == tool_name), "")
        connection = self.connections.get(server)
        if connection is not None:
            self._emit(McpChange(server, connection.state, connection.error))

    async def set_server_enabled(self, server: str, enabled: bool) -> None:
        """Connect (``enabled``) or stop and mark disabled a server, for this session; KeyError if unknown."""
        connection = self.connections[server]
        if not enabled:
            await connection.disable()
            return
        if connection.state == "disabled":
            import dataclasses

            connection.config = dataclasses.replace(connection.config, enabled=True)
            connection.start()
            await connection.wait_ready()

    async def reconnect(self, server: str) -> bool:
        """Reconnect ``server`` (KeyError if unknown); True when connected afterwards."""
        connection = self.connections[server]
        if connection.state == "disabled":
            await self.set_server_enabled(server, True)
            return connection.state == "connected"
        return await connection.reconnect()

    # ------------------------------------------------------------ reports

    def status(self) -> list[dict[str, Any]]:
        """One JSON-ready row per server: ``{name, state, error?, transport, source, tools, enabledTools}``."""
        rows: list[dict[str, Any]] = []
        for name, connection in self.connections.items():
            tools = self._tools.get(name, [])
            row: dict[str, Any] = {
                "name": name,
                "state": connection.state,
                "transport": connection.config.transport,
                "source": connection.config.source,
                "tools": len(tools),
                "enabledTools": sum(1 for t in tools if t.name not in self.disabled_tools),
            }
            if connection.error:
                row["error"] = connection.error
            rows.append(row)
        return rows

    def short_state(self) -> str | None:
        """Footer text when something needs attention (``MCP: 1 failed``), else None."""
        failed = [c for c in self.connections.values() if c.state in ("failed", "disconnected")]
        if not failed:
            return None
        if len(failed) == 1:
            return f"MCP: {failed[0].name} {failed[0].state}"
        return f"MCP: {len(failed)} servers failed"

    def config_of(self, server: str) -> McpServerConfig:
        """The configuration of ``server`` (KeyError if unknown)."""
        return self.connections[server].config
