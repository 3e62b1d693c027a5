"""Connection errors that say what went wrong and where (pi 1.5.1).

httpx reports a refused connection as ``All connection attempts failed`` and keeps the cause (``[Errno 111]
Connect call failed``, a certificate that is not trusted, a host name DNS does not know) in the exception chain,
so pi-tui said ``Connection error: All connection attempts failed`` without naming the server or the reason.
:func:`connection_error_text` adds both: ``Connection error: All connection attempts failed (connection
refused by 127.0.0.1:9)``. Only scheme, host and port of the URL are shown: the path and query can hold keys
(Google's ``?key=``).
"""

from __future__ import annotations

import errno
import socket
import ssl
from urllib.parse import urlsplit

_ERRNO_TEXT = {
    errno.ECONNREFUSED: "connection refused by",
    errno.ECONNRESET: "connection reset by",
    errno.ETIMEDOUT: "connection timed out to",
    errno.EHOSTUNREACH: "host unreachable:",
    errno.ENETUNREACH: "network unreachable for",
    errno.ECONNABORTED: "connection aborted by",
}


def server_of(url: str) -> str:
    """``host:port`` of ``url`` (default port from the scheme); the raw text when it cannot be split."""
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return "the server"
    host = parts.hostname or "the server"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def connection_cause(exc: BaseException, url: str) -> str | None:
    """The reason found in ``exc``'s chain, with the server, or None when nothing more specific is known."""
    server = server_of(url)
    for item in reversed(_chain(exc)):  # the root cause first
        if isinstance(item, ssl.SSLCertVerificationError):
            return f"TLS certificate of {server} not trusted: {item.verify_message or item.reason}"
        if isinstance(item, ssl.SSLError):
            return f"TLS error with {server}: {item.reason or item}"
        if isinstance(item, socket.gaierror):
            return f"host name not found: {urlsplit(url).hostname}"
        if isinstance(item, OSError) and item.errno in _ERRNO_TEXT:
            return f"{_ERRNO_TEXT[item.errno]} {server}"
    return None


def connection_error_text(exc: BaseException, url: str) -> str:
    """``Connection error: <httpx text> (<cause>)``; the prefix is what retry classification matches."""
    text = f"Connection error: {exc or type(exc).__name__}"
    cause = connection_cause(exc, url)
    return f"{text} ({cause})" if cause else f"{text} ({server_of(url)})"


__all__ = ["connection_cause", "connection_error_text", "server_of"]
