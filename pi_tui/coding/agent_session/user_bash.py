"""AgentSession user bash (``!cmd`` / ``!!cmd``, pi-reference §3.11): run, record, defer while streaming."""

from __future__ import annotations

from collections.abc import Callable

from pi_tui.agent import Agent
from pi_tui.ai.abort import AbortController
from pi_tui.coding.agent_session.hooks import SessionHooks, await_hook
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.messages import BashExecutionMessage
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.user_bash import BashResult, run_user_bash


class UserBashRunner:
    """Runs the user's own shell commands for one session.

    ``agent``: its state gets the bashExecution messages; ``session_manager()``: the current file;
    ``settings``: ``shell_command_prefix``; ``cwd``: where commands run; ``is_streaming()``: True while the
    agent runs (results are then deferred); ``write_failed(exc)``: reports a failed session write;
    ``hooks``: the ``user_bash`` seam.
    """

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: Callable[[], SessionManager],
        settings: SessionSettings,
        cwd: str,
        is_streaming: Callable[[], bool],
        write_failed: Callable[[OSError], None],
        hooks: SessionHooks,
    ) -> None:
        self._agent = agent
        self._manager = session_manager
        self._settings = settings
        self._cwd = cwd
        self._is_streaming = is_streaming
        self._write_failed = write_failed
        self._hooks = hooks
        self._abort: AbortController | None = None
        self._pending: list[BashExecutionMessage] = []

    async def execute(
        self, command: str, on_chunk: Callable[[str], None] | None = None, exclude_from_context: bool = False
    ) -> BashResult:
        """Run a user ``!cmd`` (``!!cmd`` → ``exclude_from_context``) and record a bashExecution message.

        Recorded at once when idle; while the agent streams it is kept and flushed before the next prompt.
        No message events are emitted for it (pi). Raises ``RuntimeError`` if a user bash already runs.
        """
        if self._abort is not None:
            raise RuntimeError("A bash command is already running. Press Esc to cancel it first.")
        self._abort = AbortController()
        try:
            # seam: user_bash (an extension may supply the result instead of running the command)
            supplied = await await_hook(self._hooks.user_bash, command, exclude_from_context, self._cwd)
            result = supplied if isinstance(supplied, BashResult) else await run_user_bash(
                command,
                self._cwd,
                signal=self._abort.signal,
                on_chunk=on_chunk,
                command_prefix=self._settings.shell_command_prefix,
            )
        finally:
            self._abort = None
        message = BashExecutionMessage(
            command=command,
            output=result.output,
            exit_code=result.exit_code,
            cancelled=result.cancelled,
            truncated=result.truncated,
            full_output_path=result.full_output_path,
            exclude_from_context=True if exclude_from_context else None,
        )
        if self._is_streaming():
            self._pending.append(message)
        else:
            self._record(message)
        return result

    @property
    def is_running(self) -> bool:
        """True while a user bash command runs."""
        return self._abort is not None

    def abort(self) -> None:
        """Kill the running user bash command (no-op when none)."""
        if self._abort is not None:
            self._abort.abort()

    def _record(self, message: BashExecutionMessage) -> None:
        self._agent.state.messages.append(message)
        try:
            self._manager().append_message(message)
        except OSError as exc:
            self._write_failed(exc)

    def flush_pending(self) -> None:
        """Record the commands that ended while the agent streamed (before the next prompt, and on exit)."""
        pending, self._pending = self._pending, []
        for message in pending:
            self._record(message)
