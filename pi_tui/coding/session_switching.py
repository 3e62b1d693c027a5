"""AgentSession session switching and export: new, switch, fork, clone (pi-reference §3.4 "Forking")."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from pi_tui.coding.messages import message_role, message_text
from pi_tui.coding.session.entries import MessageEntry
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.session_events import SessionInfoChangedEvent

if TYPE_CHECKING:
    from pi_tui.agent import Agent
    from pi_tui.ai.types import AssistantMessage


class SwitchingMixin:
    """Session-switching behaviour of :class:`~pi_tui.coding.agent_session.AgentSession`."""

    if TYPE_CHECKING:
        agent: Agent
        session_manager: SessionManager
        _last_assistant: AssistantMessage | None
        _save_failure_reported: bool

        @property
        def session_file(self) -> str | None: ...
        def _emit(self, event: Any) -> None: ...
        async def abort(self) -> None: ...
        def clear_queue(self) -> tuple[list[str], list[str]]: ...
        def _record_initial_settings(self) -> None: ...
        def _restore_model_from_context(self, context: Any) -> None: ...

    def export_markdown(self, path: str | None = None) -> str:
        """Write the transcript as Markdown; returns the path (default: next to the session, or cwd)."""
        from pi_tui.coding.export import export_markdown

        return export_markdown(self, path)

    def export_html(self, path: str | None = None) -> str:
        """Write the transcript as a standalone HTML page; returns the path."""
        from pi_tui.coding.export import export_html

        return export_html(self, path)

    def _reload_from_session(self) -> None:
        context = self.session_manager.build_session_context(include_ui=True, close_interrupted=True)
        self.agent.state.messages = list(context.messages)
        self.agent.session_id = self.session_manager.get_session_id()
        self._save_failure_reported = False  # a new file: report a failure to save it again
        self._last_assistant = next(
            (m for m in reversed(context.messages) if message_role(m) == "assistant"), None
        )
        self._restore_model_from_context(context)

    async def new_session(self) -> None:
        """Abort, clear queues and start an empty session (same model and thinking level)."""
        await self.abort()
        self.clear_queue()
        self.session_manager.new_session()
        self.agent.state.messages = []
        self.agent.session_id = self.session_manager.get_session_id()
        self._last_assistant = None
        self._save_failure_reported = False
        self._record_initial_settings()
        self._emit(SessionInfoChangedEvent(name=None))

    async def switch_session(self, path: str | Path, manager: SessionManager | None = None) -> None:
        """Abort and load another session file (its model and thinking level are restored when possible).
        ``manager``: the file already opened with ``SessionManager.open(path)`` (a UI opens it in a thread)."""
        await self.abort()
        self.clear_queue()
        manager = manager if manager is not None else SessionManager.open(path)
        self.session_manager = manager
        self._reload_from_session()
        self._emit(SessionInfoChangedEvent(name=manager.get_session_name()))

    def get_fork_messages(self) -> list[dict[str, str]]:
        """User messages that can be forked from, of every branch in the file, in file order:
        ``[{entryId, text}]`` (messages without text are left out). As pi 0.73.1's
        ``getUserMessagesForForking`` (it listed only the active branch here before)."""
        out = []
        for entry in self.session_manager.get_entries():
            if isinstance(entry, MessageEntry) and message_role(entry.message) == "user":
                text = message_text(entry.message)
                if text:
                    out.append({"entryId": entry.id, "text": text})
        return out

    async def fork(self, entry_id: str) -> dict[str, Any]:
        """New session = this branch up to the parent of user message ``entry_id``; returns ``{text, cancelled}``.

        ``text`` is the forked message's text (for the editor). Raises ``ValueError`` for an id that is not
        a user message on this session.
        """
        entry = self.session_manager.get_entry(entry_id)
        if not isinstance(entry, MessageEntry) or message_role(entry.message) != "user":
            raise ValueError("Invalid entry ID for forking")
        text = message_text(entry.message)
        await self.abort()
        self.clear_queue()
        previous = self.session_file
        if entry.parent_id is None:
            self.session_manager.new_session(parent_session=previous)
        else:
            self.session_manager.create_branched_session(entry.parent_id)
        self._reload_from_session()
        self._emit(SessionInfoChangedEvent(name=self.session_manager.get_session_name()))
        return {"text": text, "cancelled": False}

    async def clone(self) -> None:
        """New session holding a copy of the current branch."""
        await self.abort()
        leaf = self.session_manager.get_leaf_id()
        if leaf is None:
            self.session_manager.new_session(parent_session=self.session_file)
        else:
            self.session_manager.create_branched_session(leaf)
        self._reload_from_session()
        self._emit(SessionInfoChangedEvent(name=self.session_manager.get_session_name()))

