"""PendingMessageQueue: the FIFO behind ``steer`` and ``follow_up`` (pi-reference §2.7 "Queues").

``drain()`` takes everything in mode ``"all"`` and only the first message in mode ``"one-at-a-time"``.
Beyond pi: :meth:`restore_front` puts drained messages back (in order) when their run ended before they
reached the transcript, and :meth:`pop_last` lets a UI pull the newest queued message back for editing.
"""

from __future__ import annotations

from typing import Any

from .types import QueueMode


class PendingMessageQueue:
    """FIFO of AgentMessages with a drain ``mode`` (``"one-at-a-time"`` or ``"all"``)."""

    __slots__ = ("mode", "_messages")

    def __init__(self, mode: QueueMode = "one-at-a-time") -> None:
        self.mode: QueueMode = mode
        self._messages: list[Any] = []

    def enqueue(self, message: Any) -> None:
        """Append ``message``."""
        self._messages.append(message)

    def has_items(self) -> bool:
        """True when at least one message is queued."""
        return bool(self._messages)

    def __len__(self) -> int:
        return len(self._messages)

    @property
    def messages(self) -> tuple[Any, ...]:
        """The queued messages, oldest first (a snapshot)."""
        return tuple(self._messages)

    def drain(self) -> list[Any]:
        """Remove and return all messages (mode ``all``) or the first one (``one-at-a-time``)."""
        if self.mode == "all":
            drained, self._messages = self._messages, []
            return drained
        if not self._messages:
            return []
        return [self._messages.pop(0)]

    def restore_front(self, messages: list[Any]) -> None:
        """Put ``messages`` back at the front, keeping their order (they were drained earlier)."""
        if messages:
            self._messages[0:0] = messages

    def pop_last(self) -> Any | None:
        """Remove and return the newest message (None when empty)."""
        return self._messages.pop() if self._messages else None

    def clear(self) -> None:
        """Drop every queued message."""
        self._messages = []
