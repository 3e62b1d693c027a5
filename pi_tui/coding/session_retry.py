"""AgentSession auto-retry (pi-reference §3.10; cases 10 and 14).

On ``agent_end`` whose last assistant message is a retryable error: ``attempt += 1``; past
``max_retries`` → ``auto_retry_end{success:false}``; else ``auto_retry_start{attempt, maxAttempts, delayMs,
errorMessage}``, the error message is removed from the agent state (it stays in the file), an abortable
wait (the server's ``Retry-After`` when the provider recorded one, else ``base * 2^(attempt-1)``), then
``agent.continue_()``. The first successful assistant ``message_end`` emits ``auto_retry_end{success:true}``.

What the user sees comes from the events (the app's status line counts down, pi-reference §3.14): no
notification per attempt (they repeated the raw error once per attempt, issue 9); the failed messages stay in
the session file with their full error. Giving up adds one error notification, ``Retry failed after <n>
attempts: <status> <provider message>`` (pi's wording, the error in one line).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from pi_tui.ai.abort import AbortController
from pi_tui.ai.types import AssistantMessage
from pi_tui.coding.config_check import connection_hint
from pi_tui.coding.error_summary import summarize_error
from pi_tui.coding.retry import is_retryable_error, retry_delay_ms
from pi_tui.coding.session_events import AutoRetryEndEvent, AutoRetryStartEvent

if TYPE_CHECKING:
    from collections.abc import Callable

    from pi_tui.agent import Agent
    from pi_tui.ai.types import Model
    from pi_tui.coding.session.session_manager import SessionManager
    from pi_tui.coding.session_settings import ModelAccess, SessionSettings

log = logging.getLogger(__name__)


class RetryMixin:
    """Retry state and behaviour of :class:`~pi_tui.coding.agent_session.AgentSession`."""

    if TYPE_CHECKING:  # attributes and methods provided by AgentSession / the other mixins
        agent: Agent
        session_manager: SessionManager
        models: ModelAccess
        settings: SessionSettings
        _sleep: Callable[[float], Any]

        @property
        def model(self) -> Model | None: ...
        @property
        def thinking_level(self) -> str: ...
        @property
        def session_file(self) -> str | None: ...
        @property
        def session_id(self) -> str: ...
        def _emit(self, event: Any) -> None: ...
        def notify(self, level: str, text: str) -> Any: ...
        async def _continue_agent(self) -> None: ...
        async def _check_compaction(self, message: Any, skip_aborted: bool) -> None: ...

    _retry_attempt: int
    _retry_abort: AbortController | None
    _retrying: bool

    def _init_retry(self) -> None:
        self._retry_attempt = 0
        self._retry_abort = None
        self._retrying = False

    @property
    def is_retrying(self) -> bool:
        """True from ``auto_retry_start`` until the retry cycle ends."""
        return self._retrying

    @property
    def retry_attempt(self) -> int:
        """Current retry attempt (0 when not retrying)."""
        return self._retry_attempt

    def set_auto_retry_enabled(self, enabled: bool) -> None:
        """Turn auto-retry on or off (``retry.enabled``)."""
        self.settings.retry.enabled = enabled

    def abort_retry(self) -> None:
        """Cancel a pending retry wait (the cycle ends with ``Retry cancelled``)."""
        if self._retry_abort is not None:
            self._retry_abort.abort()

    def _should_retry(self, message: AssistantMessage) -> bool:
        if not self.settings.retry.enabled:
            return False
        model = self.agent.state.model
        return is_retryable_error(message, model.context_window if model is not None else None)

    def _on_successful_assistant(self) -> None:
        if self._retry_attempt > 0:
            attempt = self._retry_attempt
            self._retry_attempt = 0
            self._retrying = False
            self._emit(AutoRetryEndEvent(success=True, attempt=attempt))

    def _resolve_retry_waiters(self) -> None:
        """Nothing waits on a promise here: :meth:`prompt` awaits the follow-on task instead."""

    def _end_retry(self, attempt: int, final_error: str) -> None:
        self._retry_attempt = 0
        self._retrying = False
        self._emit(AutoRetryEndEvent(success=False, attempt=attempt, final_error=final_error))

    async def _run_retry(self, message: AssistantMessage) -> None:
        settings = self.settings.retry
        self._retry_attempt += 1
        attempt = self._retry_attempt
        error = message.error_message or "Unknown error"
        if attempt > settings.max_retries:
            self._end_retry(attempt - 1, error)
            # pi's wording; the error in one line (the failed message above it has the full text)
            hint = connection_hint(error, self.agent.state.model)  # which server could not be reached
            self.notify("error", f"Retry failed after {attempt - 1} attempts: {summarize_error(error).one_line()}{hint}")
            await self._check_compaction(message, skip_aborted=True)
            return
        delay = retry_delay_ms(message, attempt, settings)
        if delay is None:
            self._end_retry(attempt - 1, error)
            self.notify("error", f"The server asked to wait longer than {settings.max_delay_ms // 1000}s; not retrying: {error}")
            return
        self._retrying = True
        self._emit(
            AutoRetryStartEvent(attempt=attempt, max_attempts=settings.max_retries, delay_ms=delay, error_message=error)
        )
        messages = self.agent.state.messages
        if messages and messages[-1] is message:
            self.agent.state.messages = messages[:-1]
        controller = AbortController()
        self._retry_abort = controller
        try:
            await _abortable_sleep(self, delay / 1000, controller)
        finally:
            self._retry_abort = None
        if controller.signal.aborted:
            self._end_retry(attempt, "Retry cancelled")
            self.notify("info", "Retry cancelled")
            return
        await self.agent.wait_for_idle()
        try:
            await self._continue_agent()
        except (RuntimeError, ValueError) as exc:
            self._end_retry(attempt, str(exc))


async def _abortable_sleep(session: Any, seconds: float, controller: AbortController) -> None:
    sleeper = asyncio.ensure_future(session._sleep(seconds))
    waiter = asyncio.ensure_future(controller.signal.wait())
    try:
        await asyncio.wait({sleeper, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sleeper, waiter):
            if not task.done():
                task.cancel()
