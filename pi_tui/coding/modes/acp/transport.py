"""NDJSON transport for ``--mode acp`` that answers bad input instead of dropping it (JSON-RPC 2.0 §5).

The SDK's own stdio transport logs and skips a line that is not JSON, and a JSON value that is not an object
stops its receive loop. This one implements the SDK's ``Transport`` seam (``acp._transport.Transport``:
``send``/``receive``/``close`` of decoded messages) and, for such a line, writes the JSON-RPC error and
reads on: ``-32700 Parse error`` (not JSON) or ``-32600 Invalid request`` (not an object, no ``method``
and no ``id``, or a non-string ``method``), with ``id`` null unless the request had one. Outgoing messages
are one line each, UTF-8, with known secrets redacted (:mod:`pi_tui.ai.secret_redaction`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from pi_tui.ai.secret_redaction import redact_text


def _error(request_id: Any, code: int, message: str, details: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message,
                                                           "data": {"details": details}}}


def check_message(line: bytes) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``(message, None)`` for a well-formed JSON-RPC message, else ``(None, error_response)``."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        return None, _error(None, -32700, "Parse error", f"not JSON: {exc}")
    if not isinstance(message, dict):
        return None, _error(None, -32600, "Invalid request",
                            f"a JSON-RPC message must be an object, got {type(message).__name__}")
    request_id = message.get("id") if isinstance(message.get("id"), (str, int)) else None
    if "method" in message and not isinstance(message["method"], str):
        return None, _error(request_id, -32600, "Invalid request", "'method' must be a string")
    if "method" not in message and "id" not in message:
        return None, _error(None, -32600, "Invalid request", "a message needs a 'method' or an 'id'")
    return message, None


class CheckedNdjsonTransport:
    """Newline-delimited JSON-RPC over an asyncio reader/writer pair (module docstring)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer
        self._lock = asyncio.Lock()
        self._closed = False

    async def send(self, message: dict[str, Any]) -> None:
        """Write ``message`` as one line and wait until it is flushed."""
        line = redact_text(json.dumps(message, ensure_ascii=False, separators=(",", ":"))) + "\n"
        async with self._lock:
            if self._closed:
                raise ConnectionError("Connection closed")
            self._writer.write(line.encode("utf-8", errors="replace"))
            await self._writer.drain()

    async def receive(self) -> dict[str, Any] | None:
        """The next well-formed message; None at end of input. Bad lines are answered and skipped."""
        while True:
            line = await self._read_line()
            if not line:
                return None
            line = line.strip()
            if not line:
                continue
            message, error = check_message(line)
            if message is not None:
                return message
            if error is not None:
                try:
                    await self.send(error)
                except (ConnectionError, OSError):
                    return None

    async def close(self) -> None:
        """Close the writer (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._writer.close()
        except (OSError, RuntimeError):
            pass

    async def _read_line(self) -> bytes:
        chunks: list[bytes] = []
        try:
            while True:
                try:
                    chunks.append(await self._reader.readuntil(b"\n"))
                    return b"".join(chunks)
                except asyncio.LimitOverrunError as exc:
                    chunks.append(await self._reader.readexactly(exc.consumed))
        except asyncio.IncompleteReadError as exc:
            chunks.append(exc.partial)
            return b"".join(chunks)
