"""Handler timeouts (pi docs/extensions.md "Error Handling"): :class:`HandlerClock`.

An async handler gets ``timeout`` seconds; time spent waiting for the user in a dialog (:meth:`HandlerClock.
dialog`) does not count, so a permission gate may wait for its answer.

Two ways to hold a handler to it:

* :meth:`HandlerClock.call` runs an awaitable in an ``asyncio.timeout_at`` scope (armed only once the
  coroutine suspends: one that finishes at its first step needs no timer);
* :meth:`HandlerClock.watch` / :meth:`~HandlerClock.unwatch` bracket a handler loop that awaits the handlers'
  coroutines directly (the hot path of every streamed event): per handler only a reference to the coroutine is
  set; one watchdog timer, armed while a loop is watched, looks every quarter of the timeout and cancels the
  task of a handler it has seen awaiting four looks in a row (so a hung handler is stopped between 1 and 1.25
  timeouts; looks stop while a dialog is open); :meth:`~HandlerClock.expired` then tells the runner that the
  ``CancelledError`` is a timeout (the task's cancel request is taken back).

Awaiting a coroutine (``await coro``) finishes it without raising ``StopIteration``, which stepping it by hand
(``coro.send(None)``) does: that exception was most of the cost of an ``async def`` no-op handler
(``bench/extensions.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import types
from collections.abc import AsyncIterator
from typing import Any

CHECKS_PER_TIMEOUT = 4
"""The watchdog looks every ``timeout / 4``: a handler seen awaiting at 4 looks in a row (the same coroutine
each time, no dialog open) has run at least a timeout, and at most 1.25 timeouts."""


class Watch:
    """One handler loop being watched: the handler coroutine it awaits now (``coro``, None between handlers),
    the one the watchdog saw last (``seen``) and how many looks in a row it has seen it (``looks``); once the
    watchdog timed it out, the ``task`` it cancelled (``timed_out``)."""

    __slots__ = ("coro", "looks", "seen", "task", "timed_out")

    def __init__(self) -> None:
        self.coro: Any = None
        self.seen: Any = None
        self.looks = 0
        self.task: asyncio.Task[Any] | None = None
        self.timed_out = False


class HandlerClock:
    """Timeouts of async handlers (module docstring). ``timeout``: seconds."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._dialogs_open = 0
        self._dialog_started = 0.0
        self._scopes: dict[asyncio.Timeout, float] = {}  # running call() scopes -> their deadlines
        self._watches: list[Watch] = []
        self._watchdog: asyncio.TimerHandle | None = None
        self._watchdog_loop: asyncio.AbstractEventLoop | None = None

    # ------------------------------------------------------------------ dialogs

    @contextlib.asynccontextmanager
    async def dialog(self) -> AsyncIterator[None]:
        """Wrap a wait for the user: running timeouts are suspended while it lasts and extended by its length."""
        loop = asyncio.get_running_loop()
        if self._dialogs_open == 0:
            self._dialog_started = loop.time()
            for scope in self._scopes:
                scope.reschedule(None)
        self._dialogs_open += 1
        try:
            yield
        finally:
            self._dialogs_open -= 1
            if self._dialogs_open == 0:
                paused = loop.time() - self._dialog_started
                for scope, deadline in list(self._scopes.items()):
                    self._scopes[scope] = deadline + paused
                    scope.reschedule(deadline + paused)

    # ------------------------------------------------------------------ timer scopes

    async def call(self, awaitable: Any) -> Any:
        """Await ``awaitable`` within the timeout (dialog time excluded); raises ``TimeoutError``. A coroutine
        is first run up to its first suspension in place: one that never suspends is done without a timer."""
        if inspect.iscoroutine(awaitable):
            try:
                first = awaitable.send(None)
            except StopIteration as stop:
                return stop.value
            awaitable = resume(awaitable, first)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        async with asyncio.timeout_at(None if self._dialogs_open else deadline) as scope:
            self._scopes[scope] = deadline
            try:
                return await awaitable
            except TimeoutError:
                if scope.expired():
                    raise TimeoutError(f"no answer within {self.timeout:g}s") from None
                raise
            finally:
                self._scopes.pop(scope, None)

    # ------------------------------------------------------------------ watched coroutines

    def watch(self) -> Watch:
        """Start watching a handler loop (pair with :meth:`unwatch`); the loop sets ``watch.coro`` to the
        handler coroutine it awaits and back to None after it: no clock read, no timer and no question to
        asyncio per handler (the task is found only when a handler is overdue: :meth:`_check`)."""
        watch = Watch()
        self._watches.append(watch)
        if self._watchdog is None or self._watchdog_loop is None or self._watchdog_loop.is_closed():
            self._arm()  # none armed, or armed on a loop that has ended (each asyncio.run has its own)
        return watch

    def unwatch(self, watch: Watch) -> None:
        """The loop of ``watch`` is done."""
        watches = self._watches
        if watches and watches[-1] is watch:
            watches.pop()
        else:
            with contextlib.suppress(ValueError):
                watches.remove(watch)

    def expired(self, watch: Watch) -> bool:
        """True when the ``CancelledError`` that ended ``watch``'s handler was the watchdog's: the task's
        cancel request is taken back, and the runner reports a timeout instead (the loop goes on)."""
        if not watch.timed_out:
            return False
        watch.timed_out = False
        watch.coro = watch.seen = None
        watch.looks = 0
        if watch.task is not None:
            watch.task.uncancel()
            watch.task = None
        return True

    def timeout_error(self) -> TimeoutError:
        """The error a timed-out handler is reported with."""
        return TimeoutError(f"no answer within {self.timeout:g}s")

    def _arm(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._watchdog_loop = loop
        self._watchdog = loop.call_later(max(self.timeout / CHECKS_PER_TIMEOUT, 0.005), self._check)

    def _check(self) -> None:
        self._watchdog = None
        if not self._watches:
            return
        if not self._dialogs_open:  # dialog time does not count: the looks stop while one is open
            for watch in self._watches:
                coro = watch.coro
                if coro is None or coro is not watch.seen:
                    watch.seen, watch.looks = coro, 0
                    continue
                watch.looks += 1
                if watch.looks >= CHECKS_PER_TIMEOUT and not watch.timed_out:
                    task = _task_awaiting(coro)
                    if task is not None:
                        watch.timed_out, watch.task = True, task
                        task.cancel()
        self._arm()


def _task_awaiting(coro: Any) -> asyncio.Task[Any] | None:
    """The task whose chain of awaits reaches ``coro`` (None when none does)."""
    if coro is None:
        return None
    for task in asyncio.all_tasks():
        link: Any = task.get_coro()
        for _ in range(1000):  # await chains are short; a cycle cannot hang the watchdog
            if link is None:
                break
            if link is coro:
                return task
            link = getattr(link, "cr_await", None) or getattr(link, "gi_yieldfrom", None)
    return None


@types.coroutine
def resume(coro: Any, yielded: Any) -> Any:
    """Go on with ``coro`` after it already yielded ``yielded`` (what ``await coro`` would do from there)."""
    while True:
        try:
            sent = yield yielded
        except GeneratorExit:
            coro.close()
            raise
        except BaseException as exc:
            try:
                yielded = coro.throw(exc)
            except StopIteration as stop:
                return stop.value
        else:
            try:
                yielded = coro.send(sent)
            except StopIteration as stop:
                return stop.value
