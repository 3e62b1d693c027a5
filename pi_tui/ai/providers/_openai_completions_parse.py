"""Response side of the ``openai-completions`` provider: chunks to block events, usage, stop reason.

pi-reference §7.1 consumption rules plus the tool-call assembly rules of cases/README.md 5, 7, 8, 18
(see :mod:`.openai_completions`).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from ..events import (
    AssistantMessageEventStream,
    TextDeltaEvent,
    TextEndEvent,
    TextStartEvent,
    ThinkingDeltaEvent,
    ThinkingEndEvent,
    ThinkingStartEvent,
    ToolCallDeltaEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from ..json_parse import parse_json_with_repair, parse_streaming_json
from ..json_stream import StreamingJsonParser
from ..models import calculate_cost
from ..types import AssistantMessage, Model, TextContent, ThinkingContent, ToolCall, Usage
from ._openrouter_cost import apply_openrouter_reported_cost
from ._provider_run import add_diagnostic
from ._reasoning_details import append_reasoning_detail, encode_reasoning_details, is_reasoning_detail
from ._think_tags import ThinkTagSplitter

REASONING_FIELDS = ("reasoning_content", "reasoning", "reasoning_text")


class ProviderStreamError(Exception):
    """An error object received inside an HTTP 200 stream; carries the raw error for OpenRouter metadata."""

    def __init__(self, message: str, error: Any = None) -> None:
        super().__init__(message)
        self.error = error


def parse_chunk_usage(raw: Mapping[str, Any], model: Model) -> Usage:
    """Usage per pi-reference §7.1: cache reads = ``prompt_tokens_details.cached_tokens``, else
    ``prompt_cache_hit_tokens`` (DeepSeek), else top-level ``cached_tokens`` (Kimi: pi 0.84.3); cache writes =
    ``prompt_tokens_details.cache_write_tokens``; input = the prompt tokens that are neither. The reads are taken
    as reported: pi 0.73 subtracted the writes from them, which undercounted OpenRouter's (pi 0.74.1).
    OpenRouter's billed total replaces the estimate (:mod:`._openrouter_cost`, pi 1.5.0)."""
    prompt = _int(raw.get("prompt_tokens"))
    details = raw.get("prompt_tokens_details") or {}
    if not isinstance(details, Mapping):
        details = {}
    cached_raw = details.get("cached_tokens")
    if cached_raw is None:
        cached_raw = raw.get("prompt_cache_hit_tokens")
    if cached_raw is None:
        cached_raw = raw.get("cached_tokens")
    read = _int(cached_raw)
    write = _int(details.get("cache_write_tokens"))
    inp = max(0, prompt - read - write)
    out = _int(raw.get("completion_tokens"))
    usage = Usage(
        input=inp, output=out, cache_read=read, cache_write=write, total_tokens=inp + out + read + write
    )
    calculate_cost(model, usage)
    apply_openrouter_reported_cost(model, usage, raw)
    return usage


def _int(v: Any) -> int:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0


NORMAL_END_REASONS = frozenset({"stop", "end", "eos", "eos_token", "stop_sequence", "end_turn"})
"""``finish_reason`` values that mean the model ended normally: OpenAI's ``stop``; ``end`` (Ollama, LM Studio:
pi#2116); ``eos`` (Together: openai-dotnet#267); ``eos_token``/``stop_sequence`` (Hugging Face TGI:
text-generation-inference#2344, spring-ai#4900); ``end_turn`` (Anthropic-backed proxies, which also pass
``max_tokens`` and ``tool_use`` through). pi 0.73.1 knows only ``stop``/``end`` (DIFFERENCES.md P7)."""


def map_finish_reason(reason: str | None) -> tuple[str, str | None]:
    """``(stop_reason, error_message)`` for a ``finish_reason`` (pi-reference §1.18)."""
    if reason is None or reason in NORMAL_END_REASONS:
        return "stop", None
    if reason in ("length", "max_tokens", "model_context_window_exceeded"):
        return "length", None
    if reason in ("tool_calls", "function_call", "tool_use"):
        return "toolUse", None
    return "error", f"Provider finish_reason: {reason}"


def merge_tool_name(current: str, piece: str) -> str:
    """The tool name after a delta's ``function.name`` (servers' three dialects, told apart by content).

    OpenAI and vLLM send the name once; MiniMax (NVIDIA NIM), LM Studio and some Ollama builds repeat the
    whole name in every delta; others stream it in pieces (``"get_"``, ``"weather"``) or resend the name so
    far. A piece equal to the name is a repeat, one that starts with the name replaces it (cumulative), any
    other is appended. pi 0.73.1 keeps only the first piece (tests/conformance/DIFFERENCES.md P1).
    """
    if not current or piece.startswith(current):
        return piece
    return current + piece


class _CallState:
    __slots__ = ("block", "args", "parts", "total", "parser", "starts")

    def __init__(self, block: ToolCall) -> None:
        self.block = block
        self.args = ""
        self.parts: list[str] = []
        self.total = 0
        self.parser = StreamingJsonParser()
        self.starts: list[int] = []
        """Offset at which each argument fragment began (for :meth:`repair_resend`)."""

    def add(self, fragment: str) -> None:
        """Append a fragment and update the best-effort arguments and pi's ``partialArgs`` scratch field.

        The arguments are parsed incrementally (each fragment once, pi 1.5.0's fix for quadratic re-parsing);
        they equal ``parse_streaming_json`` of the text so far. The final parse at the end is a full one.
        """
        self.starts.append(self.total)
        self.parts.append(fragment)
        self.total += len(fragment)
        self.block.arguments = self.parser.feed(fragment)
        self.block.partialArgs = self.text()  # type: ignore[attr-defined]  # pi's scratch field (extra)

    def text(self) -> str:
        """The whole argument text received so far."""
        if self.parts:
            self.args += "".join(self.parts)
            self.parts.clear()
        return self.args

    def repair_resend(self) -> None:
        """Arguments that do not parse because the server sent the whole object again (vLLM's end-of-stream
        flush: ``{…}{…}``, ``{{…}``; GLM with MTP: a partial stream, then the complete object) become that
        object: the first fragment boundary after which the rest is one complete JSON object holding every
        key parsed so far before it. Valid text is never touched."""
        text = self.text()
        if _strict_object(text) is not None:
            return
        for start in self.starts[1:]:
            candidate = _strict_object(text[start:])
            if candidate is None:
                continue
            before = parse_streaming_json(text[:start])
            if isinstance(before, dict) and set(before) <= set(candidate):
                self.args = text[start:]
                self.starts = [0]
                self.total = len(self.args)
                return


def _strict_object(text: str) -> dict[str, Any] | None:
    """``text`` parsed strictly as one JSON object, else None."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


class ChunkConsumer:
    """Turns parsed chunks into block events on ``output`` (pi-reference §7.1 + module docstring rules)."""

    def __init__(
        self,
        model: Model,
        output: AssistantMessage,
        stream: AssistantMessageEventStream,
        max_tokens: int | None,
    ) -> None:
        self.model = model
        self.output = output
        self.stream = stream
        self.max_tokens = max_tokens
        self.text: TextContent | None = None
        self.thinking: ThinkingContent | None = None
        self.calls: list[_CallState] = []
        self.by_index: dict[int, _CallState] = {}
        self.by_id: dict[str, _CallState] = {}
        self.active: _CallState | None = None
        self.finish_reason: str | None = None
        self.completion_tokens: int | None = None
        self.tags = ThinkTagSplitter()
        self.field_thinking = False
        self.details: list[dict[str, Any]] = []

    def _index_of(self, block: Any) -> int:
        for i, b in enumerate(self.output.content):
            if b is block:
                return i
        return -1

    def consume(self, chunk: Any) -> None:
        if not isinstance(chunk, dict):
            return
        out = self.output
        if chunk.get("error") is not None:
            err = chunk["error"]
            msg = err.get("message") if isinstance(err, dict) else None
            raise ProviderStreamError(msg if isinstance(msg, str) and msg else json.dumps(err), err)
        if not out.response_id and isinstance(chunk.get("id"), str) and chunk["id"]:
            out.response_id = chunk["id"]
        cm = chunk.get("model")
        if isinstance(cm, str) and cm and cm != self.model.id and not out.response_model:
            out.response_model = cm
        if isinstance(chunk.get("usage"), dict):
            self._set_usage(chunk["usage"])
        choices = chunk.get("choices")
        choice = (
            choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else None
        )
        if choice is None:
            return
        if not isinstance(chunk.get("usage"), dict) and isinstance(choice.get("usage"), dict):
            self._set_usage(choice["usage"])
        if choice.get("finish_reason"):
            self.finish_reason = str(choice["finish_reason"])
        delta = choice.get("delta")
        if delta is None:
            delta = choice.get("message")  # a non-streamed chat.completion answer
        if isinstance(delta, dict):
            self._delta(delta)

    def _set_usage(self, raw: dict[str, Any]) -> None:
        self.output.usage = parse_chunk_usage(raw, self.model)
        self.completion_tokens = _int(raw.get("completion_tokens"))

    def _delta(self, delta: dict[str, Any]) -> None:
        if any(isinstance(delta.get(f), str) and delta.get(f) for f in REASONING_FIELDS):
            self.field_thinking = True  # llama.cpp's deepseek-legacy format sends it in both: keep this one
        # The thought of a delta comes before its answer: a proxy (LiteLLM) that sends both in one chunk must not
        # show the thinking after the text (pi 1.3.0).
        for name in REASONING_FIELDS:
            value = delta.get(name)
            if isinstance(value, str) and value:
                self._thinking(value, name)
                break
        content = delta.get("content")
        if isinstance(content, str) and content:
            self._content(content)
        elif isinstance(content, list):  # Mistral typed parts
            for part in content:
                if not isinstance(part, dict):
                    continue
                if part.get("type") == "text" and isinstance(part.get("text"), str) and part["text"]:
                    self._text(part["text"])
                elif part.get("type") == "thinking":
                    t = part.get("thinking")
                    text = (
                        t
                        if isinstance(t, str)
                        else "".join(
                            p.get("text", "")
                            for p in (t or [])
                            if isinstance(p, dict) and isinstance(p.get("text"), str)
                        )
                    )
                    if text:
                        self._thinking(text, "reasoning_content")
        tool_calls = delta.get("tool_calls")
        if isinstance(tool_calls, list):
            for tc in tool_calls:
                if isinstance(tc, dict):
                    self._tool_delta(tc)
        details = delta.get("reasoning_details")
        if isinstance(details, list):  # kept in order for replay (_reasoning_details; pi 0.84.3/0.84.4)
            for d in details:
                if is_reasoning_detail(d):
                    if self.thinking is None:
                        self._thinking("", None)
                    append_reasoning_detail(self.details, d)

    def _content(self, content: str) -> None:
        """``delta.content``: ``<think>…</think>`` at its start is thinking (servers that leave reasoning in
        the content: LM Studio, llama.cpp without a reasoning format, Ollama's R1 builds), the rest text."""
        self._emit_content(self.tags.feed(content))

    def _flush_content(self) -> None:
        self._emit_content(self.tags.flush())

    def _emit_content(self, pieces: list[tuple[str, str]]) -> None:
        for kind, piece in pieces:
            if kind == "text":
                self._text(piece)
            elif not self.field_thinking:  # a reasoning field carries the same thought: not twice
                self._thinking(piece, "reasoning_content")

    def _text(self, text: str) -> None:
        out = self.output
        if self.text is None:
            self.text = TextContent(text="")
            out.content.append(self.text)
            self.stream.push(TextStartEvent(content_index=len(out.content) - 1, partial=out))
        self.text.text += text
        self.stream.push(TextDeltaEvent(content_index=self._index_of(self.text), delta=text, partial=out))

    def _thinking(self, text: str, field_name: str | None) -> None:
        out = self.output
        if self.thinking is None:
            self.thinking = ThinkingContent(thinking="", thinking_signature=field_name)
            out.content.append(self.thinking)
            self.stream.push(ThinkingStartEvent(content_index=len(out.content) - 1, partial=out))
        if not text:
            return
        self.thinking.thinking += text
        self.stream.push(
            ThinkingDeltaEvent(content_index=self._index_of(self.thinking), delta=text, partial=out)
        )

    def _starts_new_call(
        self, state: _CallState, call_id: str, name: str, args: str, explicit: bool
    ) -> bool:
        """Whether a delta that matched ``state`` really opens another call.

        ``explicit``: the delta carried the call's own index or id (kept for callers; the name rule is the
        same either way). A name other than the call's is a new call only once the call's arguments have begun
        (names stream before arguments, so earlier it is the next piece of the name). A name equal to the
        call's, or extending it, is the same call repeating or growing its name.
        """
        b = state.block
        if call_id and b.id and call_id != b.id:
            return True
        if name and b.name and not name.startswith(b.name) and state.text().strip():
            return True
        if args.lstrip().startswith("{") and state.text().strip():
            return _strict_object(state.text()) is not None
        return False

    @staticmethod
    def _is_duplicate(state: _CallState, call_id: str, args: str) -> bool:
        """The delta repeats the call's complete arguments exactly (vLLM's flush after streaming them)."""
        if not args.lstrip().startswith("{") or (call_id and state.block.id and call_id != state.block.id):
            return False
        done = _strict_object(state.text()) if state.text().strip() else None
        return done is not None and _strict_object(args) == done

    def _tool_delta(self, tc: dict[str, Any]) -> None:
        raw_idx = tc.get("index")
        idx = raw_idx if isinstance(raw_idx, int) and not isinstance(raw_idx, bool) else None
        raw_id = tc.get("id")
        call_id: str = raw_id if isinstance(raw_id, str) else ""
        raw_fn = tc.get("function")
        fn: dict[str, Any] = raw_fn if isinstance(raw_fn, dict) else {}
        raw_name = fn.get("name")
        name: str = raw_name if isinstance(raw_name, str) else ""
        raw_args = fn.get("arguments")
        args: str = (
            raw_args if isinstance(raw_args, str) else (json.dumps(raw_args) if raw_args is not None else "")
        )
        state: _CallState | None = None
        explicit = True
        if call_id and call_id in self.by_id:
            state = self.by_id[call_id]
        elif idx is not None and idx in self.by_index:
            state = self.by_index[idx]
        elif idx is None or (not call_id and not name):
            state = self.active
            explicit = False
        if state is not None and args and self._is_duplicate(state, call_id, args):
            args = ""  # the same arguments again: nothing new for this call
        elif state is not None and self._starts_new_call(state, call_id, name, args, explicit):
            state = None
        out = self.output
        if state is None:
            # pi's streaming scratch fields ride along until the block ends: partialArgs (argument text so
            # far; on the re-parse schedule above 16 KB) and streamIndex (the delta's index, when it had one)
            block = ToolCall(id=call_id, name=name, arguments={}, partialArgs="")  # type: ignore[call-arg]
            if idx is not None:
                block.streamIndex = idx  # type: ignore[attr-defined]
            state = _CallState(block)
            self.calls.append(state)
            out.content.append(state.block)
            self.stream.push(ToolCallStartEvent(content_index=len(out.content) - 1, partial=out))
        if idx is not None:
            self.by_index[idx] = state
            extra = state.block.__pydantic_extra__
            if extra is not None and "streamIndex" not in extra:
                extra["streamIndex"] = idx
        if call_id:
            if not state.block.id:
                state.block.id = call_id
            self.by_id.setdefault(call_id, state)
        if name:
            state.block.name = merge_tool_name(state.block.name, name)
        self.active = state
        if args:
            state.add(args)
        self.stream.push(
            ToolCallDeltaEvent(content_index=self._index_of(state.block), delta=args, partial=out)
        )

    def finish(self) -> None:
        """Map the stop reason, finalise tool calls (ids, diagnostics) and push every ``*_end`` in block order."""
        self._flush_content()
        out = self.output
        stop, err = map_finish_reason(self.finish_reason)
        truncated = stop == "length" or (
            self.max_tokens is not None
            and self.completion_tokens is not None
            and self.completion_tokens >= self.max_tokens > 0
        )
        if truncated and stop != "error":
            stop = "length"
        elif stop == "stop" and self.calls:
            stop = "toolUse"  # Ollama & co. say "stop" next to tool calls
        out.stop_reason = stop  # type: ignore[assignment]
        if err:
            out.error_message = err
        if self.finish_reason == "model_context_window_exceeded":  # z.ai GLM, Bedrock proxies: an overflow
            add_diagnostic(out, "context_window_exceeded", {"stopReason": self.finish_reason})
        self._finalise_calls()
        for n, state in enumerate(self.calls):
            b = state.block
            full = state.text()
            reason: str | None = None
            if full.strip():
                try:
                    parsed = parse_json_with_repair(full)
                    if not isinstance(parsed, dict):
                        reason = "invalid_json"
                except (ValueError, RecursionError):
                    reason = "truncated" if truncated else "invalid_json"
            if reason is None and truncated and n == len(self.calls) - 1:
                reason = "truncated"
            if reason is not None:
                add_diagnostic(out, "tool_call_arguments_invalid", {"toolCallId": b.id, "reason": reason})
        self._push_ends()

    def end_blocks(self) -> None:
        """The stream stopped early (abort): finalise tool-call arguments and push every ``*_end`` in block order.

        pi 0.73.1 does the same: the OpenAI SDK ends an aborted stream quietly, pi closes every block, then
        fails with ``Request was aborted`` (pi traces, observation 8). No stop reason, no diagnostics.
        """
        self._flush_content()
        self._finalise_calls()
        self._push_ends()

    def _finalise_calls(self) -> None:
        """Final ids and arguments; the scratch fields leave every call before any ``*_end`` (as in pi).

        The reasoning details go on the thinking block (serialized once, pi 0.84.4); each call also keeps its
        own encrypted detail (matched by id, even when the detail came before the call's first delta) in
        ``thoughtSignature``, the form pi 0.73 replays."""
        if self.details and self.thinking is not None:
            self.thinking.thinking_signature = encode_reasoning_details(self.details)
            for d in self.details:
                state = self.by_id.get(d["id"]) if isinstance(d.get("id"), str) else None
                if state is not None and d["type"] == "reasoning.encrypted" and d["data"]:
                    state.block.thought_signature = json.dumps(d)
        for state in self.calls:
            b = state.block
            if not b.id:
                b.id = f"call_{uuid.uuid4().hex[:24]}"
            state.repair_resend()
            b.arguments = parse_streaming_json(state.text())
            extra = b.__pydantic_extra__
            if extra:
                extra.pop("partialArgs", None)
                extra.pop("streamIndex", None)

    def _push_ends(self) -> None:
        out = self.output
        for i, block in enumerate(out.content):
            if isinstance(block, TextContent):
                self.stream.push(TextEndEvent(content_index=i, content=block.text, partial=out))
            elif isinstance(block, ThinkingContent):
                self.stream.push(ThinkingEndEvent(content_index=i, content=block.thinking, partial=out))
            elif isinstance(block, ToolCall):
                self.stream.push(ToolCallEndEvent(content_index=i, tool_call=block, partial=out))


def openrouter_error_detail(exc: BaseException) -> str | None:
    err = getattr(exc, "error", None)
    if isinstance(err, dict):
        meta = err.get("metadata")
        if isinstance(meta, dict) and meta.get("raw"):
            return str(meta["raw"])
    return None

