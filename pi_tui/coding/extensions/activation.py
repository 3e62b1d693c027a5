"""Loading an extension off the event loop, with a word when it is slow and a limit (tester2 #11).

An extension's import and its plain ``def activate(pi)`` used to run on the event loop: one that blocked
(``time.sleep(40)``, a slow network call at import) froze the whole app for that long, with nothing naming the
cause and no error afterwards. pi 0.73 (docs/extensions.md) and pi 1.x (CHANGELOG.md) set no limit on loading
either; pi-tui holds the load to the handler timeout instead (DIFFERENCES.md):

* :func:`run_off_loop` runs the step in a worker thread, so the app keeps drawing and taking keys; after
  :data:`SLOW_NOTICE_S` it reports ``Loading extension NAME… (N s)`` through ``on_slow`` (the TUI's status line),
  again every :data:`SLOW_REPEAT_S`, and ``None`` once the step is over; a step still running after ``limit``
  seconds (the handler timeout) raises ``TimeoutError`` (the runtime reports it as the extension's
  ``load``/``activate`` failure and takes back what it registered; the thread cannot be stopped and ends on its
  own, unheard).
* :class:`LoopBound` is the ``pi`` object such an ``activate`` gets: every call it makes from the worker thread
  runs on the event loop (the registries are not thread-safe), and the same object called later from the loop
  (a handler keeping ``pi``) calls straight through. Once the activation was given up on, every call raises.

An ``async def activate`` runs on the loop as before (its awaits give the loop back; the runner's timeout holds
it to the same limit).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any

SLOW_NOTICE_S = 2.0
"""Seconds a load step may take before the user is told which extension it is."""

SLOW_REPEAT_S = 5.0
"""Seconds between later updates of that notice."""

_PLAIN = (str, bytes, int, float, bool, type(None), tuple, list, dict, frozenset, set)


class LoopBound:
    """``target`` (an extension's ``pi``) with its calls from other threads run on ``loop`` (module docstring);
    attributes that are objects (``pi.events``) are bound the same way. Made on the loop's thread. ``name``
    names the extension in the error raised after :meth:`close`."""

    def __init__(self, target: Any, loop: asyncio.AbstractEventLoop, name: str,
                 closed: list[bool] | None = None) -> None:
        self._target = target
        self._loop = loop
        self._loop_thread = threading.get_ident()  # made on the loop's thread
        self._name = name
        self._closed = closed if closed is not None else [False]  # shared with the bound attributes

    def close(self) -> None:
        """Refuse every call from now on (the activation was given up on)."""
        self._closed[0] = True

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._target, attr)
        if callable(value):
            return lambda *args, **kwargs: self._call(value, args, kwargs)
        if isinstance(value, _PLAIN):
            return value
        return LoopBound(value, self._loop, self._name, self._closed)

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self._closed[0]:
            raise RuntimeError(f'Extension "{self._name}" was left out (it took too long to load)')
        if threading.get_ident() == self._loop_thread:
            return fn(*args, **kwargs)
        done: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # noqa: BLE001 - handed to the calling thread as it is
                done.set_exception(exc)

        self._loop.call_soon_threadsafe(run)
        return done.result()


async def run_off_loop(step: Callable[[], Any], *, name: str, limit: float,
                       on_slow: Callable[[str | None], None] | None = None) -> Any:
    """``step()`` in a worker thread; its result or what it raised. After :data:`SLOW_NOTICE_S` (then every
    :data:`SLOW_REPEAT_S`) ``on_slow(text)`` names the extension ``name``; ``on_slow(None)`` once it is over if
    it was called. Raises ``TimeoutError`` after ``limit`` seconds (the thread is left to end on its own)."""
    loop = asyncio.get_running_loop()
    future = _in_daemon_thread(loop, step, name)
    started = loop.time()
    said = False
    try:
        wait = min(SLOW_NOTICE_S, limit)
        while True:
            done, _ = await asyncio.wait({future}, timeout=wait)
            if done:
                return future.result()
            elapsed = loop.time() - started
            if elapsed >= limit:
                raise TimeoutError(f"did not finish within {limit:g} s (does it block, e.g. time.sleep?); "
                                   "left out")
            if on_slow is not None:
                said = True
                on_slow(f"Loading extension {name}… ({elapsed:.0f} s; given up after {limit:g} s)")
            wait = min(SLOW_REPEAT_S, limit - elapsed)
    finally:
        if said and on_slow is not None:
            on_slow(None)


def _in_daemon_thread(loop: asyncio.AbstractEventLoop, step: Callable[[], Any], name: str) -> asyncio.Future[Any]:
    """``step()`` in a daemon thread of its own (not the loop's executor: a step that never ends must not keep
    the app from exiting, which waits for the executor's threads); its outcome as a future of ``loop``."""
    future: asyncio.Future[Any] = loop.create_future()

    def settle(ok: bool, value: Any) -> None:
        if not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def run() -> None:
        try:
            outcome: tuple[bool, Any] = (True, step())
        except BaseException as exc:  # noqa: BLE001 - handed to the loop as it is
            outcome = (False, exc)
        try:
            loop.call_soon_threadsafe(settle, *outcome)
        except RuntimeError:  # the loop is gone (the app quit meanwhile): nobody waits for it
            pass

    future.add_done_callback(_retrieve)  # a step given up on may fail later: never "exception not retrieved"
    threading.Thread(target=run, name=f"extension-load:{name}", daemon=True).start()
    return future


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
