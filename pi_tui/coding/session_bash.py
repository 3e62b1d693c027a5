"""AgentSession user bash (``!cmd`` / ``!!cmd``, pi-reference §3.11): run, record, defer while streaming."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from pi_tui.ai.abort import AbortController
from pi_tui.coding.messages import BashExecutionMessage
from pi_tui.coding.user_bash import BashResult, run_user_bash

_log = logging.getLogger(__name__)
if TYPE_CHECKING:
    from pi_tui.agent import Agent
    from pi_tui.coding.session.session_manager import SessionManager
    from pi_tui.coding.session_settings import SessionSettings


class BashMixin:
    """User-bash behaviour of :class:`~pi_tui.coding.agent_session.AgentSession`."""

    if TYPE_CHECKING:
        agent: Agent
        session_manager: SessionManager
        settings: SessionSettings
        cwd: str
        _bash_abort: AbortController | None
        _pending_bash: list[BashExecutionMessage]

        def _session_write_failed(self, exc: OSError) -> None: ...

        @property
        def is_streaming(self) -> bool: ...

    async def execute_bash(
        self, command: str, on_chunk: Callable[[str], None] | None = None, exclude_from_context: bool = False
    ) -> BashResult:
        """Run a user ``!cmd`` (``!!cmd`` → ``exclude_from_context``) and record a bashExecution message.

        Recorded at once when idle; while the agent streams it is kept and flushed before the next prompt.
        No message events are emitted for it (pi). Raises ``RuntimeError`` if a user bash already runs.
        """
        if self._bash_abort is not None:
            raise RuntimeError("A bash command is already running. Press Esc to cancel it first.")
        self._bash_abort = AbortController()
        try:
            result = await run_user_bash(
                command,
                self.cwd,
                signal=self._bash_abort.signal,
                on_chunk=on_chunk,
                command_prefix=self.settings.shell_command_prefix,
            )
        finally:
            self._bash_abort = None
        message = BashExecutionMessage(
            command=command,
            output=result.output,
            exit_code=result.exit_code,
            cancelled=result.cancelled,
            truncated=result.truncated,
            full_output_path=result.full_output_path,
            exclude_from_context=True if exclude_from_context else None,
        )
        if self.is_streaming:
            self._pending_bash.append(message)
        else:
            self._record_bash(message)
        return result

    @property
    def is_bash_running(self) -> bool:
        """True while a user bash command runs."""
        return self._bash_abort is not None

    def abort_bash(self) -> None:
        """Kill the running user bash command (no-op when none)."""
        if self._bash_abort is not None:
            self._bash_abort.abort()

    def _record_bash(self, message: BashExecutionMessage) -> None:
        self.agent.state.messages.append(message)
        try:
            self.session_manager.append_message(message)
        except OSError as exc:
            self._session_write_failed(exc)

    def _flush_pending_bash(self) -> None:
        pending, self._pending_bash = self._pending_bash, []
        for message in pending:
            self._record_bash(message)

