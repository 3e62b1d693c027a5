"""Fixture-replay test harness: a loopback HTTP server, SSE body builders and expected-message comparison.

Use from tests (fixtures in tests/ai/conftest.py)::

    def test_x(replay_server):                      # a running ReplayServer (one per test)
        replay_server.enqueue(ReplayResponse(body=sse_body("openai-completions", path), seed=3))
        model = Model(id="m", api="openai-completions", provider="openai", base_url=replay_server.base_url)
        ...
        replay_server.requests[0].json()            # what the provider sent

* :class:`ReplayServer` runs an asyncio server on 127.0.0.1 in a daemon thread (so a stalled response
  never blocks the test's event loop). Each request pops the next queued :class:`ReplayResponse`
  (or the ``default``); every request is recorded (:class:`RecordedRequest`). The body is written in
  chunks cut at given byte offsets, at random offsets from a seed, or one byte per write, with
  TCP_NODELAY and a drain after each write; ``stall_after`` stops writing after that many bytes until the
  client disconnects (recorded in ``disconnects``) or the server stops.
* :func:`sse_body` builds the HTTP body of a ``*.chunks.txt`` fixture per the table in
  tests/fixtures/streams/README.md; :func:`chunk_bytes` cuts bytes the same way the server does (for
  ``httpx.MockTransport`` replays with exact read boundaries).
* :func:`normalise_message` / :func:`assert_matches_expected` compare a final AssistantMessage to
  ``*.expected.json`` (content, stopReason, usage, errorMessage minus ``lenient``; openai-completions
  content merged to at most one thinking, one text, then the tool calls).
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_tui.ai.json_parse import is_complete_json, parse_streaming_json
from pi_tui.ai.types import AssistantMessage

FIXTURES_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "streams"
APIS = ("openai-completions", "anthropic-messages", "openai-responses", "google-generative-ai")

_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    408: "Request Timeout",
    409: "Conflict",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    529: "Overloaded",
}


# ---------------------------------------------------------------- cutting bytes


def cut_points(n: int, seed: int, max_chunk: int = 64) -> list[int]:
    """Sorted byte offsets (0 < o < n) cutting ``n`` bytes into random pieces of 1..max_chunk bytes."""
    rng = random.Random(seed)
    points: list[int] = []
    pos = 0
    while True:
        pos += rng.randint(1, max(1, max_chunk))
        if pos >= n:
            return points
        points.append(pos)


def chunk_bytes(
    data: bytes,
    *,
    cuts: list[int] | None = None,
    seed: int | None = None,
    max_chunk: int = 64,
    one_byte: bool = False,
) -> list[bytes]:
    """Split ``data``: at ``cuts`` offsets, at random offsets from ``seed``, one byte each, or whole."""
    if one_byte:
        return [data[i : i + 1] for i in range(len(data))]
    if cuts is None:
        cuts = cut_points(len(data), seed, max_chunk) if seed is not None else []
    pieces: list[bytes] = []
    prev = 0
    for c in sorted(set(cuts)):
        if 0 < c < len(data):
            pieces.append(data[prev:c])
            prev = c
    pieces.append(data[prev:])
    return [p for p in pieces if p]


# ---------------------------------------------------------------- server


@dataclass
class ReplayResponse:
    """One scripted HTTP answer.

    ``body`` is written in pieces (see :func:`chunk_bytes`: ``cuts``, ``seed``/``max_chunk``, ``one_byte``),
    ``write_delay`` seconds apart. ``stall_after`` = byte count after which the server stops writing and
    waits for the client to close. ``headers`` default to an SSE content type.
    """

    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"content-type": "text/event-stream"})
    cuts: list[int] | None = None
    seed: int | None = None
    max_chunk: int = 64
    one_byte: bool = False
    write_delay: float = 0.0
    stall_after: int | None = None


@dataclass
class RecordedRequest:
    """A request the server received: ``method``, ``path``, lower-cased ``headers``, raw ``body``."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    time: float

    def json(self) -> Any:
        return json.loads(self.body)


class ReplayServer:
    """Loopback HTTP/1.1 server in a background thread; see the module docstring."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self.disconnects: list[float] = []
        self.default: ReplayResponse | None = None
        self._queue: deque[ReplayResponse] = deque()
        self._handlers: set[asyncio.Task[None]] = set()
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="replay-server", daemon=True)
        self._ready = threading.Event()
        self.port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def enqueue(self, *responses: ReplayResponse) -> None:
        """Queue answers for the next requests, in order."""
        self._queue.extend(responses)

    def start(self) -> ReplayServer:
        self._thread.start()
        if not self._ready.wait(5):
            raise RuntimeError("replay server did not start")
        return self

    def stop(self) -> None:
        if self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(5)

    def __enter__(self) -> ReplayServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._main())
        self._loop.close()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        await self._stop.wait()
        self._server.close()
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        await self._server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        try:
            await self._serve(reader, writer)
        except asyncio.CancelledError:
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        lines = head.decode("latin-1").split("\r\n")
        method, path, _ = (lines[0].split(" ", 2) + ["", ""])[:3]
        headers: dict[str, str] = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        length = int(headers.get("content-length", "0") or 0)
        body = await reader.readexactly(length) if length else b""
        self.requests.append(RecordedRequest(method, path, headers, body, time.monotonic()))
        resp = self._queue.popleft() if self._queue else self.default
        if resp is None:
            resp = ReplayResponse(
                body=b"no response queued", status=500, headers={"content-type": "text/plain"}
            )
        try:
            await self._respond(reader, writer, resp)
        except (ConnectionError, OSError):
            self.disconnects.append(time.monotonic())
        finally:
            writer.close()

    async def _respond(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, r: ReplayResponse
    ) -> None:
        reason = _REASONS.get(r.status, "Status")
        head = [f"HTTP/1.1 {r.status} {reason}"]
        head += [f"{k}: {v}" for k, v in r.headers.items()]
        head += ["connection: close", "", ""]
        writer.write("\r\n".join(head).encode("latin-1"))
        await writer.drain()
        body = r.body if r.stall_after is None else r.body[: r.stall_after]
        for piece in chunk_bytes(body, cuts=r.cuts, seed=r.seed, max_chunk=r.max_chunk, one_byte=r.one_byte):
            writer.write(piece)
            await writer.drain()
            if r.write_delay:
                await asyncio.sleep(r.write_delay)
        if r.stall_after is not None:
            assert self._stop is not None
            closed = asyncio.ensure_future(reader.read())
            stop = asyncio.ensure_future(self._stop.wait())
            await asyncio.wait({closed, stop}, return_when=asyncio.FIRST_COMPLETED)
            if closed.done():
                self.disconnects.append(time.monotonic())
            for f in (closed, stop):
                f.cancel()


# ---------------------------------------------------------------- fixtures → SSE bodies


def fixture_names(api: str) -> list[str]:
    """Names (without suffix) of the recorded streams of ``api``."""
    return sorted(p.name[: -len(".chunks.txt")] for p in (FIXTURES_DIR / api).glob("*.chunks.txt"))


def fixture_lines(api: str, name: str) -> list[str]:
    """The non-empty lines (SSE ``data:`` payloads) of ``<api>/<name>.chunks.txt``."""
    text = (FIXTURES_DIR / api / f"{name}.chunks.txt").read_text(encoding="utf-8")
    return [ln for ln in text.splitlines() if ln.strip()]


def sse_body_from_lines(api: str, lines: list[str]) -> bytes:
    """HTTP body for ``api`` per the README table (event names from ``line.type`` where the API uses them)."""
    out: list[str] = []
    for ln in lines:
        if api == "openai-completions":
            out.append(f"data: {ln}\n\n")
        elif api in ("anthropic-messages", "openai-responses"):
            etype = json.loads(ln).get("type", "message")
            out.append(f"event: {etype}\ndata: {ln}\n\n")
        elif api == "google-generative-ai":
            out.append(f"data: {ln}\r\n\r\n")
        else:
            raise ValueError(f"unknown api {api}")
    if api == "openai-completions":
        out.append("data: [DONE]\n\n")
    return "".join(out).encode("utf-8")


def sse_body(api: str, name: str) -> bytes:
    """HTTP body replaying fixture ``<api>/<name>``."""
    return sse_body_from_lines(api, fixture_lines(api, name))


def load_expected(api: str, name: str) -> dict[str, Any]:
    """``<api>/<name>.expected.json``."""
    return json.loads((FIXTURES_DIR / api / f"{name}.expected.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- comparison


def _signature(value: Any, api: str) -> Any:
    """pi keeps a whole Responses reasoning item (JSON) as the signature; the README compares its encrypted_content."""
    if api == "openai-responses" and isinstance(value, str) and value.startswith("{"):
        try:
            item = json.loads(value)
        except ValueError:
            return value
        if isinstance(item, dict) and "encrypted_content" in item:
            return item["encrypted_content"]
    return value


def _block_json(block: Any, api: str) -> dict[str, Any] | None:
    d = block.to_json_dict() if hasattr(block, "to_json_dict") else dict(block)
    t = d.get("type")
    out: dict[str, Any]
    if t == "text":
        if not d.get("text"):
            return None
        out = {"type": "text", "text": d["text"]}
        if d.get("textSignature") is not None:
            out["signature"] = d["textSignature"]
        return out
    if t == "thinking":
        out = {"type": "thinking", "thinking": d.get("thinking", "")}
        if d.get("thinkingSignature") is not None:
            out["signature"] = _signature(d["thinkingSignature"], api)
        if d.get("redacted"):
            out["redacted"] = True
        return out
    if t == "toolCall":
        call_id = d.get("id")
        if api == "openai-responses" and isinstance(call_id, str) and "|" in call_id:
            call_id = call_id.split("|", 1)[0]  # pi's Responses ids are "<call_id>|<item_id>"
        out = {"type": "toolCall", "id": call_id, "name": d.get("name"), "arguments": d.get("arguments", {})}
        if d.get("thoughtSignature") is not None:
            out["signature"] = d["thoughtSignature"]
        return out
    return None


def normalise_message(msg: AssistantMessage, api: str) -> dict[str, Any]:
    """The comparable form of ``msg`` (README "Normalisation rules")."""
    blocks = [b for b in (_block_json(x, api) for x in msg.content) if b is not None]
    if api == "openai-completions":
        thinking = [b for b in blocks if b["type"] == "thinking"]
        texts = [b for b in blocks if b["type"] == "text"]
        calls = [b for b in blocks if b["type"] == "toolCall"]
        merged: list[dict[str, Any]] = []
        if thinking:
            merged.append({"type": "thinking", "thinking": "".join(b["thinking"] for b in thinking)})
        if texts:
            merged.append({"type": "text", "text": "".join(b["text"] for b in texts)})
        blocks = merged + calls
    u = msg.usage
    return {
        "content": blocks,
        "stopReason": msg.stop_reason,
        "usage": {
            "input": u.input,
            "output": u.output,
            "cacheRead": u.cache_read,
            "cacheWrite": u.cache_write,
        },
        "errorMessage": msg.error_message,
    }


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compare_to_expected(msg: AssistantMessage, expected: dict[str, Any], api: str) -> list[str]:
    """Differences between ``msg`` and ``expected`` (empty list = match). Rules:

    content block by block (``signature``/``redacted`` compared only where expected has them; the
    signature is ``textSignature``/``thinkingSignature``/``thoughtSignature``, for Responses the
    ``encrypted_content`` of the stored reasoning item; Responses tool ids compared before ``|``; a tool
    call ``id`` compared only when expected is non-null, and ours must be non-empty); ``stopReason``;
    ``usage`` (input/output/cacheRead/cacheWrite); ``errorMessage``: None expected on a non-error stop
    → ours None; a string expected → ours contains it; None on an error stop → not compared.
    Keys in ``expected["lenient"]`` are skipped.
    """
    lenient = set(expected.get("lenient") or [])
    got = normalise_message(msg, api)
    diffs: list[str] = []
    if "content" not in lenient:
        exp_blocks = expected["content"]
        if len(exp_blocks) != len(got["content"]):
            diffs.append(
                f"content length {len(got['content'])} != {len(exp_blocks)}: {_short(got['content'], 400)}"
            )
        for i, (g, e) in enumerate(zip(got["content"], exp_blocks, strict=False)):
            for key, ev in e.items():
                if key == "id" and ev is None:
                    if not g.get("id"):
                        diffs.append(f"content[{i}].id is empty")
                    continue
                if g.get(key) != ev:
                    diffs.append(f"content[{i}].{key}: {_short(g.get(key))} != {_short(ev)}")
            if g["type"] == "toolCall" and not g.get("id"):
                diffs.append(f"content[{i}].id is empty")
    if "stopReason" not in lenient and got["stopReason"] != expected["stopReason"]:
        diffs.append(f"stopReason {got['stopReason']!r} != {expected['stopReason']!r}")
    if "usage" not in lenient and got["usage"] != expected["usage"]:
        diffs.append(f"usage {got['usage']!r} != {expected['usage']!r}")
    if "errorMessage" not in lenient:
        em = expected.get("errorMessage")
        if em is None and expected["stopReason"] != "error" and got["errorMessage"] is not None:
            diffs.append(f"errorMessage {got['errorMessage']!r} != None")
        if isinstance(em, str) and (got["errorMessage"] is None or em not in got["errorMessage"]):
            diffs.append(f"errorMessage {got['errorMessage']!r} does not contain {em!r}")
    return diffs


def assert_matches_expected(msg: AssistantMessage, expected: dict[str, Any], api: str) -> None:
    """Assert :func:`compare_to_expected` finds no difference."""
    diffs = compare_to_expected(msg, expected, api)
    assert not diffs, "; ".join(diffs)


# ---------------------------------------------------------------- event protocol


def check_event_protocol(events: list[Any]) -> list[str]:
    """Violations of the AssistantMessageEvent protocol (pi-reference §1.10) in ``events``.

    One ``start`` first; each ``*_start`` has exactly one ``*_end`` with the same content index and kind;
    deltas only between them; deltas concatenate to the final block (text/thinking: the ``*_end``
    content and the final message; tool calls: the ``toolcall_end`` arguments equal the final ones);
    exactly one terminal event, last; no scratch fields on final blocks.
    """
    problems: list[str] = []
    if not events:
        return ["no events"]
    terminal = [i for i, e in enumerate(events) if e.type in ("done", "error")]
    if len(terminal) != 1 or terminal[0] != len(events) - 1:
        problems.append(f"terminal events at {terminal} of {len(events)}")
    final = events[-1].message if events[-1].type == "done" else getattr(events[-1], "error", None)
    non_terminal = events[:-1] if terminal else events
    if non_terminal and non_terminal[0].type != "start":
        problems.append(f"first event is {non_terminal[0].type}")
    if sum(1 for e in events if e.type == "start") > 1:
        problems.append("more than one start")
    open_blocks: dict[int, str] = {}
    ended: set[int] = set()
    acc: dict[int, list[str]] = {}
    for e in non_terminal[1:]:
        kind, _, phase = e.type.rpartition("_")
        idx = e.content_index
        if phase == "start":
            if idx in open_blocks or idx in ended:
                problems.append(f"{e.type} twice for index {idx}")
            open_blocks[idx] = kind
            acc[idx] = []
        elif phase == "delta":
            if open_blocks.get(idx) != kind:
                problems.append(f"{e.type} for index {idx} not open as {kind}")
            acc.setdefault(idx, []).append(e.delta)
        elif phase == "end":
            if open_blocks.pop(idx, None) != kind:
                problems.append(f"{e.type} for index {idx} not open as {kind}")
            ended.add(idx)
            if kind in ("text", "thinking") and "".join(acc.get(idx, [])) != e.content:
                problems.append(f"{kind} deltas of {idx} do not concatenate to its end content")
            if final is not None and idx < len(final.content):
                block = final.content[idx]
                if kind == "text" and getattr(block, "text", None) != e.content:
                    problems.append(f"text_end {idx} differs from the final block")
                if kind == "thinking" and getattr(block, "thinking", None) != e.content:
                    problems.append(f"thinking_end {idx} differs from the final block")
                if kind == "toolcall" and getattr(block, "arguments", None) != e.tool_call.arguments:
                    problems.append(f"toolcall_end {idx} arguments differ from the final block")
                if kind == "toolcall" and is_complete_json("".join(acc.get(idx, []))):
                    if parse_streaming_json("".join(acc.get(idx, []))) != e.tool_call.arguments:
                        problems.append(f"toolcall deltas of {idx} do not concatenate to its arguments")
    if events[-1].type == "done" and open_blocks:
        problems.append(f"blocks never ended: {sorted(open_blocks)}")
    if final is not None:
        if events[-1].type == "done" and len(ended) != len(final.content):
            problems.append(f"{len(ended)} blocks ended but final message has {len(final.content)}")
        for i, block in enumerate(final.content):
            extra = block.__pydantic_extra__ or {}
            scratch = [
                k
                for k in extra
                if k in ("partialJson", "partial_json", "partialArgs", "streamIndex", "index")
            ]
            if scratch:
                problems.append(f"scratch fields {scratch} left on block {i}")
    return problems
