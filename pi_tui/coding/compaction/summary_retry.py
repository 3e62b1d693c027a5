"""Retrying a summary request after a transient provider failure (pi 0.81.1, PI_FIXES.md "Retry").

pi 0.73 made one summary request per compaction or branch summary: a ``503`` or a dropped connection failed the
whole compaction. pi 0.81.1 retries those requests with the session's ``retry.*`` policy (the same transient-error
classification and back-off as the agent's auto-retry, :mod:`pi_tui.coding.retry`) and tells its consumers through
three events (pi 1.x ``docs/json.md``)::

    summarization_retry_scheduled {attempt, maxAttempts, delayMs, errorMessage}
    summarization_retry_attempt_start {source: "compaction" | "branchSummary", reason?}
    summarization_retry_finished {}

This module knows nothing of events: :class:`SummaryRetry` carries three callbacks the session turns into them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.types import AssistantMessage
from pi_tui.coding.retry import RetrySettings, is_retryable_error, retry_delay_ms


def _no_scheduled(attempt: int, max_attempts: int, delay_ms: int, error_message: str) -> None:
    return None


def _nothing() -> None:
    return None


@dataclass
class SummaryRetry:
    """How a summary request is retried.

    ``settings``: the session's ``retry.*`` (``enabled``, ``max_retries``, ``base_delay_ms``, ``max_delay_ms``);
    ``on_scheduled(attempt, max_attempts, delay_ms, error_message)``: a retry waits ``delay_ms`` ms (attempt is
    1-based); ``on_attempt_start()``: the retried request starts; ``on_finished()``: the retry cycle ended
    (success or not; only called when at least one retry was scheduled); ``sleep(seconds)``: the wait (tests pass a
    fake one).
    """

    settings: RetrySettings
    on_scheduled: Callable[[int, int, int, str], None] = _no_scheduled
    on_attempt_start: Callable[[], None] = _nothing
    on_finished: Callable[[], None] = _nothing
    sleep: Callable[[float], Awaitable[object]] = field(default=asyncio.sleep)


async def request_with_retry(
    request: Callable[[], Awaitable[AssistantMessage]],
    retry: SummaryRetry | None,
    signal: AbortSignal | None,
    context_window: int | None = None,
) -> AssistantMessage:
    """Run ``request()`` and retry it while its reply is a transient error (pi 0.81.1).

    Returns the last reply: a success, a permanent error (context overflow, quota, a 400), or the transient error
    of the last allowed attempt. Nothing is retried when ``retry`` is None or ``retry.settings.enabled`` is false,
    after an abort (``signal``), or when the server asks for a delay above ``max_delay_ms``. The back-off wait
    ends at once on abort and the aborted reply is returned as it came.
    """
    reply = await request()
    if retry is None or not retry.settings.enabled:
        return reply
    attempt = 0
    try:
        while (
            reply.stop_reason == "error"
            and attempt < retry.settings.max_retries
            and not (signal is not None and signal.aborted)
            and is_retryable_error(reply, context_window)
        ):
            attempt += 1
            delay = retry_delay_ms(reply, attempt, retry.settings)
            if delay is None:
                break
            retry.on_scheduled(attempt, retry.settings.max_retries, delay, reply.error_message or "")
            if await _wait(retry.sleep, delay / 1000, signal):
                break
            retry.on_attempt_start()
            reply = await request()
    finally:
        if attempt:
            retry.on_finished()
    return reply


async def _wait(sleep: Callable[[float], Awaitable[object]], seconds: float, signal: AbortSignal | None) -> bool:
    """Sleep ``seconds``; True when ``signal`` aborted the wait."""
    if signal is None:
        await sleep(seconds)
        return False
    if signal.aborted:
        return True
    sleeper = asyncio.ensure_future(sleep(seconds))
    waiter = asyncio.ensure_future(signal.wait())
    try:
        await asyncio.wait({sleeper, waiter}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sleeper, waiter):
            if not task.done():
                task.cancel()
    return signal.aborted
