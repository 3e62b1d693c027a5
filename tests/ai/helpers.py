"""Small helpers shared by the tests of tests/ai (HTTP mocking with exact read boundaries, chat SSE bodies)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from pi_tui.ai.providers import _http


class ByteChunks(httpx.AsyncByteStream):
    """A response body delivered as exactly these reads."""

    def __init__(self, pieces: list[bytes]) -> None:
        self.pieces = pieces

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for p in self.pieces:
            yield p


def mock_reads(
    monkeypatch: pytest.MonkeyPatch,
    reads: list[bytes],
    *,
    status: int = 200,
    headers: dict[str, str] | None = None,
    requests: list[httpx.Request] | None = None,
) -> None:
    """Make every provider request answer with ``reads`` (one read each) via ``httpx.MockTransport``."""
    hdrs = {"content-type": "text/event-stream", **(headers or {})}

    def handler(request: httpx.Request) -> httpx.Response:
        if requests is not None:
            requests.append(request)
        return httpx.Response(status, headers=hdrs, stream=ByteChunks(list(reads)))

    install_handler(monkeypatch, handler)


def install_handler(
    monkeypatch: pytest.MonkeyPatch, handler: Callable[[httpx.Request], httpx.Response]
) -> None:
    """Route every request of :mod:`pi_tui.ai.providers._http` to ``handler``."""
    monkeypatch.setattr(
        _http, "client_factory", lambda timeout: httpx.AsyncClient(transport=httpx.MockTransport(handler))
    )


def chat_sse(*chunks: dict[str, Any] | str, done: bool = True) -> bytes:
    """``data: <json>\\n\\n`` per chunk (dicts are JSON-encoded, strings sent as is), then ``data: [DONE]``."""
    out = [f"data: {c if isinstance(c, str) else json.dumps(c)}\n\n" for c in chunks]
    if done:
        out.append("data: [DONE]\n\n")
    return "".join(out).encode()


def chat_lines(text: str) -> bytes:
    """An SSE body from the ``data: ...`` lines of a case in cases/README.md (blank lines added between)."""
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return "".join(f"{ln}\n\n" for ln in lines).encode()
