"""The run of one provider stream and its uniform error path (pi-reference §1.10, §1.18).

``run_provider(model, options, produce, ...)``
    Builds the working ``output`` message (empty content, zero usage, ``stop_reason="stop"``), starts
    ``produce(output, stream)`` in its own asyncio task and returns the :class:`AssistantMessageEventStream`
    at once. ``produce`` pushes ``start`` and the block events and sets ``output.stop_reason``; it must not
    push ``done``/``error``. When it returns, ``run_provider`` pushes ``done`` (or ``error`` when
    ``output.stop_reason`` is ``error``/``aborted``, or the signal fired). Any exception, an abort included,
    becomes one ``error`` event: ``stop_reason = "aborted" if signal.aborted else "error"``, ``error_message``
    = the exception text, scratch fields stripped, and for :class:`ProviderHTTPError` a diagnostic
    ``{"type": "http_error", "timestamp": ms, "details": {"status", "retryAfterMs"}}``, and after a failed
    request loop (pi-tui) ``{"type": "requests", "details": {"count"}}`` (requests sent, retries included). No exception and
    no ``CancelledError`` ever escapes; the stream always ends with exactly one terminal event.

    Abort: while ``produce`` runs, the signal's listener cancels the producer task; the resulting
    ``CancelledError`` is caught at the scope boundary (``Task.uncancel``) and turned into an
    ``AbortError``. An abort therefore ends a stalled read at once and closes the connection (httpx closes
    the response on the way out). The ``error_message`` of an aborted run is ``abort_messages[0]`` if no 2xx
    response had arrived yet, else ``abort_messages[1]`` (default ``Request was aborted`` for both; the
    OpenAI providers use ``Request was aborted.`` before the response, like the OpenAI SDK, pi observation 9).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from ..abort import AbortError, AbortSignal
from ..events import AssistantMessageEventStream, DoneEvent, ErrorEvent
from ..options import StreamOptions
from ..types import AssistantMessage, Model, now_ms
from ._http import (
    DEFAULT_ABORT_MESSAGES,
    SCRATCH_FIELDS,
    STREAM_ABORT_MESSAGE,
    ProviderHTTPError,
    ProviderStopError,
    _active_signal,
    _responded,
    abort_scope,
)


def new_output(model: Model) -> AssistantMessage:
    """The working message of a provider run: empty content, zero usage, ``stop_reason="stop"``, now."""
    return AssistantMessage(
        content=[],
        api=model.api,
        provider=model.provider,
        model=model.id,
        stop_reason="stop",
        timestamp=now_ms(),
    )


def strip_scratch(output: AssistantMessage) -> None:
    """Delete parsing scratch fields (``partialJson``, ``index``, ...) kept as extras on blocks (§1.10 item 8)."""
    for block in output.content:
        extra = block.__pydantic_extra__
        if extra:
            for key in SCRATCH_FIELDS:
                extra.pop(key, None)


def add_diagnostic(output: AssistantMessage, type_: str, details: dict[str, Any]) -> None:
    """Append ``{"type", "timestamp", "details"}`` to ``output.diagnostics``."""
    if output.diagnostics is None:
        output.diagnostics = []
    output.diagnostics.append({"type": type_, "timestamp": now_ms(), "details": details})


Producer = Callable[[AssistantMessage, AssistantMessageEventStream], Awaitable[None]]

_running: set[asyncio.Task[None]] = set()


def run_provider(
    model: Model,
    options: StreamOptions | None,
    produce: Producer,
    *,
    error_stop_message: str = "An unknown error occurred",
    error_detail: Callable[[BaseException], str | None] | None = None,
    abort_messages: tuple[str, str] = DEFAULT_ABORT_MESSAGES,
) -> AssistantMessageEventStream:
    """Run ``produce(output, stream)`` in a task and return the stream at once (module docstring).

    ``error_stop_message`` is the ``error_message`` used when ``produce`` ends with ``stop_reason``
    ``error``/``aborted`` without setting one. ``error_detail(exc)`` may return extra text appended on a
    new line to the error message (OpenRouter ``error.metadata.raw``). ``abort_messages`` =
    ``(before_response, after_response)``: the ``error_message`` of an aborted run, chosen by whether
    :func:`open_sse` had received a 2xx response (pi's texts come from the vendor SDK before the response
    and from pi or the runtime after it; see :data:`SDK_ABORT_MESSAGE`). Must be called in a running loop.
    """
    stream = AssistantMessageEventStream()
    output = new_output(model)
    signal = options.signal if options is not None else None

    async def runner() -> None:
        _active_signal.set(None)  # this task's own context: a caller's abort scope must not disarm ours
        _responded.set(False)
        try:
            with abort_scope(signal):
                await produce(output, stream)
            if signal is not None and signal.aborted:
                raise AbortError(STREAM_ABORT_MESSAGE)
            if output.stop_reason in ("error", "aborted"):
                raise ProviderStopError(output.error_message or error_stop_message)
            strip_scratch(output)
            stream.push(DoneEvent(reason=output.stop_reason, message=output))  # type: ignore[arg-type]
        except (Exception, asyncio.CancelledError) as exc:
            if isinstance(exc, asyncio.CancelledError):
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()
            abort_message = abort_messages[1] if _responded.get() else abort_messages[0]
            _fail(output, stream, exc, signal, error_detail, abort_message)
        finally:
            stream.end()

    task = asyncio.get_running_loop().create_task(runner())
    _running.add(task)
    task.add_done_callback(_running.discard)
    return stream


def _fail(
    output: AssistantMessage,
    stream: AssistantMessageEventStream,
    exc: BaseException,
    signal: AbortSignal | None,
    error_detail: Callable[[BaseException], str | None] | None,
    abort_message: str = STREAM_ABORT_MESSAGE,
) -> None:
    strip_scratch(output)
    aborted = (signal is not None and signal.aborted) or isinstance(exc, asyncio.CancelledError)
    output.stop_reason = "aborted" if aborted else "error"
    if isinstance(exc, (asyncio.CancelledError, AbortError)):
        message = abort_message
    else:
        message = str(exc) or _json_or_name(exc)
    if error_detail is not None and not aborted:
        try:
            extra = error_detail(exc)
        except Exception:
            extra = None
        if extra:
            message = f"{message}\n{extra}"
    output.error_message = message
    if isinstance(exc, ProviderHTTPError):
        add_diagnostic(output, "http_error", {"status": exc.status, "retryAfterMs": exc.retry_after_ms})
    requests = getattr(exc, "requests", None)
    if isinstance(requests, int) and not aborted:
        add_diagnostic(output, "requests", {"count": requests})
    stream.push(ErrorEvent(reason=output.stop_reason, error=output))  # type: ignore[arg-type]


def _json_or_name(exc: BaseException) -> str:
    try:
        return json.dumps(exc.args) if exc.args else type(exc).__name__
    except (TypeError, ValueError):
        return type(exc).__name__


__all__ = ["add_diagnostic", "new_output", "run_provider", "strip_scratch"]
