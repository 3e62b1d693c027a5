"""The AssistantMessageEvent protocol and its async event stream (pi-reference §1.10–§1.11).

Every event except ``done``/``error`` carries ``partial``: the assistant message under construction.
The built-in HTTP providers give ``start`` a snapshot taken when it is pushed (what pi's ``message_start``
shows) and mutate one working message in place for the block events (aliasing, §1.10 item 7); consumers
that keep a block event's ``partial`` past the event must copy it. Exactly one terminal event ends a stream and it is last.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Generic, Literal, TypeVar

from pydantic import Field

from .types import AssistantMessage, PiModel, ToolCall, now_ms


class _Ev(PiModel):
    pass


class StartEvent(_Ev):
    type: Literal["start"] = "start"
    partial: AssistantMessage


class TextStartEvent(_Ev):
    type: Literal["text_start"] = "text_start"
    content_index: int
    partial: AssistantMessage


class TextDeltaEvent(_Ev):
    type: Literal["text_delta"] = "text_delta"
    content_index: int
    delta: str
    partial: AssistantMessage


class TextEndEvent(_Ev):
    type: Literal["text_end"] = "text_end"
    content_index: int
    content: str
    partial: AssistantMessage


class ThinkingStartEvent(_Ev):
    type: Literal["thinking_start"] = "thinking_start"
    content_index: int
    partial: AssistantMessage


class ThinkingDeltaEvent(_Ev):
    type: Literal["thinking_delta"] = "thinking_delta"
    content_index: int
    delta: str
    partial: AssistantMessage


class ThinkingEndEvent(_Ev):
    type: Literal["thinking_end"] = "thinking_end"
    content_index: int
    content: str
    partial: AssistantMessage


class ToolCallStartEvent(_Ev):
    type: Literal["toolcall_start"] = "toolcall_start"
    content_index: int
    partial: AssistantMessage


class ToolCallDeltaEvent(_Ev):
    type: Literal["toolcall_delta"] = "toolcall_delta"
    content_index: int
    delta: str
    partial: AssistantMessage


class ToolCallEndEvent(_Ev):
    type: Literal["toolcall_end"] = "toolcall_end"
    content_index: int
    tool_call: ToolCall
    partial: AssistantMessage


class DoneEvent(_Ev):
    type: Literal["done"] = "done"
    reason: Literal["stop", "length", "toolUse"]
    message: AssistantMessage


class ErrorEvent(_Ev):
    type: Literal["error"] = "error"
    reason: Literal["error", "aborted"]
    error: AssistantMessage


AssistantMessageEvent = Annotated[
    StartEvent | TextStartEvent | TextDeltaEvent | TextEndEvent | ThinkingStartEvent | ThinkingDeltaEvent | ThinkingEndEvent | ToolCallStartEvent | ToolCallDeltaEvent | ToolCallEndEvent | DoneEvent | ErrorEvent,
    Field(discriminator="type"),
]

T = TypeVar("T")
R = TypeVar("R")


class EventStream(Generic[T, R]):
    """Single-producer async event queue with a final result (pi-reference §1.11).

    ``push(evt)`` is ignored once the stream is done; a terminal event (per ``is_complete``) marks it
    done and resolves :meth:`result` with ``extract_result(evt)``. ``end(result)`` finishes the stream.
    Iteration yields queued events then returns when done; several iterators share one queue (each
    event is delivered once). Unlike pi, ``result()`` never hangs: if the stream ends with no
    terminal event and no result, it resolves with ``fallback()``.
    """

    def __init__(
        self,
        is_complete: Callable[[T], bool],
        extract_result: Callable[[T], R],
        fallback: Callable[[], R] | None = None,
    ) -> None:
        self._is_complete = is_complete
        self._extract = extract_result
        self._fallback = fallback
        self._queue: deque[T] = deque()
        self._done = False
        self._waiters: list[asyncio.Future[None]] = []
        self._result_value: tuple[R] | None = None

    @property
    def done(self) -> bool:
        """True once a terminal event was pushed or :meth:`end` was called."""
        return self._done

    def push(self, event: T) -> None:
        """Queue ``event`` for consumers; a terminal event completes the stream."""
        if self._done:
            return
        if self._is_complete(event):
            self._done = True
            if self._result_value is None:
                self._result_value = (self._extract(event),)
        self._queue.append(event)
        self._wake()

    def end(self, result: R | None = None) -> None:
        """Finish the stream; ``result`` (if given and none was set) becomes the final value."""
        if result is not None and self._result_value is None:
            self._result_value = (result,)
        self._done = True
        self._wake()

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for w in waiters:
            if not w.done():
                w.set_result(None)

    async def _wait_change(self) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        await fut

    def __aiter__(self) -> AsyncIterator[T]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[T]:
        while True:
            if self._queue:
                yield self._queue.popleft()
                continue
            if self._done:
                return
            await self._wait_change()

    async def result(self) -> R:
        """The final value; waits for the stream to finish. Never hangs once the producer ended."""
        while self._result_value is None and not self._done:
            await self._wait_change()
        if self._result_value is None:
            if self._fallback is None:
                raise RuntimeError("stream ended without a result")
            self._result_value = (self._fallback(),)
        return self._result_value[0]


def _is_terminal(e: AssistantMessageEvent) -> bool:
    return e.type in ("done", "error")


def _extract(e: AssistantMessageEvent) -> AssistantMessage:
    if isinstance(e, DoneEvent):
        return e.message
    if isinstance(e, ErrorEvent):
        return e.error
    raise TypeError("not a terminal event")


class AssistantMessageEventStream(EventStream[AssistantMessageEvent, AssistantMessage]):
    """Stream of :data:`AssistantMessageEvent`; ``await result()`` gives the final AssistantMessage.

    If the producer ends without ``done``/``error``, the result is an error message
    (``stop_reason="error"``, ``error_message="Stream ended without a terminal event"``) built from
    the last ``partial`` seen, so callers never hang (pi-reference §6 "EventStream").
    """

    def __init__(self) -> None:
        self._last_partial: AssistantMessage | None = None
        super().__init__(_is_terminal, _extract, self._synth_error)

    def push(self, event: AssistantMessageEvent) -> None:
        partial = getattr(event, "partial", None)
        if partial is not None:
            self._last_partial = partial
        super().push(event)

    def _synth_error(self) -> AssistantMessage:
        base = self._last_partial
        msg = (
            base.model_copy(deep=True)
            if base is not None
            else AssistantMessage(content=[], timestamp=now_ms())
        )
        msg.stop_reason = "error"
        msg.error_message = msg.error_message or "Stream ended without a terminal event"
        return msg


def create_assistant_message_event_stream() -> AssistantMessageEventStream:
    """Factory kept for parity with pi's ``createAssistantMessageEventStream``."""
    return AssistantMessageEventStream()
