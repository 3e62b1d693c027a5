"""Small helpers shared by the built-in tools: results, abort racing, OS error texts."""

from __future__ import annotations

import asyncio
import errno
import os
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pi_tui.agent.types import AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.types import TextContent

T = TypeVar("T")

ABORTED = "Operation aborted"
_NON_ESCAPE_SURROGATE = re.compile("[\ud800-\udc7f\udd00-\udfff]")


def text_result(text: str, details: Any = None) -> AgentToolResult:
    """``{content: [{type: "text", text}], details}``."""
    return AgentToolResult(content=[TextContent(text=text)], details=details)


def check_aborted(signal: AbortSignal | None) -> None:
    """Raise ``Exception("Operation aborted")`` if ``signal`` has fired."""
    if signal is not None and signal.aborted:
        raise Exception(ABORTED)


async def run_abortable(signal: AbortSignal | None, work: Awaitable[T]) -> T:
    """Await ``work`` unless ``signal`` fires first; then raise ``Operation aborted`` (pi's tools reject
    as soon as the signal fires, whatever the background work is doing)."""
    if signal is not None and signal.aborted:
        if asyncio.iscoroutine(work):
            work.close()
        raise Exception(ABORTED)
    if signal is None:
        return await work
    task: asyncio.Future[T] = asyncio.ensure_future(work)
    waiter: asyncio.Future[Any] = asyncio.ensure_future(signal.wait())
    pending: set[asyncio.Future[Any]] = {task, waiter}
    try:
        await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiter.cancel()
    if task.done():
        return task.result()
    task.cancel()
    raise Exception(ABORTED)


async def in_thread(fn: Callable[..., T], *args: Any) -> T:
    """Run blocking file-system work off the event loop."""
    return await asyncio.to_thread(fn, *args)


async def emit_update(on_update: AgentToolUpdateCallback | None, result: AgentToolResult) -> None:
    """Call ``on_update(result)`` and await it when it returns an awaitable."""
    if on_update is None:
        return
    ret = on_update(result)
    if ret is not None and hasattr(ret, "__await__"):
        await ret


def error_code(exc: OSError) -> str:
    """Node-style error code of an ``OSError`` (``ENOENT``, ``EACCES``, ...), ``"EIO"`` if unknown."""
    if exc.errno is not None and exc.errno in errno.errorcode:
        return errno.errorcode[exc.errno]
    return "EIO"


def node_error_message(exc: OSError, syscall: str, path: str) -> str:
    """Node's fs error text, e.g. ``ENOENT: no such file or directory, access '/x'`` (pi's tools surface
    these messages unchanged)."""
    desc = os.strerror(exc.errno).lower() if exc.errno is not None else str(exc)
    return f"{error_code(exc)}: {desc}, {syscall} '{path}'"


def decode_preserving(raw: bytes) -> str:
    """UTF-8 decode that keeps invalid bytes as ``surrogateescape`` code points, so a file that is not
    valid UTF-8 is written back byte-for-byte outside the edited regions (pi would replace them with
    U+FFFD; deliberate improvement)."""
    return raw.decode("utf-8", "surrogateescape")


def encode_preserving(text: str) -> bytes:
    """Inverse of :func:`decode_preserving`; other lone surrogates (not from a decoded byte) are dropped."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return _NON_ESCAPE_SURROGATE.sub("", text).encode("utf-8", "surrogateescape")


def limit_of(raw: Any, default: int) -> int:
    """A result limit from tool arguments: ``default`` when absent; below 1 means 1 (pi 1.5.1: ``limit: 0``
    returned everything or nothing)."""
    if raw is None:
        return default
    try:
        return max(1, int(raw))
    except (TypeError, ValueError):
        return default
