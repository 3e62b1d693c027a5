"""Shared HTTP/SSE plumbing of the providers: request, retries, SSE framing, abort, uniform error path.

Every provider module uses the same three pieces (pi-reference §1.8, §1.10, §1.18):

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

``async with open_sse(url=..., headers=..., body=..., model=..., options=...) as events:``
    An async context manager. On entry it applies ``options.on_payload`` (sync or async; a non-None return
    replaces the body), strips lone surrogates from every string of the body, POSTs it with httpx
    (timeout ``options.timeout_ms``, default 10 min), retries 408/409/429/5xx and connection errors up to
    ``options.max_retries`` times (default 2) with exponential back-off (0.5 s, 1 s, ... capped at 8 s)
    or the server's ``retry-after-ms`` / ``Retry-After`` (seconds or HTTP date). A requested delay above
    ``options.max_retry_delay_ms`` (default 60000; 0 = no cap) is not slept: :class:`RetryDelayTooLongError`
    is raised at once. A final non-2xx raises :class:`ProviderHTTPError`. On a 2xx it calls
    ``options.on_response({"status", "headers"}, model)`` and yields an :class:`SSEEvents` object: async
    iterate it for ``httpx_sse.ServerSentEvent`` values. Events whose data is empty (keep-alives, ``retry:``/
    ``id:``-only events) are never yielded. A 2xx ``application/json`` answer (a server that ignored
    ``stream: true``) is yielded as one event holding the whole body. On exit the response and client
    are closed.

    SSE framing: bytes are decoded as UTF-8 incrementally (a character split across reads is fine), lines
    are split by httpx-sse's ``SSELineDecoder`` (``\\r\\n``, ``\\r`` and ``\\n``; a CR at the end of one read
    followed by LF at the start of the next is ONE line end) and fed to httpx-sse's ``SSEDecoder`` (one
    leading space after ``field:`` stripped, ``data:`` without space accepted, comments ignored). The
    Content-Type is not checked (proxies mislabel streams). Tested in tests/ai/test_sse_framing.py.

``sleep``
    The module-level async sleep used for retry back-off; tests replace it (``monkeypatch.setattr``).
    It is abortable because the whole producer task is cancelled on abort. ``wall_clock`` (Unix seconds)
    turns ``Retry-After`` HTTP dates into delays; tests replace it with a fixed clock.
"""

from __future__ import annotations

import asyncio
import codecs
import contextvars
import email.utils
import inspect
import json
import math
import random
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import httpx
from httpx_sse import ServerSentEvent
from httpx_sse._decoders import SSEDecoder, SSELineDecoder

from ..abort import AbortError, AbortSignal
from ..events import AssistantMessageEventStream, DoneEvent, ErrorEvent
from ..options import StreamOptions
from ..quota_errors import is_quota_error
from ..sanitize import sanitize_json_value
from ..types import AssistantMessage, Model, now_ms
from ._connection_errors import connection_error_text

DEFAULT_TIMEOUT_MS = 600_000
DEFAULT_MAX_RETRIES = 2
DEFAULT_MAX_RETRY_DELAY_MS = 60_000
BACKOFF_INITIAL_S = 0.5
BACKOFF_MAX_S = 8.0
RETRYABLE_STATUS = frozenset({408, 409, 429})
STREAM_ABORT_MESSAGE = "Request was aborted"
"""pi's own abort text (thrown by every pi provider when the signal fired after the stream; pi-reference §1.18)."""
SDK_ABORT_MESSAGE = "Request was aborted."
"""The OpenAI and Anthropic SDKs' ``APIUserAbortError`` text: an abort before the response arrived."""
FETCH_ABORT_MESSAGE = "This operation was aborted"
"""Node's fetch ``AbortError`` text: the Anthropic provider's pending body read rejected by an abort."""
DEFAULT_ABORT_MESSAGES = (STREAM_ABORT_MESSAGE, STREAM_ABORT_MESSAGE)

SCRATCH_FIELDS = (
    "partialJson",
    "partial_json",
    "partialArgs",
    "partial_args",
    "streamIndex",
    "stream_index",
    "index",
)


async def _default_sleep(seconds: float) -> None:
    await asyncio.sleep(seconds)


sleep: Callable[[float], Awaitable[None]] = _default_sleep
"""Retry back-off sleep, ``await sleep(seconds)``; monkeypatch in tests."""

wall_clock: Callable[[], float] = time.time
"""Unix time in seconds, used to turn a ``Retry-After`` HTTP date into a delay; monkeypatch in tests."""


# ---------------------------------------------------------------- errors


class ProviderHTTPError(Exception):
    """A non-2xx HTTP answer. ``str(e)`` is ``"<status> <body>"`` or ``"<status> status code (no body)"``.

    Attributes: ``status`` (int), ``body`` (str, the raw response text), ``retry_after_ms`` (the server's
    requested delay in ms from ``retry-after-ms``/``Retry-After``, or None). The text format is pi's
    (pi-reference §1.18): retry and overflow classification match on it.
    """

    def __init__(self, status: int, body: str, retry_after_ms: int | None = None, suffix: str = "") -> None:
        self.status = status
        self.body = body
        self.retry_after_ms = retry_after_ms
        text = f"{status} {body}" if body else f"{status} status code (no body)"
        super().__init__(text + suffix)


class RetryDelayTooLongError(ProviderHTTPError):
    """The server asked for a retry delay above ``max_retry_delay_ms``; raised without sleeping.

    The text is ``"<status> <body> (server requested retry delay of <s>s, above the <cap>s cap)"``.
    """

    def __init__(self, status: int, body: str, retry_after_ms: int, cap_ms: int) -> None:
        suffix = (
            f" (server requested retry delay of {_fmt_s(retry_after_ms)}s, above the {_fmt_s(cap_ms)}s cap)"
        )
        super().__init__(status, body, retry_after_ms, suffix)


class ProviderConnectionError(Exception):
    """The request failed before a response arrived (``Connection error: ...`` / ``Request timed out``)."""


class ProviderStopError(Exception):
    """Raised internally when a provider ended with ``stop_reason`` ``error``/``aborted``."""


def _fmt_s(ms: int) -> str:
    s = ms / 1000
    return str(int(s)) if s == int(s) else f"{s:g}"


# ---------------------------------------------------------------- abort scope

_active_signal: contextvars.ContextVar[AbortSignal | None] = contextvars.ContextVar(
    "pi_tui_http_abort_signal", default=None
)
_responded: contextvars.ContextVar[bool] = contextvars.ContextVar("pi_tui_http_responded", default=False)
"""Set by :func:`open_sse` in the producer task's own context once a 2xx response arrived."""


@contextmanager
def abort_scope(signal: AbortSignal | None) -> Iterator[None]:
    """Within the block, an abort of ``signal`` cancels the current task; the block raises ``AbortError``.

    Raises ``AbortError("Request was aborted")`` at once if ``signal`` already fired. A nested scope for
    the same signal in the same task is a no-op. Must not span a ``yield`` of an async generator.
    """
    if signal is None:
        yield
        return
    if signal.aborted:
        raise AbortError("Request was aborted")
    if _active_signal.get() is signal:
        yield
        return
    task = asyncio.current_task()
    fired = False

    def on_abort() -> None:
        nonlocal fired
        if task is not None and not task.done():
            fired = True
            task.cancel()

    remove = signal.add_listener(on_abort)
    token = _active_signal.set(signal)
    try:
        yield
    except asyncio.CancelledError:
        if fired and task is not None:
            task.uncancel()
            raise AbortError("Request was aborted") from None
        raise
    finally:
        remove()
        _active_signal.reset(token)


# ---------------------------------------------------------------- HTTP client

_ssl_context: ssl.SSLContext | None = None


def _get_ssl_context() -> ssl.SSLContext:
    global _ssl_context
    if _ssl_context is None:
        _ssl_context = httpx.create_ssl_context()
    return _ssl_context


def default_client_factory(timeout_s: float) -> httpx.AsyncClient:
    """A fresh ``httpx.AsyncClient`` (shared SSL context, per-read timeout ``timeout_s``)."""
    return httpx.AsyncClient(
        timeout=httpx.Timeout(timeout_s, connect=min(timeout_s, 60.0)), verify=_get_ssl_context()
    )


client_factory: Callable[[float], httpx.AsyncClient] = default_client_factory
"""How :func:`open_sse` makes its client; tests may swap in one with ``httpx.MockTransport``."""


def parse_retry_after_ms(headers: httpx.Headers | dict[str, str], now: float | None = None) -> int | None:
    """Server-requested delay in ms: ``retry-after-ms`` (ms), else ``Retry-After`` (seconds or HTTP date)."""
    h = httpx.Headers(headers)
    raw_ms = h.get("retry-after-ms")
    if raw_ms is not None:
        try:
            v = float(raw_ms)
            if v >= 0:
                return int(v)
        except ValueError:
            pass
    raw = h.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        v = float(raw)
        return int(v * 1000) if v >= 0 else None
    except ValueError:
        pass
    try:
        dt = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if dt is None:
        return None
    current = wall_clock() if now is None else now
    # HTTP dates have 1 s resolution (fraction truncated): round up to whole seconds, never retry early.
    return max(0, math.ceil(dt.timestamp() - current - 0.001)) * 1000


def backoff_s(attempt: int) -> float:
    """Default delay before retry ``attempt`` (0-based): 0.5 s * 2^attempt, max 8 s, minus up to 25 % jitter."""
    base = min(BACKOFF_INITIAL_S * (2**attempt), BACKOFF_MAX_S)
    return base * (1 - 0.25 * random.random())


def is_retryable_status(status: int, body: str = "") -> bool:
    """408, 409, 429, any 5xx, or a body that says ``overloaded``; never a quota/billing/usage-cap error,
    which no quick retry can fix (pi 0.76.0: "quota/billing 429s are not retried"; the list is
    :data:`pi_tui.ai.quota_errors.QUOTA_ERROR_PATTERN`, shared with the coding agent's auto-retry)."""
    if is_quota_error(body):
        return False
    lowered = body.lower()
    return status in RETRYABLE_STATUS or status >= 500 or "overloaded" in lowered


def encode_body(body: dict[str, Any]) -> bytes:
    """Compact UTF-8 JSON; lone surrogates are stripped from every string first (pi-reference §1.20)."""
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        clean = sanitize_json_value(body)
        return json.dumps(clean, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def _maybe_await(value: Any) -> Any:
    if inspect.isawaitable(value):
        return await value
    return value


class SSEEvents:
    """Async iterator over the SSE events of one response (see module docstring); ``status``, ``headers``."""

    def __init__(self, response: httpx.Response, signal: AbortSignal | None) -> None:
        self.response = response
        self.status = response.status_code
        self.headers = response.headers
        self._signal = signal

    def __aiter__(self) -> AsyncIterator[ServerSentEvent]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[ServerSentEvent]:
        line_decoder = SSELineDecoder()
        decoder = SSEDecoder()
        utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        raw = self.response.aiter_raw() if _is_identity(self.response) else self.response.aiter_bytes()
        signal = self._signal
        if _is_json(self.response):
            # A server that ignored ``stream: true`` (or a proxy answering an error with 200): the whole
            # JSON body becomes one event, so the provider sees its content or its ``error`` object.
            parts: list[bytes] = []
            while True:
                with abort_scope(signal):
                    try:
                        parts.append(await raw.__anext__())
                    except StopAsyncIteration:
                        break
            text = b"".join(parts).decode("utf-8", errors="replace").strip()
            if text:
                yield ServerSentEvent(event="message", data=text)
            return
        first = True
        while True:
            if signal is not None and signal.aborted:
                raise AbortError("Request was aborted")
            with abort_scope(signal):
                try:
                    chunk = await raw.__anext__()
                except StopAsyncIteration:
                    break
            text = utf8.decode(chunk)
            if first and text:
                first = False
                if text[0] == "\ufeff":
                    text = text[1:]
            if not text:
                continue
            for line in line_decoder.decode(text):
                sse = decoder.decode(line)
                if sse is not None and sse.data != "":
                    yield sse
        tail = utf8.decode(b"", final=True)
        lines = line_decoder.decode(tail) if tail else []
        lines += line_decoder.flush()
        lines.append("")  # end of stream dispatches a pending event (lenient: the spec would drop it)
        for line in lines:
            sse = decoder.decode(line)
            if sse is not None and sse.data != "":
                yield sse


def _is_json(response: httpx.Response) -> bool:
    ctype = response.headers.get("content-type", "").split(";")[0].strip().lower()
    return ctype == "application/json" or ctype.endswith("+json")


def _is_identity(response: httpx.Response) -> bool:
    return response.headers.get("content-encoding", "identity").strip().lower() in ("", "identity")


@asynccontextmanager
async def open_sse(
    *,
    url: str,
    headers: dict[str, str],
    body: dict[str, Any],
    model: Model,
    options: StreamOptions | None,
) -> AsyncIterator[SSEEvents]:
    """POST ``body`` as JSON to ``url`` and yield the SSE events; see the module docstring.

    Raises :class:`ProviderHTTPError` (non-2xx after retries), :class:`RetryDelayTooLongError`,
    :class:`ProviderConnectionError` (network failure / timeout before headers), ``AbortError`` (abort).
    """
    opts = options or StreamOptions()
    signal = opts.signal
    if signal is not None and signal.aborted:
        raise AbortError("Request was aborted")
    if opts.on_payload is not None:
        replaced = await _maybe_await(opts.on_payload(body, model))
        if replaced is not None:
            body = replaced
    content = encode_body(body)
    timeout_ms = (
        opts.timeout_ms if opts.timeout_ms is not None and opts.timeout_ms > 0 else DEFAULT_TIMEOUT_MS
    )
    max_retries = DEFAULT_MAX_RETRIES if opts.max_retries is None else max(0, opts.max_retries)
    cap_ms = (
        DEFAULT_MAX_RETRY_DELAY_MS if opts.max_retry_delay_ms is None else max(0, opts.max_retry_delay_ms)
    )
    send_headers = {"content-type": "application/json", "accept": "text/event-stream", **headers}

    client = client_factory(timeout_ms / 1000)
    response: httpx.Response | None = None
    try:
        attempt = 0
        while True:
            with abort_scope(signal):
                try:
                    request = client.build_request("POST", url, headers=send_headers, content=content)
                    response = await client.send(request, stream=True)
                except httpx.TimeoutException as exc:
                    error: Exception = ProviderConnectionError(f"Request timed out ({type(exc).__name__})")
                    response = None
                except (httpx.UnsupportedProtocol, httpx.LocalProtocolError, httpx.ProxyError) as exc:
                    raise ProviderConnectionError(connection_error_text(exc, url)) from exc
                except (httpx.TransportError, OSError) as exc:
                    error = ProviderConnectionError(connection_error_text(exc, url))
                    response = None
                if response is not None and 200 <= response.status_code < 300:
                    break
                delay_s: float
                if response is not None:
                    await response.aread()
                    text = response.content.decode("utf-8", errors="replace").strip()
                    status = response.status_code
                    retry_ms = parse_retry_after_ms(response.headers)
                    await response.aclose()
                    response = None
                    if attempt >= max_retries or not is_retryable_status(status, text):
                        raise _counted(ProviderHTTPError(status, text, retry_ms), attempt + 1)
                    if retry_ms is not None:
                        if cap_ms > 0 and retry_ms > cap_ms:
                            raise _counted(RetryDelayTooLongError(status, text, retry_ms, cap_ms), attempt + 1)
                        delay_s = retry_ms / 1000
                    else:
                        delay_s = backoff_s(attempt)
                else:
                    if attempt >= max_retries:
                        raise _counted(error, attempt + 1)
                    delay_s = backoff_s(attempt)
                attempt += 1
                await sleep(delay_s)
        assert response is not None
        _responded.set(True)
        if opts.on_response is not None:
            await _maybe_await(
                opts.on_response({"status": response.status_code, "headers": dict(response.headers)}, model)
            )
        try:
            yield SSEEvents(response, signal)
        except httpx.TimeoutException as exc:
            raise ProviderConnectionError(f"Request timed out ({type(exc).__name__})") from exc
        except httpx.TransportError as exc:
            raise ProviderConnectionError(connection_error_text(exc, url)) from exc
    finally:
        if response is not None:
            await response.aclose()
        await client.aclose()


# ---------------------------------------------------------------- uniform provider run (§1.18)


def _counted(exc: Exception, requests: int) -> Exception:
    """``exc`` with the number of HTTP requests made for it (``requests`` attribute; this layer's retries
    included): the error path records it as a ``requests`` diagnostic, so the session's retry message can
    count every request (issue 9)."""
    exc.requests = requests  # type: ignore[attr-defined]
    return exc


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


__all__ = [
    "DEFAULT_ABORT_MESSAGES",
    "FETCH_ABORT_MESSAGE",
    "SDK_ABORT_MESSAGE",
    "STREAM_ABORT_MESSAGE",
    "ProviderConnectionError",
    "ProviderHTTPError",
    "RetryDelayTooLongError",
    "SSEEvents",
    "abort_scope",
    "add_diagnostic",
    "backoff_s",
    "client_factory",
    "encode_body",
    "is_retryable_status",
    "new_output",
    "open_sse",
    "parse_retry_after_ms",
    "run_provider",
    "sleep",
    "strip_scratch",
]
