"""Abort signal shared by the agent loop, provider streams and tools (DESIGN.md "Concurrency").

A run owns one :class:`AbortController`; everything that must stop when the user aborts watches its
:class:`AbortSignal`. An abort is data, not an exception: providers turn it into an assistant message
with ``stop_reason="aborted"`` and tools into an error result. Listener callbacks never raise out of
:meth:`AbortController.abort` (pi-reference §5 item 2).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class AbortError(Exception):
    """Raised by :meth:`AbortSignal.throw_if_aborted`; message defaults to ``"Operation aborted"``."""

    def __init__(self, message: str = "Operation aborted") -> None:
        super().__init__(message)


class AbortSignal:
    """Read side of an abort: ``aborted``, ``reason``, listeners and an awaitable :meth:`wait`.

    Mirrors the web ``AbortSignal`` used by pi. Listeners run synchronously, once, when the signal
    fires (or immediately if added after it fired); exceptions in listeners are logged and swallowed.
    """

    __slots__ = ("_aborted", "_reason", "_listeners", "_event")

    def __init__(self) -> None:
        self._aborted = False
        self._reason: Any = None
        self._listeners: list[Callable[[], Any]] = []
        self._event: asyncio.Event | None = None

    @property
    def aborted(self) -> bool:
        """True once the controller has aborted."""
        return self._aborted

    @property
    def reason(self) -> Any:
        """Whatever was passed to :meth:`AbortController.abort` (None if nothing)."""
        return self._reason

    def add_listener(self, callback: Callable[[], Any]) -> Callable[[], None]:
        """Call ``callback()`` when the signal fires; returns a function that removes it."""
        if self._aborted:
            _safe_call(callback)
            return lambda: None
        self._listeners.append(callback)

        def remove() -> None:
            try:
                self._listeners.remove(callback)
            except ValueError:
                pass

        return remove

    async def wait(self) -> None:
        """Return once the signal has fired (immediately if it already has)."""
        if self._aborted:
            return
        if self._event is None:
            self._event = asyncio.Event()
        await self._event.wait()

    def throw_if_aborted(self, message: str = "Operation aborted") -> None:
        """Raise :class:`AbortError` if aborted."""
        if self._aborted:
            raise AbortError(message)

    def _fire(self, reason: Any) -> None:
        if self._aborted:
            return
        self._aborted = True
        self._reason = reason
        listeners, self._listeners = self._listeners, []
        for cb in listeners:
            _safe_call(cb)
        if self._event is not None:
            self._event.set()


class AbortController:
    """Owner of an :class:`AbortSignal`; :meth:`abort` fires it once (later calls are no-ops)."""

    __slots__ = ("signal",)

    def __init__(self) -> None:
        self.signal = AbortSignal()

    def abort(self, reason: Any = None) -> None:
        """Fire the signal. Never raises."""
        self.signal._fire(reason)


def _safe_call(cb: Callable[[], Any]) -> None:
    try:
        cb()
    except Exception:  # a listener must never break abort (pi-reference §5.2)
        log.exception("abort listener raised")
