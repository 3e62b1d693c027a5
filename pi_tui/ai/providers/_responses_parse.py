"""OpenAI Responses SSE stream -> assistant message events (pi-reference §7.3, §1.18; fixtures README).

:class:`ResponsesStreamParser` is fed parsed event objects; :meth:`~ResponsesStreamParser.feed` returns True
once a terminal event (``response.completed``/``response.incomplete``/``response.done``) was handled, so the
caller can stop reading even if the server keeps the body open (Codex).

* Output items are keyed by ``output_index`` (never by ``item_id``, which some proxies rotate); events without
  an ``output_index`` go to the most recently added item.
* ``reasoning`` → thinking: summary parts joined with ``"\\n\\n"`` (the separator is streamed when the next part
  starts), else ``reasoning_text`` content parts joined the same way. At ``output_item.done`` the thinking text
  is the item's joined summaries (or content) and ``thinking_signature`` the item's JSON (replayed verbatim).
* ``message`` → one text block: its ``output_text``/``refusal`` parts concatenated; ``text_signature`` =
  ``{"v":1,"id":item.id,"phase"?}``.
* ``function_call`` → tool call with id ``"<call_id>|<item id>"``; argument deltas concatenated and parsed
  best-effort; ``function_call_arguments.done`` streams only the missing suffix; final arguments at
  ``output_item.done``. When the final text differs from what was streamed and extends it, the missing suffix
  is pushed as one more delta so deltas always add up to the final block.
* Items still open at the terminal event are closed from their deltas.
* ``response.completed``: usage ``input = input_tokens − cached − cache_write``, ``cacheRead = cached``,
  ``cacheWrite = cache_write_tokens or 0``, ``output = output_tokens``, ``total = total_tokens`` (else the sum);
  status completed/in_progress/queued → stop, incomplete → length (``content_filter`` → error), failed/
  cancelled → error; ``stop`` becomes ``toolUse`` when a tool call was output.
* ``error`` event → ``Error Code <code>: <message>``; ``response.failed`` → ``<code>: <message>`` /
  ``incomplete: <reason>`` / ``Unknown error (no error details in response)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..json_parse import parse_streaming_json
from ..json_stream import StreamingJsonParser
from ..models import calculate_cost
from ..types import Model, ThinkingContent, ToolCall, Usage
from ._responses_shared import encode_text_signature
from ._stream_blocks import BlockWriter, ProviderError, json_compact

TERMINAL_EVENTS = frozenset({"response.completed", "response.incomplete", "response.done"})
_STATUS = {
    "completed": "stop",
    "in_progress": "stop",
    "queued": "stop",
    "incomplete": "length",
    "failed": "error",
    "cancelled": "error",
}


@dataclass
class _Item:
    kind: str  # reasoning | message | function_call
    ci: int
    item: dict[str, Any]
    summary: list[str] = field(default_factory=list)
    reasoning_content: dict[int, str] = field(default_factory=dict)
    parts: list[dict[str, Any]] = field(default_factory=list)
    partial_json: str = ""
    parser: StreamingJsonParser = field(default_factory=StreamingJsonParser)
    """Parses the streamed arguments incrementally (each delta once, pi 1.5.0)."""
    done: bool = False


def responses_label(model: Model) -> str:
    """Who answered, for error texts: ``OpenAI`` for OpenAI itself, else the provider id (pi 0.86.0, #9298:
    an OpenAI-compatible Responses endpoint's errors were all labelled OpenAI)."""
    return "OpenAI" if model.provider in ("openai", "azure-openai-responses") else model.provider


def service_tier_multiplier(model: Model, tier: str | None) -> float:
    """Cost multiplier of an OpenAI service tier: flex ×0.5, priority ×2 (×2.5 for gpt-5.5), else 1."""
    if tier == "flex":
        return 0.5
    if tier == "priority":
        return 2.5 if model.id == "gpt-5.5" else 2.0
    return 1.0


def apply_service_tier_pricing(usage: Usage, tier: str | None, model: Model) -> None:
    """Scale every cost component by :func:`service_tier_multiplier` and recompute the total."""
    m = service_tier_multiplier(model, tier)
    if m == 1.0:
        return
    c = usage.cost
    c.input *= m
    c.output *= m
    c.cache_read *= m
    c.cache_write *= m
    c.total = c.input + c.output + c.cache_read + c.cache_write


def _int(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


class ResponsesStreamParser:
    """Incremental reader of one Responses stream (see the module docstring)."""

    def __init__(
        self,
        writer: BlockWriter,
        model: Model,
        service_tier: str | None = None,
        resolve_service_tier: Callable[[str | None, str | None], str | None] | None = None,
    ) -> None:
        self.writer = writer
        self.model = model
        self.service_tier = service_tier
        self.resolve_service_tier = resolve_service_tier
        self.items: dict[int, _Item] = {}
        self.last_index: int | None = None
        self.terminated = False

    # ------------------------------------------------------------------ dispatch
    def feed(self, ev: dict[str, Any]) -> bool:
        """Handle one event object; returns True once the response is complete."""
        kind = ev.get("type")
        out = self.writer.output
        if kind == "response.created":
            rid = (ev.get("response") or {}).get("id")
            if isinstance(rid, str):
                out.response_id = rid
        elif kind == "response.output_item.added":
            self._item_added(ev)
        elif kind == "response.reasoning_summary_part.added":
            self._summary_part_added(ev)
        elif kind == "response.reasoning_summary_text.delta":
            self._summary_delta(ev)
        elif kind == "response.reasoning_text.delta":
            self._reasoning_text_delta(ev)
        elif kind == "response.content_part.added":
            it = self._item(ev, "message")
            part = ev.get("part") or {}
            if it is not None and part.get("type") in ("output_text", "refusal"):
                it.parts.append({"type": part["type"], "text": ""})
        elif kind in ("response.output_text.delta", "response.refusal.delta"):
            self._text_delta(ev, "output_text" if kind == "response.output_text.delta" else "refusal")
        elif kind == "response.function_call_arguments.delta":
            it = self._item(ev, "function_call")
            if it is not None:
                fragment = str(ev.get("delta") or "")
                it.partial_json += fragment
                self.writer.set_scratch(it.ci, "partialJson", it.partial_json)
                self.writer.tool_delta(it.ci, fragment, it.parser.feed(fragment))
        elif kind == "response.function_call_arguments.done":
            it = self._item(ev, "function_call")
            if it is not None and isinstance(ev.get("arguments"), str):
                self._args_to(it, ev["arguments"])
        elif kind == "response.output_item.done":
            self._item_done(ev)
        elif kind in TERMINAL_EVENTS:
            self._completed(ev)
            return True
        elif kind == "error":
            raw_err = ev.get("error")
            err: dict[str, Any] = raw_err if isinstance(raw_err, dict) else {}
            code = ev.get("code") or err.get("code") or err.get("type")
            message = ev.get("message") or err.get("message")
            raise ProviderError(f"Error Code {code}: {message}")
        elif kind == "response.failed":
            response = ev.get("response") or {}
            error = response.get("error")
            details = response.get("incomplete_details")
            if error:
                msg = f"{error.get('code') or 'unknown'}: {error.get('message') or 'no message'}"
            elif isinstance(details, dict) and details.get("reason"):
                msg = f"incomplete: {details['reason']}"
            else:
                msg = "Unknown error (no error details in response)"
            raise ProviderError(msg)
        return False

    def finish(self) -> None:
        """Call when the body ended: a stream without a terminal event is an error."""
        if not self.terminated:
            raise ProviderError(f"{responses_label(self.model)} Responses stream ended before response.completed")

    # ------------------------------------------------------------------ items
    def _item(self, ev: dict[str, Any], kind: str) -> _Item | None:
        index = ev.get("output_index")
        it = (
            self.items.get(index)
            if isinstance(index, int)
            else (self.items.get(self.last_index) if self.last_index is not None else None)
        )
        if it is None or it.kind != kind or it.done:
            return None
        return it

    def _item_added(self, ev: dict[str, Any]) -> None:
        item = dict(ev.get("item") or {})
        index = ev.get("output_index")
        if not isinstance(index, int):
            index = (max(self.items) + 1) if self.items else 0
        it = self._open_item(item, index)
        if it is not None:
            self.last_index = index

    def _open_item(self, item: dict[str, Any], index: int) -> _Item | None:
        w = self.writer
        kind = item.get("type")
        if kind == "reasoning":
            it = _Item("reasoning", w.open_thinking(), item)
        elif kind == "message":
            it = _Item("message", w.open_text(), item)
        elif kind == "function_call":
            call_id = f"{item.get('call_id') or ''}|{item.get('id') or ''}"
            initial = item.get("arguments")
            scratch = {"partialJson": initial if isinstance(initial, str) else ""}  # pi's scratch, until done
            it = _Item("function_call", w.open_tool(call_id, str(item.get("name") or ""), scratch=scratch), item)
            if isinstance(initial, str) and initial:
                it.partial_json = initial
                w.tool_delta(it.ci, initial, it.parser.feed(initial))
        else:
            return None  # server-side items (web_search_call, ...) are not client content
        self.items[index] = it
        return it

    def _summary_part_added(self, ev: dict[str, Any]) -> None:
        it = self._item(ev, "reasoning")
        if it is None:
            return
        if it.summary:
            self.writer.thinking_delta(it.ci, "\n\n")
        it.summary.append("")

    def _summary_delta(self, ev: dict[str, Any]) -> None:
        it = self._item(ev, "reasoning")
        if it is None:
            return
        if not it.summary:
            it.summary.append("")
        delta = str(ev.get("delta") or "")
        it.summary[-1] += delta
        self.writer.thinking_delta(it.ci, delta)

    def _reasoning_text_delta(self, ev: dict[str, Any]) -> None:
        it = self._item(ev, "reasoning")
        if it is None:
            return
        ci = ev.get("content_index")
        key = ci if isinstance(ci, int) else (max(it.reasoning_content) if it.reasoning_content else 0)
        delta = str(ev.get("delta") or "")
        if key not in it.reasoning_content:
            if it.reasoning_content and not it.summary:
                self.writer.thinking_delta(it.ci, "\n\n")
            it.reasoning_content[key] = ""
        it.reasoning_content[key] += delta
        if not it.summary:
            self.writer.thinking_delta(it.ci, delta)

    def _text_delta(self, ev: dict[str, Any], part_type: str) -> None:
        it = self._item(ev, "message")
        if it is None:
            return
        if not it.parts:
            it.parts.append({"type": part_type, "text": ""})
        part = it.parts[-1]
        if part["type"] != part_type:
            return
        delta = str(ev.get("delta") or "")
        part["text"] += delta
        self.writer.text_delta(it.ci, delta)

    def _args_to(self, it: _Item, arguments: str) -> None:
        previous = it.partial_json
        it.partial_json = arguments
        self.writer.set_scratch(it.ci, "partialJson", arguments)
        if arguments.startswith(previous):
            parsed = it.parser.feed(arguments[len(previous) :])
        else:  # the server's text replaces what was streamed: parse it afresh
            it.parser = StreamingJsonParser()
            parsed = it.parser.feed(arguments)
        block = self.writer.output.content[it.ci]
        assert isinstance(block, ToolCall)
        if arguments.startswith(previous) and len(arguments) > len(previous):
            self.writer.tool_delta(it.ci, arguments[len(previous) :], parsed)
        else:
            block.arguments = parsed

    def _item_done(self, ev: dict[str, Any]) -> None:
        item = dict(ev.get("item") or {})
        index = ev.get("output_index")
        it = (
            self.items.get(index)
            if isinstance(index, int)
            else (self.items.get(self.last_index) if self.last_index is not None else None)
        )
        if it is None or it.done or it.kind != item.get("type"):
            if item.get("type") not in ("reasoning", "message", "function_call"):
                return
            key = index if isinstance(index, int) else ((max(self.items) + 1) if self.items else 0)
            it = self._open_item(item, key)
            if it is None:
                return
        it.item = item
        self._close(it, final=True)

    def _close(self, it: _Item, final: bool) -> None:
        """End ``it``'s block; ``final`` = its ``output_item.done`` payload is in ``it.item``."""
        if it.done:
            return
        it.done = True
        w = self.writer
        block = w.output.content[it.ci]
        if it.kind == "reasoning":
            assert isinstance(block, ThinkingContent)
            if final:
                summary = [
                    str(s.get("text") or "") for s in it.item.get("summary") or [] if isinstance(s, dict)
                ]
                content = [
                    str(c.get("text") or "") for c in it.item.get("content") or [] if isinstance(c, dict)
                ]
                text = "\n\n".join(summary) or "\n\n".join(content) or block.thinking
                self._complete_text(it.ci, text, thinking=True)
                block.thinking_signature = json_compact(it.item)
            w.end_thinking(it.ci)
        elif it.kind == "message":
            if final:
                parts = it.item.get("content") or []
                text = "".join(
                    str(p.get("text") if p.get("type") == "output_text" else p.get("refusal") or "")
                    for p in parts
                    if isinstance(p, dict)
                )
                self._complete_text(it.ci, text, thinking=False)
                if isinstance(it.item.get("id"), str):
                    phase = it.item.get("phase")
                    w.output.content[it.ci].text_signature = encode_text_signature(  # type: ignore[union-attr]
                        it.item["id"], phase if isinstance(phase, str) else None
                    )
            w.end_text(it.ci)
        else:
            if final and not it.partial_json and isinstance(it.item.get("arguments"), str):
                self._args_to(it, it.item["arguments"])
            w.drop_scratch(it.ci)
            w.end_tool(it.ci, parse_streaming_json(it.partial_json) if it.partial_json else {})

    def _complete_text(self, ci: int, final_text: str, thinking: bool) -> None:
        block = self.writer.output.content[ci]
        current = block.thinking if isinstance(block, ThinkingContent) else block.text  # type: ignore[union-attr]
        if final_text == current:
            return
        if final_text.startswith(current):
            suffix = final_text[len(current) :]
            if thinking:
                self.writer.thinking_delta(ci, suffix)
            else:
                self.writer.text_delta(ci, suffix)
        elif isinstance(block, ThinkingContent):
            block.thinking = final_text
        else:
            block.text = final_text  # type: ignore[union-attr]

    # ------------------------------------------------------------------ terminal
    def _completed(self, ev: dict[str, Any]) -> None:
        self.terminated = True
        for it in list(self.items.values()):
            self._close(it, final=False)
        out = self.writer.output
        response = ev.get("response") or {}
        if isinstance(response.get("id"), str):
            out.response_id = response["id"]
        usage = response.get("usage")
        if isinstance(usage, dict):
            details = usage.get("input_tokens_details") or {}
            cached = _int(details.get("cached_tokens"))
            written = _int(details.get("cache_write_tokens"))
            u = out.usage
            u.input = _int(usage.get("input_tokens")) - cached - written
            u.output = _int(usage.get("output_tokens"))
            u.cache_read = cached
            u.cache_write = written
            u.total_tokens = _int(usage.get("total_tokens")) or (
                u.input + u.output + u.cache_read + u.cache_write
            )
        calculate_cost(self.model, out.usage)
        tier_raw = response.get("service_tier")
        tier = tier_raw if isinstance(tier_raw, str) else None
        tier = (
            self.resolve_service_tier(tier, self.service_tier)
            if self.resolve_service_tier
            else (tier or self.service_tier)
        )
        apply_service_tier_pricing(out.usage, tier, self.model)
        status = response.get("status")
        if ev.get("type") == "response.incomplete" and not status:
            status = "incomplete"
        if not status:
            out.stop_reason = "stop"
        elif status in _STATUS:
            out.stop_reason = _STATUS[status]  # type: ignore[assignment]
        else:
            raise ProviderError(f"Unhandled stop reason: {status}")
        details = response.get("incomplete_details")
        reason = details.get("reason") if isinstance(details, dict) else None
        if out.stop_reason == "length" and reason == "content_filter":
            out.stop_reason = "error"
            out.error_message = "incomplete: content_filter"
        elif out.stop_reason == "error":
            error = response.get("error")
            if isinstance(error, dict) and error:
                out.error_message = (
                    f"{error.get('code') or 'unknown'}: {error.get('message') or 'no message'}"
                )
        if out.stop_reason == "stop" and self.writer.has_tool_call():
            out.stop_reason = "toolUse"
