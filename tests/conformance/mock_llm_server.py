"""Scripted loopback LLM server: a Python port of pi-traces ``gen/mock-llm-server.mjs``.

Speaks OpenAI Chat Completions SSE (any path without ``/v1/messages``) and Anthropic Messages SSE
(``/v1/messages``). The n-th request gets ``script[n-1]``; ``GET .../models`` lists ``model`` (not recorded):

* ``{"type": "text", "text", "chunkDelayMs"?, "usage"?}``
* ``{"type": "tool", "calls": [{"id", "name", "args"}], "text"?, "usage"?}`` (optional leading text block)
* ``{"type": "http_error", "status", "body", "headers"?}`` (JSON body, no SSE; ``headers`` e.g. Retry-After)
* ``{"type": "raw_sse", "events": [str, ...]}`` (pi-tui addition: verbatim SSE frames, for error cases)

Text and tool-argument JSON are sent in 8-character pieces with the same chunk layout as the original
(OpenAI usage ``{prompt_tokens: 1000+n, completion_tokens: 10+n}``; Anthropic ``{input_tokens: 1000+n,
output_tokens: 10+n}``). An exhausted script answers HTTP 500 ``mock script exhausted``. Every request is
recorded as ``{index, method, url, headers, body, mockReply, clientClosedEarly}``.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

PIECE = 8


def pieces(text: str) -> list[str]:
    """``text`` in 8-character pieces (``[""]`` for the empty string), like the JS server."""
    # JS strings index UTF-16 code units; the scripts here are ASCII so str slicing is identical.
    out = [text[i : i + PIECE] for i in range(0, len(text), PIECE)]
    return out or [""]


def _js(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def openai_chunks(entry: dict[str, Any], n: int, model: str) -> list[str]:
    """SSE frames for one OpenAI Chat Completions answer."""
    cid = f"chatcmpl-mock-{n}"

    def base(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    chunks: list[dict[str, Any]] = [base({"role": "assistant", "content": ""})]
    finish = "stop"
    if entry["type"] == "text" or entry.get("text"):
        for p in pieces(entry["text"]):
            chunks.append(base({"content": p}))
    if entry["type"] == "tool":
        finish = "tool_calls"
        for index, call in enumerate(entry["calls"]):
            chunks.append(
                base(
                    {
                        "tool_calls": [
                            {"index": index, "id": call["id"], "type": "function",
                             "function": {"name": call["name"], "arguments": ""}}
                        ]
                    }
                )
            )
            for p in pieces(_js(call["args"])):
                chunks.append(base({"tool_calls": [{"index": index, "function": {"arguments": p}}]}))
    chunks.append(base({}, finish))
    usage = entry.get("usage") or {"prompt_tokens": 1000 + n, "completion_tokens": 10 + n}
    chunks.append(
        {
            "id": cid,
            "object": "chat.completion.chunk",
            "created": 1700000000,
            "model": model,
            "choices": [],
            "usage": {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]},
        }
    )
    return [f"data: {_js(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]


def anthropic_chunks(entry: dict[str, Any], n: int, model: str) -> list[str]:
    """SSE frames for one Anthropic Messages answer."""

    def ev(kind: str, data: dict[str, Any]) -> str:
        return f"event: {kind}\ndata: {_js({'type': kind, **data})}\n\n"

    usage = entry.get("usage") or {"input_tokens": 1000 + n, "output_tokens": 10 + n}
    out = [
        ev(
            "message_start",
            {
                "message": {
                    "id": f"msg_mock_{n}",
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": {"input_tokens": usage["input_tokens"], "output_tokens": 1,
                              "cache_read_input_tokens": 0, "cache_creation_input_tokens": 0},
                }
            },
        )
    ]
    index = 0
    if entry["type"] == "text" or entry.get("text"):
        out.append(ev("content_block_start", {"index": index, "content_block": {"type": "text", "text": ""}}))
        for p in pieces(entry["text"]):
            out.append(ev("content_block_delta", {"index": index, "delta": {"type": "text_delta", "text": p}}))
        out.append(ev("content_block_stop", {"index": index}))
        index += 1
    stop = "end_turn"
    if entry["type"] == "tool":
        stop = "tool_use"
        for call in entry["calls"]:
            out.append(ev("content_block_start", {"index": index, "content_block": {
                "type": "tool_use", "id": call["id"], "name": call["name"], "input": {}}}))
            for p in pieces(_js(call["args"])):
                out.append(ev("content_block_delta", {"index": index, "delta": {"type": "input_json_delta", "partial_json": p}}))
            out.append(ev("content_block_stop", {"index": index}))
            index += 1
    out.append(ev("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None},
                                    "usage": {"output_tokens": usage["output_tokens"]}}))
    out.append(ev("message_stop", {}))
    return out


class MockLlmServer:
    """Start with ``MockLlmServer(script).start()``; ``port``, ``requests``, ``remaining()``, ``close()``."""

    def __init__(self, script: list[dict[str, Any]], model: str = "mock-model") -> None:
        self.queue = list(script)
        self.model = model
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    def remaining(self) -> int:
        return len(self.queue)

    def start(self) -> MockLlmServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # silence
                return

            def do_GET(self) -> None:  # noqa: N802 - OpenAI's model list (``GET .../models``), not recorded
                found = self.path.rstrip("/").endswith("/models")
                data = _js({"object": "list", "data": [{"id": owner.model, "object": "model"}]} if found
                           else {"error": {"message": "not found"}}).encode()
                self.send_response(200 if found else 404)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length).decode("utf-8", errors="replace")
                try:
                    body: Any = json.loads(raw)
                except ValueError:
                    body = raw
                with owner._lock:
                    index = len(owner.requests) + 1
                    entry = owner.queue.pop(0) if owner.queue else None
                    reply: dict[str, Any] = {"type": entry["type"]} if entry else {"type": "exhausted"}
                    if entry and entry.get("status"):
                        reply["status"] = entry["status"]
                    record = {
                        "index": index,
                        "method": self.command,
                        "url": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                        "mockReply": reply,
                        "clientClosedEarly": False,
                    }
                    owner.requests.append(record)
                if entry is None or entry["type"] == "http_error":
                    status = entry.get("status", 500) if entry else 500
                    payload = (entry or {}).get("body") or {"error": {"message": "mock script exhausted", "type": "server_error"}}
                    data = _js(payload).encode()
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    for key, value in ((entry or {}).get("headers") or {}).items():
                        self.send_header(key, str(value))
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                if entry["type"] == "raw_sse":
                    frames = list(entry["events"])
                elif "/v1/messages" in self.path:
                    frames = anthropic_chunks(entry, index, owner.model)
                else:
                    frames = openai_chunks(entry, index, owner.model)
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                delay = (entry.get("chunkDelayMs") or 0) / 1000
                try:
                    for frame in frames:
                        self.wfile.write(frame.encode())
                        self.wfile.flush()
                        if delay:
                            time.sleep(delay)
                except (BrokenPipeError, ConnectionResetError):
                    record["clientClosedEarly"] = True
                self.close_connection = True

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> MockLlmServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.close()
