"""Google Generative AI / Vertex SSE chunks -> assistant message events (pi-reference §7.4; fixtures README).

Each SSE ``data:`` is a ``GenerateContentResponse``; only candidate 0 is read, parts in stream order.

* ``thought: true`` text parts → thinking, other text parts → text; consecutive parts of one kind merge into
  one block; a change of kind or a function call ends the open block (``*_end``).
* An empty text part creates no block: its ``thoughtSignature`` goes to the directly preceding block when
  that block is of the same kind. A signature on a non-empty part is kept on its block (last non-empty wins).
* ``functionCall`` with a ``name`` (and no ``willContinue``) is a complete tool call: ``toolcall_start``, one
  ``toolcall_delta`` with the whole JSON, ``toolcall_end`` back to back (``args`` missing → ``{}``).
* Vertex streamed arguments: ``functionCall{name, willContinue: true}`` opens a call; ``partialArgs`` entries
  set the value at their ``jsonPath`` (``$.a.b[0].c``; a ``stringValue`` is appended to a string already
  there; ``numberValue``/``boolValue``/``nullValue`` set it), each chunk pushing a ``toolcall_delta`` with
  ``""`` and the arguments so far; a bare ``functionCall: {}``, a partialArgs chunk with no ``willContinue``,
  a new call, a text part or the end of the stream closes the call: one ``toolcall_delta`` with the whole
  JSON, then ``toolcall_end``. ``{"willContinue": true}`` alone is a continuation marker.
* Tool-call ids: the provided ``id`` unless missing or already used in this message, then
  ``<name>_<unix ms>_<counter>``.
* ``finishReason`` (last one wins): STOP → stop, MAX_TOKENS → length, anything else → error
  (``Provider finishReason: <reason>``); any tool call turns the stop reason into toolUse. No finishReason at
  all → error; ``promptFeedback.blockReason`` → error ``Prompt blocked: <reason>``; an ``error`` object in the
  stream → error ``<code> <data>``.
* usage (last ``usageMetadata``): ``input = promptTokenCount − cachedContentTokenCount``, ``output =
  candidatesTokenCount + thoughtsTokenCount``, ``cacheRead = cached``, ``total = totalTokenCount`` (else sum).
"""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

from ..models import calculate_cost
from ..types import Model, TextContent, ThinkingContent, ToolCall
from ._stream_blocks import BlockWriter, ProviderError, json_compact

_counter = itertools.count(1)
_PATH_TOKEN = re.compile(r"\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[\s*'((?:[^'\\]|\\.)*)'\s*\]|\[\s*\"((?:[^\"\\]|\\.)*)\"\s*\]")


def parse_json_path(path: str) -> list[str | int]:
    """``$.a.b[0]['c d']`` → ``["a", "b", 0, "c d"]``; raises ``ValueError`` on anything else."""
    if not path.startswith("$"):
        raise ValueError(f"jsonPath must start with '$': {path!r}")
    keys: list[str | int] = []
    pos = 1
    while pos < len(path):
        m = _PATH_TOKEN.match(path, pos)
        if m is None:
            raise ValueError(f"unsupported jsonPath: {path!r}")
        if m.group(1) is not None:
            keys.append(m.group(1))
        elif m.group(2) is not None:
            keys.append(int(m.group(2)))
        else:
            keys.append(m.group(3) if m.group(3) is not None else m.group(4))
        pos = m.end()
    return keys


def set_json_path(root: dict[str, Any], keys: list[str | int], value: Any, append_string: bool) -> None:
    """Set ``value`` at ``keys`` inside ``root`` (creating dicts/lists); strings append when ``append_string``."""
    if not keys:
        return
    node: Any = root
    for key, nxt in zip(keys, keys[1:], strict=False):
        container: Any = [] if isinstance(nxt, int) else {}
        if isinstance(key, int):
            if not isinstance(node, list):
                return
            while len(node) <= key:
                node.append(None)
            if not isinstance(node[key], (dict, list)):
                node[key] = container
            node = node[key]
        else:
            if not isinstance(node, dict):
                return
            if not isinstance(node.get(key), (dict, list)):
                node[key] = container
            node = node[key]
    last = keys[-1]
    if isinstance(last, int):
        if not isinstance(node, list):
            return
        while len(node) <= last:
            node.append(None)
        current = node[last]
        node[last] = current + value if append_string and isinstance(current, str) else value
    elif isinstance(node, dict):
        current = node.get(last)
        node[last] = current + value if append_string and isinstance(current, str) else value


class GoogleStreamParser:
    """Incremental reader of one Gemini/Vertex stream (see the module docstring)."""

    def __init__(self, writer: BlockWriter, model: Model) -> None:
        self.writer = writer
        self.model = model
        self.current: tuple[str, int] | None = None  # (kind, content index) of the open text/thinking block
        self.call: tuple[int, dict[str, Any]] | None = None  # open streamed call: (content index, args)
        self.finish_reason: str | None = None
        self.finish_message: str | None = None
        self.block_reason: str | None = None

    # ------------------------------------------------------------------ chunks
    def feed(self, chunk: dict[str, Any], raw: str = "") -> None:
        """Handle one parsed ``GenerateContentResponse`` (``raw`` = its data text, for error messages)."""
        out = self.writer.output
        error = chunk.get("error")
        if isinstance(error, dict):
            raise ProviderError(f"{error.get('code') or 'error'} {raw or json_compact(chunk)}")
        if not out.response_id and isinstance(chunk.get("responseId"), str) and chunk["responseId"]:
            out.response_id = chunk["responseId"]
        feedback = chunk.get("promptFeedback")
        if isinstance(feedback, dict) and feedback.get("blockReason"):
            self.block_reason = str(feedback["blockReason"])
        candidates = chunk.get("candidates")
        candidate = candidates[0] if isinstance(candidates, list) and candidates else None
        if isinstance(candidate, dict):
            parts = (candidate.get("content") or {}).get("parts")
            if isinstance(parts, list):
                for part in parts:
                    if isinstance(part, dict):
                        self._part(part)
            if candidate.get("finishReason"):
                self.finish_reason = str(candidate["finishReason"])
                if isinstance(candidate.get("finishMessage"), str):
                    self.finish_message = candidate["finishMessage"]
        usage = chunk.get("usageMetadata")
        if isinstance(usage, dict) and any(k.endswith("TokenCount") for k in usage):
            u = out.usage
            cached = _int(usage.get("cachedContentTokenCount"))
            u.input = _int(usage.get("promptTokenCount")) - cached
            u.output = _int(usage.get("candidatesTokenCount")) + _int(usage.get("thoughtsTokenCount"))
            u.cache_read = cached
            u.cache_write = 0
            u.total_tokens = _int(usage.get("totalTokenCount")) or (u.input + u.output + u.cache_read)
            calculate_cost(self.model, u)

    def finish(self) -> None:
        """Close open blocks and set the stop reason (call once the body ended)."""
        self._end_current()
        self._close_call()
        out = self.writer.output
        if self.finish_reason is None:
            if self.block_reason:
                raise ProviderError(f"Prompt blocked: {self.block_reason}")
            raise ProviderError("Google stream ended without a finishReason")
        reason = self.finish_reason
        if reason == "STOP":
            out.stop_reason = "stop"
        elif reason == "MAX_TOKENS":
            out.stop_reason = "length"
        else:
            out.stop_reason = "error"
            out.error_message = f"Provider finishReason: {reason}" + (
                f": {self.finish_message}" if self.finish_message else ""
            )
        if self.writer.has_tool_call():
            out.stop_reason = "toolUse"
            out.error_message = None

    # ------------------------------------------------------------------ parts
    def _part(self, part: dict[str, Any]) -> None:
        signature = part.get("thoughtSignature")
        sig = signature if isinstance(signature, str) and signature else None
        if isinstance(part.get("text"), str):
            self._text_part(part["text"], part.get("thought") is True, sig)
        fc = part.get("functionCall")
        if isinstance(fc, dict):
            self._function_call(fc, sig)

    def _text_part(self, text: str, thinking: bool, sig: str | None) -> None:
        kind = "thinking" if thinking else "text"
        w = self.writer
        if not text:
            content = w.output.content
            if sig and content:
                last = content[-1]
                if kind == "text" and isinstance(last, TextContent):
                    last.text_signature = sig
                elif kind == "thinking" and isinstance(last, ThinkingContent):
                    last.thinking_signature = sig
            return
        self._close_call()
        if self.current is None or self.current[0] != kind:
            self._end_current()
            ci = w.open_thinking() if thinking else w.open_text()
            self.current = (kind, ci)
        ci = self.current[1]
        block = w.output.content[ci]
        if isinstance(block, ThinkingContent):
            w.thinking_delta(ci, text)
            if sig:
                block.thinking_signature = sig
        elif isinstance(block, TextContent):
            w.text_delta(ci, text)
            if sig:
                block.text_signature = sig

    def _end_current(self) -> None:
        if self.current is None:
            return
        kind, ci = self.current
        self.current = None
        if kind == "text":
            self.writer.end_text(ci)
        else:
            self.writer.end_thinking(ci)

    def _new_id(self, name: str, provided: Any) -> str:
        used = {b.id for b in self.writer.output.content if isinstance(b, ToolCall)}
        if isinstance(provided, str) and provided and provided not in used:
            return provided
        return f"{name}_{int(time.time() * 1000)}_{next(_counter)}"

    def _function_call(self, fc: dict[str, Any], sig: str | None) -> None:
        self._end_current()
        w = self.writer
        name = fc.get("name") if isinstance(fc.get("name"), str) else None
        partial = fc.get("partialArgs")
        if isinstance(partial, list):
            if self.call is None:
                self._open_call(name or "", fc, sig)
            assert self.call is not None
            ci, args = self.call
            more = fc.get("willContinue") is True
            for pa in partial:
                if not isinstance(pa, dict):
                    continue
                more = more or pa.get("willContinue") is True
                self._apply_partial(args, pa)
            if sig:
                w.output.content[ci].thought_signature = sig  # type: ignore[union-attr]
            w.tool_delta(ci, "", _copy(args))
            if not more:
                self._close_call()
            return
        if name:
            self._close_call()
            if fc.get("willContinue") is True:
                self._open_call(name, fc, sig)
                return
            raw_args = fc.get("args")
            call_args: dict[str, Any] = raw_args if isinstance(raw_args, dict) else {}
            ci = w.open_tool(self._new_id(name, fc.get("id")), name, call_args, sig)
            w.tool_delta(ci, json_compact(call_args))
            w.end_tool(ci)
            return
        if fc.get("willContinue") is True and len(fc) == 1:
            if sig and self.call is not None:
                w.output.content[self.call[0]].thought_signature = sig  # type: ignore[union-attr]
            return  # continuation marker
        self._close_call()

    def _open_call(self, name: str, fc: dict[str, Any], sig: str | None) -> None:
        args = dict(fc["args"]) if isinstance(fc.get("args"), dict) else {}
        ci = self.writer.open_tool(self._new_id(name, fc.get("id")), name, _copy(args), sig)
        self.call = (ci, args)

    def _apply_partial(self, args: dict[str, Any], pa: dict[str, Any]) -> None:
        path = pa.get("jsonPath")
        if not isinstance(path, str):
            return
        try:
            keys = parse_json_path(path)
        except ValueError as exc:
            raise ProviderError(f"Google stream: {exc}") from exc
        if "stringValue" in pa:
            set_json_path(args, keys, str(pa["stringValue"]), append_string=True)
        elif "numberValue" in pa:
            set_json_path(args, keys, pa["numberValue"], append_string=False)
        elif "boolValue" in pa:
            set_json_path(args, keys, bool(pa["boolValue"]), append_string=False)
        elif "nullValue" in pa:
            set_json_path(args, keys, None, append_string=False)

    def _close_call(self) -> None:
        if self.call is None:
            return
        ci, args = self.call
        self.call = None
        final = _copy(args)
        self.writer.tool_delta(ci, json_compact(final), final)
        self.writer.end_tool(ci, _copy(final))


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _int(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0
