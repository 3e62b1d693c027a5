"""AgentSession session switching: new, switch, fork, clone (pi-reference §3.4 "Forking")."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from pi_tui.agent import Agent
from pi_tui.ai.types import AssistantMessage
from pi_tui.coding.agent_session.events import SessionInfoChangedEvent
from pi_tui.coding.agent_session.hooks import SessionHooks, await_hook
from pi_tui.coding.messages import message_role, message_text
from pi_tui.coding.session.entries import MessageEntry
from pi_tui.coding.session.session_manager import SessionManager


class SessionSwitcher:
    """Replaces the session a running AgentSession writes to.

    ``agent``: its messages and ``session_id`` follow the file; ``session_manager()`` / ``set_session_manager``:
    read and replace the current SessionManager; ``abort()`` / ``clear_queue()``: stop the run and empty the queues first;
    ``record_initial_settings()`` / ``restore_from_context(context)``: the model part's entries for a new
    session and its restore for a loaded one; ``loaded(last_assistant)``: the session resets its per-file
    state; ``emit``: the fan-out; ``hooks``: the ``session_before_switch``/``session_before_fork``/
    ``session_start`` seams.
    """

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: Callable[[], SessionManager],
        set_session_manager: Callable[[SessionManager], None],
        abort: Callable[[], Awaitable[None]],
        clear_queue: Callable[[], Any],
        record_initial_settings: Callable[[], None],
        restore_from_context: Callable[[Any], None],
        loaded: Callable[[AssistantMessage | None], None],
        emit: Callable[[Any], None],
        hooks: SessionHooks,
    ) -> None:
        self._agent = agent
        self._manager = session_manager
        self._set_manager = set_session_manager
        self._abort = abort
        self._clear_queue = clear_queue
        self._record_initial_settings = record_initial_settings
        self._restore_from_context = restore_from_context
        self._loaded = loaded
        self._emit = emit
        self._hooks = hooks

    async def _before_switch(self, reason: str, target: str | None) -> bool:
        """The ``session_before_switch`` seam; True when a hook cancelled the switch."""
        return bool(await await_hook(self._hooks.session_before_switch, reason, target))

    async def _started(self, reason: str) -> None:
        self._emit(SessionInfoChangedEvent(name=self._manager().get_session_name()))
        await await_hook(self._hooks.session_start, reason)  # seam: session_start after a switch

    def _reload(self) -> None:
        manager = self._manager()
        context = manager.build_session_context(include_ui=True, close_interrupted=True)
        self._agent.state.messages = list(context.messages)
        self._agent.session_id = manager.get_session_id()
        self._loaded(next((m for m in reversed(context.messages) if message_role(m) == "assistant"), None))
        self._restore_from_context(context)

    async def new_session(self) -> None:
        """Abort, clear queues and start an empty session (same model and thinking level)."""
        if await self._before_switch("new", None):
            return
        await self._abort()
        self._clear_queue()
        manager = self._manager()
        manager.new_session()
        self._agent.state.messages = []
        self._agent.session_id = manager.get_session_id()
        self._loaded(None)
        self._record_initial_settings()
        await self._started("new")

    async def switch_session(self, path: str | Path, manager: SessionManager | None = None) -> None:
        """Abort and load another session file (its model and thinking level are restored when possible).
        ``manager``: the file already opened with ``SessionManager.open(path)`` (a UI opens it in a thread).
        The run's write guard moves to the new manager: the resumed file is locked on its first write and
        the previous file's lock released (without it a resumed file was written unlocked, beside another
        pi-tui, and the first file stayed locked until exit; found trying /resume in tmux)."""
        if await self._before_switch("resume", str(path)):
            return
        await self._abort()
        self._clear_queue()
        opened = manager if manager is not None else SessionManager.open(path)
        if opened.write_guard is None:  # the run's lock guard follows it (lock.py: one writer per file)
            opened.write_guard = self._manager().write_guard
        self._set_manager(opened)
        self._reload()
        await self._started("resume")

    def get_fork_messages(self, branch_only: bool = False) -> list[dict[str, str]]:
        """User messages that can be forked from, in file order: ``[{entryId, text}]`` (messages without text
        are left out). As pi 0.73.1's ``getUserMessagesForForking``: every branch of the file (RPC
        ``get_fork_messages``). ``branch_only``: only those on the current branch, root first (the app's
        ``/fork`` picker, issue 12; DIFFERENCES.md)."""
        manager = self._manager()
        entries = manager.get_branch() if branch_only else manager.get_entries()
        out = []
        for entry in entries:
            if isinstance(entry, MessageEntry) and message_role(entry.message) == "user":
                text = message_text(entry.message)
                if text:
                    out.append({"entryId": entry.id, "text": text})
        return out

    async def fork(self, entry_id: str, position: str = "before") -> dict[str, Any]:
        """A new session file from this session's path; returns ``{text, cancelled}`` (``before``) or
        ``{cancelled}`` (``at``).

        pi 0.73.1 ``AgentSessionRuntime.fork(entryId, {position})``: ``session_before_fork`` may cancel.
        ``before`` (``/fork``): ``entry_id`` is a user message; the new file holds root → its parent, and a
        fork of the first message starts an empty session (recording the model and thinking level, as every
        new session does); ``text`` is the message's text for the editor. ``at`` (``/clone``, ``ctx.fork(id,
        {position: "at"})``): the new file holds root → ``entry_id`` (any entry). The new header names this file
        as ``parentSession``. Raises ``ValueError("Invalid entry ID for forking")`` for an id that does not fit.
        The app's ``/fork`` and ``/clone``, RPC ``fork``/``clone`` and extensions' ``ctx.fork`` all call this.
        """
        if position not in ("before", "at"):
            raise ValueError(f"Invalid fork position: {position} (expected 'before' or 'at')")
        manager = self._manager()
        entry = manager.get_entry(entry_id)
        text: str | None = None
        if position == "before":
            if not isinstance(entry, MessageEntry) or message_role(entry.message) != "user":
                raise ValueError("Invalid entry ID for forking")
            text = message_text(entry.message)
        elif entry is None:
            raise ValueError("Invalid entry ID for forking")
        result: dict[str, Any] = {"text": text} if position == "before" else {}
        if await await_hook(self._hooks.session_before_fork, entry_id, position):  # seam: session_before_fork
            return {**result, "cancelled": True}
        await self._abort()
        self._clear_queue()
        target = entry.parent_id if position == "before" else entry.id
        if target is None:
            manager.new_session(parent_session=_file_name(manager))
            self._reload()
            self._record_initial_settings()
        else:
            manager.create_branched_session(target)
            self._reload()
        await self._started("fork")
        return {**result, "cancelled": False}

    async def clone(self) -> dict[str, Any]:
        """New session holding a copy of the current branch; returns ``{cancelled}``.

        pi 0.73.1's ``/clone`` and RPC ``clone``: ``fork(leafId, {position: "at"})``, so extensions hear
        ``session_before_fork`` (position ``at``) and may cancel, then ``session_start`` with reason ``fork``.
        Raises ``ValueError("Cannot clone session: no current entry selected")`` for a session with no entry.
        """
        leaf = self._manager().get_leaf_id()
        if leaf is None:
            raise ValueError("Cannot clone session: no current entry selected")
        return await self.fork(leaf, "at")


def _file_name(manager: SessionManager) -> str | None:
    path = manager.get_session_file()
    return str(path) if path is not None else None
