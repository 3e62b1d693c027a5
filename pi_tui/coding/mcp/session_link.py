"""An :class:`~pi_tui.coding.mcp.manager.McpManager` tied to one session (pi 1.x docs/mcp.md "Diagnose connection
problems", "Control tool exposure").

:class:`McpSessionLink` gets everything it touches at construction (no session object): ``set_tools(tools)``
replaces the session's MCP tools, ``notify(level, text)`` adds a notification, ``commands`` is the slash-command
registry and ``send_prompt(text)`` runs a prompt (for ``/mcp:server:prompt``).

- :meth:`start` (needs a running loop) starts every server in the background and reports configuration errors
  once; it never waits for a server.
- After every change the session's MCP tools are replaced by the manager's enabled tools, filtered by the
  ``--tools`` patterns that start with ``mcp__`` (pi: other entries do not remove MCP tools).
- A server that fails or disconnects is reported once per failure, with the reason (pi reports failed
  connections once after startup); a reconnect that succeeds after that is reported too.
- :meth:`reload` (``/reload``) reads ``mcp.json`` again and starts, stops or restarts the servers that were
  added, removed or changed; unchanged ones keep running.
- :meth:`before_prompt` waits, before the first prompt only, up to :data:`FIRST_PROMPT_WAIT_S` for servers that
  are still connecting (pi: "The first prompt waits up to 10 seconds ... for servers with direct tools"). It runs
  in the session's prompt path (the link's prompt attacher, :func:`~pi_tui.coding.mcp.wiring.attach_mcp`), so every
  front end gets it; print/JSON mode call it first with no limit (a one-shot run has no later prompt: it waits for
  every server's own connection attempt). Servers still connecting when the wait ends are named in one warning.
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from pi_tui.agent.types import AgentTool
from pi_tui.ai.types import UserContent
from pi_tui.coding.extensions.registries import CommandRegistry
from pi_tui.coding.mcp.config import McpConfigLoad
from pi_tui.coding.mcp.manager import McpChange, McpManager, McpReload
from pi_tui.coding.mcp.prompts import sync_prompt_commands
from pi_tui.coding.mcp.resources import read_mentions
from pi_tui.coding.mcp.tools import McpAgentTool

FIRST_PROMPT_WAIT_S = 10.0
STOP_POLL_S = 0.05
"""How often the first prompt's wait looks whether the user stopped (seconds)."""


def _matches(name: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


class McpSessionLink:
    """Keeps one session's MCP tools, commands and notifications in step with its manager (module docstring).

    ``tool_patterns``: the ``--tools`` entries starting with ``mcp__`` (None or empty: every MCP tool);
    ``enabled``: False for ``--no-mcp``/``--no-tools`` (no server is started, no tool offered);
    ``notify_run``: how the servers' states are said (config errors, failed / connected again / still connecting:
    about this run, so the session shows them without saving them; default ``notify``). A failed resource read
    of a message goes through ``notify`` (it belongs to that message).
    """

    def __init__(
        self,
        manager: McpManager,
        *,
        set_tools: Callable[[list[AgentTool]], None],
        notify: Callable[[str, str], Any],
        commands: CommandRegistry | None = None,
        send_prompt: Callable[[str], Awaitable[Any]] | None = None,
        tool_patterns: Sequence[str] | None = None,
        enabled: bool = True,
        notify_run: Callable[[str, str], Any] | None = None,
        loader: Callable[[], McpConfigLoad] | None = None,
        stop_mark: Callable[[], Any] | None = None,
    ) -> None:
        self.manager = manager
        self._stop_mark = stop_mark  # the session's stop marks: Esc (abort) ends the first prompt's wait
        self._loader = loader  # reads mcp.json again (reload)
        self._notify_run = notify_run or notify  # the servers' states: about this run, shown but not saved
        self.enabled = enabled
        self._set_tools = set_tools
        self._notify = notify
        self._commands = commands
        self._send_prompt = send_prompt
        self._patterns = [p for p in (tool_patterns or []) if p.startswith("mcp__")]
        self._started = False
        self._first_prompt_done = False
        self._reported: dict[str, str] = {}  # server -> state last reported
        self._unsubscribe: list[Callable[[], None]] = []
        self._listeners: list[Callable[[McpChange], Any]] = []

    @property
    def started(self) -> bool:
        """True once :meth:`start` ran."""
        return self._started

    def start(self) -> None:
        """Start the servers in the background (once); report configuration errors. Needs a running loop."""
        if self._started or not self.enabled:
            return
        self._started = True
        for error in self.manager.errors:
            self._notify_run("warning", f"MCP config: {error}")
        self._unsubscribe.append(self.manager.subscribe(self._on_change))
        if self._commands is not None and self._send_prompt is not None:
            self._unsubscribe.append(sync_prompt_commands(self._commands, self.manager, self._send_prompt, self._notify))
        self.manager.start()

    def subscribe(self, listener: Callable[[McpChange], Any]) -> Callable[[], None]:
        """Front ends (footer, ``/mcp``) listen here; called after the session's tools were updated."""
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def tools(self) -> list[McpAgentTool]:
        """The MCP tools the session offers now (enabled, connected, matching the ``--tools`` patterns)."""
        if not self.enabled:
            return []
        tools = self.manager.tools()
        if self._patterns:
            tools = [t for t in tools if _matches(t.name, self._patterns)]
        return tools

    def refresh(self) -> None:
        """Push :meth:`tools` to the session (after a per-session switch in ``/mcp``)."""
        self._set_tools(list(self.tools()))

    async def reload(self) -> McpReload | None:
        """``/reload``: read ``mcp.json`` again (through ``loader``) and apply it
        (:meth:`McpManager.apply_config`: added servers start, removed ones stop, changed ones restart,
        unchanged ones keep running); its errors are reported once and one line says what changed.
        None without a loader. With MCP off (``--no-mcp``) the new entries are listed, disabled."""
        if self._loader is None:
            return None
        result = await self.manager.apply_config(self._loader())
        for name in [*result.removed, *result.changed]:
            self._reported.pop(name, None)
        for error in self.manager.errors if self.enabled else []:
            self._notify_run("warning", f"MCP config: {error}")
        if self.enabled and (result.added or result.removed or result.changed):
            self._notify_run("info", f"MCP: mcp.json reloaded: {result.summary()}")
        self.refresh()
        return result

    def _on_change(self, change: McpChange) -> None:
        self.refresh()
        last = self._reported.get(change.server)
        if change.state in ("failed", "disconnected") and last != change.state:
            level = "error" if change.state == "failed" else "warning"
            verb = "failed" if change.state == "failed" else "disconnected"
            self._notify_run(level, f"MCP server {change.server} {verb}: {change.error or 'no reason given'}")
            self._reported[change.server] = change.state
        elif change.state == "connected" and last in ("failed", "disconnected"):
            self._notify_run("info", f"MCP server {change.server} connected again")
            self._reported[change.server] = change.state
        elif change.state in ("connected", "disabled"):
            self._reported[change.server] = change.state
        for listener in list(self._listeners):
            try:
                listener(change)
            except Exception:  # a front end's listener never breaks the session
                pass

    async def before_prompt(self, *, wait_all: bool = False) -> list[str]:
        """Start if needed; before the first prompt, wait up to :data:`FIRST_PROMPT_WAIT_S` seconds for
        connecting servers (``wait_all``: until every server's connection attempt ends, each bounded by its own
        connect timeout). Returns the servers still connecting after the wait (named in one warning: their tools
        are not in this prompt); ``[]`` after the first prompt."""
        if not self.enabled:
            return []
        self.start()
        if self._first_prompt_done:
            return []
        self._first_prompt_done = True
        limit = None if wait_all else FIRST_PROMPT_WAIT_S
        connecting = [name for name, c in self.manager.connections.items() if c.state == "connecting"]
        if not connecting:
            return []
        if not wait_all:  # said at once: the message is sent when they are ready (tester2 #5)
            names = ", ".join(connecting)
            self._notify_run("info", f"Waiting up to {limit:g} s for MCP server{'s' if len(connecting) > 1 else ''} "
                                     f"{names} to connect before sending (Esc stops)")
        if await self._wait_unless_stopped(limit):
            return [name for name, c in self.manager.connections.items() if c.state == "connecting"]
        pending = [name for name, c in self.manager.connections.items() if c.state == "connecting"]
        if pending:
            names = ", ".join(pending)
            waited = f" after {limit:g} s" if limit is not None else ""
            self._notify_run("warning", f"MCP server{'s' if len(pending) > 1 else ''} {names} still connecting{waited}: "
                                    "not in this prompt; the tools join later prompts once connected")
        return pending

    async def _wait_unless_stopped(self, limit: float | None) -> bool:
        """Wait for the connecting servers (at most ``limit`` s); True when a stop (Esc, ``abort``) ended the
        wait first (the session's stop marks, polled every :data:`STOP_POLL_S`)."""
        mark = self._stop_mark() if self._stop_mark is not None else None
        wait = asyncio.ensure_future(self.manager.wait_ready(limit))
        try:
            while not wait.done():
                await asyncio.wait({wait}, timeout=STOP_POLL_S)
                if mark is not None and mark.stopped:
                    return True
            return False
        finally:
            wait.cancel()

    async def prompt_attachments(self, text: str) -> list[UserContent]:
        """The session's prompt attacher: the first-prompt wait (:meth:`before_prompt`), then the ``@server:uri``
        resources ``text`` mentions (:meth:`attachments`)."""
        await self.before_prompt()
        return await self.attachments(text)

    async def attachments(self, text: str) -> list[UserContent]:
        """Content blocks for the ``@server:uri`` resources ``text`` mentions (:func:`read_mentions`; failures
        are notified and become a block saying so); ``[]`` when MCP is off."""
        if not self.enabled:
            return []
        return await read_mentions(text, self.manager, self._notify)

    def state(self) -> list[dict[str, Any]]:
        """Per-server rows for RPC ``get_state`` (``McpManager.status``); empty when MCP is off."""
        return self.manager.status() if self.enabled else []

    async def close(self) -> None:
        """Stop listening and stop every server."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
        if self._started:
            await self.manager.close()

