"""Shared HTTP/SSE plumbing of the providers: request, retries, SSE framing, abort.

The run of a provider and its uniform error path are :mod:`._provider_run` (``run_provider``). Here
(pi-reference §1.8, §1.10, §1.18):

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
from ..options import StreamOptions
from ..quota_errors import is_quota_error
from ..sanitize import sanitize_json_value
from ..types import Model
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
    "backoff_s",
    "client_factory",
    "encode_body",
    "is_retryable_status",
    "open_sse",
    "parse_retry_after_ms",
    "sleep",
]
