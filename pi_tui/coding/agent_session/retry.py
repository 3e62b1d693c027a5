"""AgentSession auto-retry (pi-reference §3.10; cases 10 and 14).

On ``agent_end`` whose last assistant message is a retryable error: ``attempt += 1``; past
``max_retries`` → ``auto_retry_end{success:false}``; else ``auto_retry_start{attempt, maxAttempts, delayMs,
errorMessage}``, the error message is removed from the agent state (it stays in the file), an abortable
wait (the server's ``Retry-After`` when the provider recorded one, else ``base * 2^(attempt-1)``), then
``agent.continue_()``. The first successful assistant ``message_end`` emits ``auto_retry_end{success:true}``.

What the user sees comes from the events (the app's status line counts down, pi-reference §3.14): no
notification per attempt (they repeated the raw error once per attempt, issue 9); the failed messages stay in
the session file with their full error. Giving up adds one error notification, ``Retry failed after <n> attempts (<m> requests)`` (m when the
provider client retried too; none when no retry was made, ``maxRetries`` 0: the failed reply already shows the
error, tester2 #14), formerly
attempts: <status> <provider message>`` (pi's wording, the error in one line).

A stop of the run (:mod:`~pi_tui.coding.agent_session.stop_fence`; pi 0.86.0, #9340/#9777) wins at every step:
no retry starts once it was requested, and a stop that comes after the wait, before the continuation, ends the
cycle with ``Retry cancelled`` instead of sending the request again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from pi_tui.agent import Agent
from pi_tui.ai.abort import AbortController
from pi_tui.ai.types import AssistantMessage
from pi_tui.coding.agent_session.events import AutoRetryEndEvent, AutoRetryStartEvent
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.agent_session.stop_fence import StopMark
from pi_tui.coding.config_check import connection_hint
from pi_tui.coding.error_summary import summarize_error
from pi_tui.coding.retry import is_retryable_error, retry_delay_ms


def requests_of(message: AssistantMessage) -> int:
    """HTTP requests one failed attempt made: the provider's ``requests`` diagnostic (its own retries
    included, ``ai/providers/_http.py``), else 1."""
    for entry in message.diagnostics or []:
        if isinstance(entry, dict) and entry.get("type") == "requests":
            count = (entry.get("details") or {}).get("count")
            if isinstance(count, int) and count > 0:
                return count
    return 1


class RetryController:
    """The retry cycle of one session.

    ``agent``: the session's Agent; ``settings``: read live (``settings.retry``); ``emit(event)``: the
    session's fan-out; ``notify(level, text)``: a UI-only notification; ``sleep(seconds)``: the wait
    (awaitable; tests replace it); ``continue_run()``: continue the agent after the wait;
    ``check_compaction(message, skip_aborted, mark)``: the compaction check when the cycle gives up.
    """

    def __init__(
        self,
        *,
        agent: Agent,
        settings: SessionSettings,
        emit: Callable[[Any], None],
        notify: Callable[[str, str], Any],
        sleep: Callable[[float], Awaitable[Any]],
        continue_run: Callable[[], Awaitable[None]],
        check_compaction: Callable[[AssistantMessage | None, bool, StopMark | None], Awaitable[None]],
    ) -> None:
        self._agent = agent
        self._settings = settings
        self._emit = emit
        self._notify = notify
        self._sleep = sleep
        self._continue_run = continue_run
        self._check_compaction = check_compaction
        self._attempt = 0
        self._requests = 0  # HTTP requests of the failed attempts of this cycle (provider retries included)
        self._abort: AbortController | None = None
        self._retrying = False

    @property
    def is_retrying(self) -> bool:
        """True from ``auto_retry_start`` until the retry cycle ends."""
        return self._retrying

    @property
    def attempt(self) -> int:
        """Current retry attempt (0 when not retrying)."""
        return self._attempt

    def abort(self) -> None:
        """Cancel a pending retry wait (the cycle ends with ``Retry cancelled``)."""
        if self._abort is not None:
            self._abort.abort()

    def should_retry(self, message: AssistantMessage) -> bool:
        """True when retry is on and ``message`` is a retryable error (§3.10)."""
        if not self._settings.retry.enabled:
            return False
        model = self._agent.state.model
        return is_retryable_error(message, model.context_window if model is not None else None)

    def on_successful_assistant(self) -> None:
        """A successful assistant reply ends a running cycle with ``auto_retry_end{success:true}``."""
        if self._attempt > 0:
            attempt = self._attempt
            self._attempt = 0
            self._requests = 0
            self._retrying = False
            self._emit(AutoRetryEndEvent(success=True, attempt=attempt))

    def _end(self, attempt: int, final_error: str) -> None:
        self._attempt = 0
        self._requests = 0
        self._retrying = False
        self._emit(AutoRetryEndEvent(success=False, attempt=attempt, final_error=final_error))

    def _cancelled(self) -> None:
        """The run was stopped: a running cycle ends as cancelled (pi 1.6's ``_finishCancelledRetry``)."""
        if self._attempt > 0:
            self._end(self._attempt, "Retry cancelled")

    async def run(self, message: AssistantMessage, mark: StopMark | None = None) -> None:
        """One retry step for the failed ``message`` (the follow-on task of its ``agent_end``); ``mark``: taken
        when the run started (a stop requested after it wins, see the module docstring)."""
        if mark is not None and mark.stopped:
            self._cancelled()
            return
        settings = self._settings.retry
        self._attempt += 1
        attempt = self._attempt
        error = message.error_message or "Unknown error"
        self._requests += requests_of(message)
        if attempt > settings.max_retries:
            requests = self._requests
            self._end(attempt - 1, error)
            # pi's wording, counting what happened (issue 9: "after 3 attempts" while 12 requests were sent):
            # every attempt (the first one included) and, when the provider client retried too, every request
            hint = connection_hint(error, self._agent.state.model)  # which server could not be reached
            counted = f"{attempt} attempts" + (f" ({requests} requests)" if requests > attempt else "")
            if attempt > 1:
                self._notify("error", f"Retry failed after {counted}: {summarize_error(error).one_line()}{hint}")
            elif hint:  # no retry was due (maxRetries 0): the failed reply is the error; only say which server
                self._notify("error", f"Could not reach the server{hint}")
            await self._check_compaction(message, True, mark)
            return
        delay = retry_delay_ms(message, attempt, settings)
        if delay is None:
            self._end(attempt - 1, error)
            self._notify("error", f"The server asked to wait longer than {settings.max_delay_ms // 1000}s; not retrying: {error}")
            return
        self._retrying = True
        self._emit(
            AutoRetryStartEvent(attempt=attempt, max_attempts=settings.max_retries, delay_ms=delay, error_message=error)
        )
        messages = self._agent.state.messages
        if messages and messages[-1] is message:
            self._agent.state.messages = messages[:-1]
        controller = AbortController()
        self._abort = controller
        try:
            await _abortable_sleep(self._sleep, delay / 1000, controller)
            await self._agent.wait_for_idle()
            await asyncio.sleep(0)  # a stop requested as the wait ended is seen before the request is sent
        finally:
            self._abort = None
        if controller.signal.aborted or (mark is not None and mark.stopped):
            self._end(attempt, "Retry cancelled")
            self._notify("info", "Retry cancelled")
            return
        try:
            await self._continue_run()
        except (RuntimeError, ValueError) as exc:
            self._end(attempt, str(exc))


async def _abortable_sleep(
    sleep: Callable[[float], Awaitable[Any]], seconds: float, controller: AbortController
) -> None:
    sleeper = asyncio.ensure_future(sleep(seconds))
    waiter = asyncio.ensure_future(controller.signal.wait())
    try:
        await asyncio.wait({sleeper, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sleeper, waiter):
            if not task.done():
                task.cancel()
