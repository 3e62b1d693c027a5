"""The session's event fan-out to its listeners (pi's ``AgentSession._emit``; pi-reference §3.5).

Extension handlers run before these listeners: agent events go through ``SessionHooks.agent_event`` in
``AgentEventProcessor.handle`` first, then here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger("pi_tui.coding.agent_session")

SessionListener = Callable[[Any], Any]


class EventFanOut:
    """Listeners in subscription order; a listener that raises is logged and the others still run."""

    def __init__(self) -> None:
        self._listeners: dict[int, SessionListener] = {}
        self._next_listener = 0

    def subscribe(self, listener: SessionListener) -> Callable[[], None]:
        """Add ``listener(event)`` (sync; a returned coroutine is scheduled, not awaited); returns unsubscribe."""
        key = self._next_listener
        self._next_listener += 1
        self._listeners[key] = listener

        def unsubscribe() -> None:
            self._listeners.pop(key, None)

        return unsubscribe

    def emit(self, event: Any) -> None:
        """Give ``event`` to every listener, in order (a broken listener must not break the session)."""
        for listener in list(self._listeners.values()):
            try:
                result = listener(event)
                if asyncio.iscoroutine(result):
                    asyncio.ensure_future(result)
            except Exception:
                log.exception("session listener failed on %s", getattr(event, "type", event))
