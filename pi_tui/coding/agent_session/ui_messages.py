"""UI-only messages (``notification``/``artifact``): in the transcript and the session file, never sent to
the LLM (convert_to_llm drops them); and the one-time report of a session file that cannot be written."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from pi_tui.agent import Agent, MessageEndEvent, MessageStartEvent
from pi_tui.coding.messages import ArtifactMessage, NotificationMessage
from pi_tui.coding.session.session_manager import SessionManager

log = logging.getLogger("pi_tui.coding.agent_session")


class UiMessages:
    """``agent``: its state gets the messages; ``session_manager()``: the current file; ``emit``: the fan-out
    (``message_start``/``message_end`` for each message)."""

    def __init__(
        self, *, agent: Agent, session_manager: Callable[[], SessionManager], emit: Callable[[Any], None]
    ) -> None:
        self._agent = agent
        self._manager = session_manager
        self._emit = emit
        self._save_failure_reported = False

    def new_file(self) -> None:
        """The session now writes another file: a failure to save it is reported again."""
        self._save_failure_reported = False

    def append(self, message: NotificationMessage | ArtifactMessage) -> None:
        """Add ``message`` to the state and the file, and show it (message_start/end)."""
        self._agent.state.messages.append(message)
        try:
            self._manager().append_message(message)
        except OSError as exc:
            self.write_failed(exc)
        self._emit(MessageStartEvent(message=message))
        self._emit(MessageEndEvent(message=message))

    def write_failed(self, exc: OSError) -> None:
        """A session-file write failed: log it and tell the user once per session (a UI-only error line),
        instead of only logging while the conversation silently stops being saved."""
        log.error("could not write the session file: %s", exc)
        if self._save_failure_reported:
            return
        self._save_failure_reported = True  # before notifying: the notification's own write fails too
        where = self._manager().get_session_file() or "the session file"
        self.notify(
            "error",
            f"Cannot save the session to {where}: {exc.strerror or exc}. This conversation is not being saved.",
        )

    def notify(self, level: str, text: str, *, persist: bool = True) -> NotificationMessage:
        """Add a UI-only notification (``info``/``warning``/``error``; anything else becomes ``info``).
        ``persist=False``: about this run only (a config file's problem, an MCP server's state): shown
        (message_start/end) but neither kept in the state nor written, so a resume never replays it as current."""
        message = NotificationMessage(level=level if level in ("info", "warning", "error") else "info", text=text)
        if persist:
            self.append(message)
        else:
            self._emit(MessageStartEvent(message=message))
            self._emit(MessageEndEvent(message=message))
        return message

    def add_artifact(
        self, title: str, kind: str, content: str, language: str | None = None, path: str | None = None
    ) -> ArtifactMessage:
        """Add a UI-only artifact (markdown|code|diff|text|image)."""
        message = ArtifactMessage.model_validate(
            {"title": title, "kind": kind, "content": content, "language": language, "path": path}
        )
        self.append(message)
        return message
