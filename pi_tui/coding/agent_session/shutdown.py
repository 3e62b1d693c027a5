"""Bring an :class:`~pi_tui.coding.agent_session.AgentSession` to rest before the process exits.

Every way out of pi-tui (Ctrl+C twice, Ctrl+D, ``/quit``, SIGTERM, SIGHUP from a closed terminal, the end of
print/json/rpc mode) goes through :func:`settle_session`, so the session file is consistent whatever was
running: a streaming reply is aborted and saved as an assistant message with ``stopReason: "aborted"`` and the
partial content that was shown; running tools end with their (aborted) results; a user ``!cmd`` is killed and
recorded as a cancelled bash execution; a compaction or a retry countdown is cancelled. Nothing is cancelled
from outside (that is what printed ``CancelledError`` tracebacks and lost the partial reply): abort is data
(DESIGN.md "Concurrency"), so everything ends through its own abort path and the loop is left idle.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from typing import Any

log = logging.getLogger(__name__)

DEFAULT_SETTLE_TIMEOUT = 5.0
"""Seconds :func:`settle_session` waits for the aborted work to end before giving up (a tool that ignores its
abort signal must not keep the process alive)."""

_POLL = 0.01  # seconds between checks of work that is being aborted


UNSENT_NOTICE = "Not sent: queued when pi-tui quit"
"""The start of the notification that keeps queued messages the run never delivered (:func:`keep_unsent`)."""


def keep_unsent(session: Any, extra: list[str] | None = None) -> list[str]:
    """Take the steering and follow-up messages still queued on ``session`` (plus ``extra``: what a front end
    held itself, e.g. text typed during a compaction) and save them in one persisted warning notification, so
    a resumed session shows them (tester2 #1: a queued message was dropped without a trace by Ctrl+D or a
    closed terminal). Returns the texts kept; never raises (a session without queues keeps nothing)."""
    texts: list[str] = []
    clear = getattr(session, "clear_queue", None)
    try:
        if callable(clear):
            steering, follow_up = clear()
            texts = [*steering, *follow_up]
        texts = [t for t in [*texts, *(extra or [])] if t.strip()]
        notify = getattr(session, "notify", None)
        if texts and callable(notify):
            notify("warning", UNSENT_NOTICE + ":\n" + "\n".join(f"• {t}" for t in texts))
    except Exception:
        log.exception("keeping the unsent queued messages failed")
    return texts


def take_unstarted(session: Any) -> list[str]:
    """The texts of ``session``'s prompts that were asked for and have not started their run (tester2 #5: a
    quit during the first prompt's wait for MCP servers lost the prompt); they end without a run, so
    :func:`keep_unsent` keeps them. ``[]`` for a session without them; never raises."""
    unstarted = getattr(session, "unstarted_prompts", None)
    try:
        return list(unstarted.take()) if unstarted is not None else []
    except Exception:
        log.exception("taking the unstarted prompts failed")
        return []


def session_busy(session: Any) -> bool:
    """True while ``session`` streams, compacts, waits to retry or runs a user ``!cmd``."""
    return any(
        bool(getattr(session, name, False))
        for name in ("is_streaming", "is_compacting", "is_retrying", "is_bash_running")
    )


async def settle_session(session: Any, limit: float = DEFAULT_SETTLE_TIMEOUT, unsent: list[str] | None = None) -> bool:
    """Abort whatever ``session`` is doing and wait until its state is saved; True when it settled in time.

    Order: cancel a retry wait and a compaction, kill a user bash, abort the run through the session's own
    ``abort`` (which also stops its post-run work: no retry, compaction or continuation starts after it, so
    queued messages stay unsent; a plain agent abort for other session objects), then wait for the
    agent, its follow-on tasks (retry/compaction continuations) and the bash to end; finally record bash runs
    that were deferred while the agent streamed, keep what is still queued (:func:`keep_unsent`, with the
    prompts that had not started their run: :func:`take_unstarted`, taken first), and run the
    ``session_shutdown`` seam. Never raises (failures are logged, the caller exits anyway);
    ``limit`` is in seconds; ``unsent``: texts the front end held back itself, kept with the queued ones.
    """
    deadline = time.monotonic() + max(0.0, limit)
    unsent = [*take_unstarted(session), *(unsent or [])]  # first: they must not start once the abort lets them go
    kept = False

    def keep() -> None:  # once, whichever way settling ends (``extra`` texts must not be saved twice)
        nonlocal kept
        if not kept:
            kept = True
            keep_unsent(session, unsent)

    try:
        for name in ("abort_retry", "abort_compaction", "abort_bash"):
            method = getattr(session, name, None)
            if callable(method):
                method()
        stop = getattr(session, "abort", None)
        if inspect.iscoroutinefunction(stop):
            # the session's own abort also stops the run's post-run work (its stop fence): an agent-only abort
            # let a threshold compaction continue the aborted run with the queued messages after the app had
            # quit (new-user run #38: a queued steer reached the model and its write ran after Ctrl+D)
            await asyncio.wait_for(stop(), timeout=max(0.0, deadline - time.monotonic()))
        else:
            agent = getattr(session, "agent", None)
            if agent is not None and hasattr(agent, "abort"):
                agent.abort()
        waiter = getattr(session, "wait_for_idle", None)
        if callable(waiter):
            await asyncio.wait_for(waiter(), timeout=max(0.0, deadline - time.monotonic()))
        while session_busy(session):  # a user bash being killed, a manual compaction being cancelled
            if time.monotonic() > deadline:
                raise TimeoutError
            await asyncio.sleep(_POLL)
        flush = getattr(session, "flush_pending_bash", None)
        if callable(flush):
            flush()  # a ``!cmd`` that ended while the agent streamed is saved, not dropped
        keep()  # before the seam: an extension's session_shutdown sees the kept notification
        shutdown = getattr(session, "shutdown", None)
        if callable(shutdown):
            await shutdown()  # seam: session_shutdown (AgentSession.shutdown)
    except TimeoutError:
        log.warning("the session did not settle within %.1f s; exiting anyway", limit)
        return False
    except Exception:
        log.exception("settling the session before exit failed")
        return False
    finally:
        keep()
    return True
