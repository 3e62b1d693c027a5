"""Handler timeouts (pi docs/extensions.md "Error Handling"): :class:`HandlerClock`.

An async handler gets ``timeout`` seconds; time spent waiting for the user in a dialog (:meth:`HandlerClock.
dialog`) does not count, so a permission gate may wait for its answer.

Two ways to hold a handler to it:

* :meth:`HandlerClock.call` runs an awaitable in an ``asyncio.timeout_at`` scope (armed only once the
  coroutine suspends: one that finishes at its first step needs no timer);
* a handler loop (the hot path of every streamed event) awaits the handlers' coroutines directly and does
  nothing per handler or per loop for its timeout but one check that the watchdog is armed
  (:meth:`HandlerClock.ensure_watchdog`). The watchdog, one timer that looks every quarter of the timeout,
  walks each task's chain of awaits (``cr_await``); where it passes a frame of a handler loop (its code object
  is in :attr:`HandlerClock.loop_codes`), the next link is the handler coroutine being awaited. A handler
  coroutine seen at 5 looks in a row (looks stop while a dialog is open) has run at least a timeout and at most
  1.25 timeouts: its task is cancelled, and :meth:`~HandlerClock.expired` then tells the loop that the
  ``CancelledError`` is a timeout (the task's cancel request is taken back). The watchdog disarms itself when
  no task is inside a handler loop. Before, each loop registered a watch object and set a reference to the
  coroutine it awaited around every handler: about a fifth of an ``async def`` no-op handler's cost.

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
"""The watchdog looks every ``timeout / 4``: a handler coroutine seen at 4 more looks after the first (the same
coroutine each time, no dialog open) has run at least a timeout, and at most 1.25 timeouts."""

_get_running_loop = asyncio.get_running_loop


class HandlerClock:
    """Timeouts of async handlers (module docstring). ``timeout``: seconds. ``loop_codes``: the code objects of
    the handler loops whose directly awaited coroutines the watchdog holds to the timeout."""

    def __init__(self, timeout: float, loop_codes: frozenset[Any] = frozenset()) -> None:
        self.timeout = timeout
        self.loop_codes = loop_codes
        self._dialogs_open = 0
        self._dialog_started = 0.0
        self._scopes: dict[asyncio.Timeout, float] = {}  # running call() scopes -> their deadlines
        self._looks: dict[Any, int] = {}  # handler coroutine -> looks in a row it was seen awaited
        self._timed_out: dict[Any, asyncio.Task[Any]] = {}  # handler coroutine -> the task cancelled for it
        self.armed_on: asyncio.AbstractEventLoop | None = None
        """The event loop the watchdog timer runs on (None: disarmed)."""

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

    # ------------------------------------------------------------------ the watchdog of handler loops

    def ensure_watchdog(self) -> None:
        """Arm the watchdog on the running loop unless it is armed there (each ``asyncio.run`` has its own
        loop; a handler loop calls this once before its handlers)."""
        if self.armed_on is not _get_running_loop():
            self._arm(_get_running_loop())

    def expired(self, coro: Any) -> bool:
        """True when the ``CancelledError`` raised while awaiting the handler coroutine ``coro`` was the
        watchdog's: the task's cancel request is taken back, and the loop reports a timeout instead."""
        task = self._timed_out.pop(coro, None) if coro is not None else None
        if task is None:
            return False
        self._looks.pop(coro, None)
        task.uncancel()
        return True

    def timeout_error(self) -> TimeoutError:
        """The error a timed-out handler is reported with."""
        return TimeoutError(f"no answer within {self.timeout:g}s")

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        self.armed_on = loop
        loop.call_later(max(self.timeout / CHECKS_PER_TIMEOUT, 0.005), self._check, loop)

    def _awaited_handlers(self) -> tuple[list[tuple[Any, asyncio.Task[Any]]], bool]:
        """``([(handler coroutine, its task)], any handler loop running)`` over every task's await chain."""
        found: list[tuple[Any, asyncio.Task[Any]]] = []
        in_loop = False
        codes = self.loop_codes
        call_code = HandlerClock.call.__code__
        for task in asyncio.all_tasks():
            link: Any = task.get_coro()
            for _ in range(1000):  # await chains are short; a cycle cannot hang the watchdog
                if link is None:
                    break
                awaited = getattr(link, "cr_await", None) or getattr(link, "gi_yieldfrom", None)
                if getattr(link, "cr_code", None) in codes:
                    in_loop = True
                    if awaited is not None and getattr(awaited, "cr_code", None) is not call_code:
                        found.append((awaited, task))  # call() keeps its own timer
                link = awaited
        return found, in_loop

    def _check(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.armed_on is not loop:
            return  # re-armed on another loop meanwhile
        found, in_loop = self._awaited_handlers()
        for coro in [c for c in self._timed_out if getattr(c, "cr_frame", None) is None]:
            del self._timed_out[coro]  # finished without the loop asking (it caught the cancel)
        if not self._dialogs_open:  # dialog time does not count: the looks stop while one is open
            looks = {coro: self._looks.get(coro, 0) + 1 for coro, _ in found}
            self._looks = looks
            for coro, task in found:
                if looks[coro] > CHECKS_PER_TIMEOUT and coro not in self._timed_out:
                    self._timed_out[coro] = task
                    task.cancel()
        if in_loop or self._timed_out:
            self._arm(loop)
        else:
            self.armed_on = None
            self._looks = {}


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
