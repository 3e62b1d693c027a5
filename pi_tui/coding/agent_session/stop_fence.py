"""The stop fence of a session: a stop request ends the logical run it stops, post-run work included.

pi 0.86.0 (#9340, #9777): a host that called ``abort()`` as a failed reply was published still got a retry or an
automatic compaction, started by the run's post-run handling after the abort had returned (there was nothing to
abort yet); a stop that came between two steps of a retry or compaction (after the back-off wait, while the
``session_before_compact`` hook ran) was missed. pi 0.77.0 (#5029): ``dispose()`` left that work running.

Every stop (``AgentSession.abort``, ``dispose``, a session switch) calls :meth:`StopFence.stop`. Work that
belongs to a run takes a :class:`StopMark` when the run starts (``agent_start``, or the start of ``prompt`` for
the pre-prompt compaction check, or the start of ``/compact``) and checks :attr:`StopMark.stopped` before each
step it would start: a retry, a compaction, a continuation of the run.
"""

from __future__ import annotations


class StopFence:
    """Counts stop requests of one session (no locking: one event loop)."""

    def __init__(self) -> None:
        self._stops = 0

    def stop(self) -> None:
        """A stop was requested: every mark taken before now reports ``stopped``."""
        self._stops += 1

    def mark(self) -> StopMark:
        """A mark for work starting now."""
        return StopMark(self, self._stops)


class StopMark:
    """Whether a stop was requested since the mark was taken (:meth:`StopFence.mark`)."""

    def __init__(self, fence: StopFence, at: int) -> None:
        self._fence = fence
        self._at = at

    @property
    def stopped(self) -> bool:
        """True once :meth:`StopFence.stop` was called after this mark was taken."""
        return self._fence._stops != self._at  # noqa: SLF001 (the fence's own mark)
