"""Anthropic Messages SSE stream -> assistant message events (pi-reference §7.2, §1.17, §1.18).

:class:`AnthropicStreamParser` is fed one SSE event at a time (name + raw data string) and updates the
:class:`BlockWriter`'s output. Rules (pi 0.73 plus the fixture corpus rules of fixtures/streams/README.md):

* Consumed events: ``message_start``, ``content_block_start|delta|stop``, ``message_delta``,
  ``message_stop``. ``event: error`` raises with the raw data as the message. Any other event (``ping``,
  ``[DONE]``, ``proxy.stats``, unknown names) is ignored, also after ``message_stop``.
* Data is parsed with repair; an unparseable consumed event raises
  ``Could not parse Anthropic SSE event <event>: <err>; data=<data>; raw=<raw lines>``.
* A repeated ``message_start`` with the id of the open message is ignored; a different id raises.
* Content blocks are keyed by the provider's ``index``. ``text``/``thinking``/``redacted_thinking``/``tool_use``
  become text/thinking/thinking(redacted, text ``[Reasoning redacted]``, data in the signature)/toolCall;
  server-side blocks (``server_tool_use``, ``*_tool_result``) are skipped. ``input_json_delta`` fragments are
  concatenated; each delta updates a best-effort parse for the live preview (never raises) and the joined
  string is parsed once more at ``content_block_stop`` (empty string -> ``{}``; cases/README.md case 11).
* ``start`` is pushed when ``message_start`` has been applied (before any other event is handled; the
  provider pushes it on every other exit too), so its snapshot already carries the initial usage but not the
  ``responseId``, which is set just after. That is what pi 0.73.1 shows in ``message_start``: its copy
  shares the usage object that ``message_start`` fills in place, while ``responseId`` is added to the live
  message after the copy (trace coding/json-anthropic-tool-loop, events 5 and 33).
* Usage starts from ``message_start.message.usage``; every non-null ``message_delta.usage`` field replaces the
  stored one; ``total_tokens`` is the sum of the four; cost recomputed each time.
* ``stop_reason`` (every current value; tests/regressions/test_anthropic_stop_reasons.py): end_turn and
  stop_sequence -> stop; max_tokens -> length; tool_use -> toolUse; ``model_context_window_exceeded`` ->
  length with a ``context_window_exceeded`` diagnostic, which :func:`pi_tui.ai.overflow.is_context_overflow`
  reads, so the session compacts and retries; ``pause_turn`` -> stop with :attr:`AnthropicStreamParser.paused`
  set (the provider sends the reply back and continues the turn); refusal/sensitive -> error with
  :func:`refusal_message`; an unknown value -> error ``Anthropic ended the reply with stop reason <x>, which
  pi-tui does not know`` (pi 0.73.1 throws ``Unhandled stop reason: <x>`` for the unknown ones, including
  ``model_context_window_exceeded``; DIFFERENCES.md P4).
* A stream that saw ``message_start`` but no ``message_stop`` raises ``Anthropic stream ended before
  message_stop``; one without any ``message_start`` (empty 200 body) raises ``Anthropic stream ended before
  message_start`` (pi would report an empty successful message). Blocks left open at the end are ended.
* Redacted thinking streams its placeholder text as one ``thinking_delta`` so deltas add up to the block.
"""

from __future__ import annotations

from typing import Any

from ..json_parse import parse_json_with_repair, parse_streaming_json
from ..json_stream import StreamingJsonParser
from ..models import calculate_cost
from ..types import Model, Tool, Usage
from ._openrouter_cost import apply_openrouter_reported_cost
from ._provider_run import add_diagnostic
from ._stream_blocks import BlockWriter, ProviderError

CONSUMED_EVENTS = frozenset(
    {"message_start", "message_delta", "message_stop", "content_block_start", "content_block_delta",
     "content_block_stop"}
)

REDACTED_THINKING_TEXT = "[Reasoning redacted]"

_STOP_REASONS: dict[str, str] = {
    "end_turn": "stop",
    "pause_turn": "stop",
    "stop_sequence": "stop",
    "max_tokens": "length",
    "model_context_window_exceeded": "length",
    "tool_use": "toolUse",
    "refusal": "error",
    "sensitive": "error",
}

CONTEXT_WINDOW_EXCEEDED = "context_window_exceeded"
"""Diagnostic type of a reply cut off because the context window is full (a ``length`` stop that is an
overflow; :func:`pi_tui.ai.overflow.is_context_overflow`)."""


def refusal_message(reason: str, explanation: str | None) -> str:
    """The error text of a ``refusal``/``sensitive`` stop: says the model declined, plus the API's explanation."""
    text = f"The model refused to answer this request (stop reason: {reason})."
    if explanation:
        text += f" {explanation}"
    return text

# Claude Code canonical tool names (OAuth "stealth" mode, pi-reference §1.13).
CLAUDE_CODE_TOOLS = (
    "Read", "Write", "Edit", "Bash", "Grep", "Glob", "AskUserQuestion", "EnterPlanMode", "ExitPlanMode",
    "KillShell", "NotebookEdit", "Skill", "Task", "TaskOutput", "TodoWrite", "WebFetch", "WebSearch",
)
_CC_LOOKUP = {name.lower(): name for name in CLAUDE_CODE_TOOLS}


def to_claude_code_name(name: str) -> str:
    """Claude Code casing of a tool name when it matches one case-insensitively, else the name unchanged."""
    return _CC_LOOKUP.get(name.lower(), name)


def from_claude_code_name(name: str, tools: list[Tool] | None) -> str:
    """Map a name returned under OAuth back to the caller's tool name (case-insensitive match), else unchanged."""
    lower = name.lower()
    for tool in tools or []:
        if tool.name.lower() == lower:
            return tool.name
    return name


def map_stop_reason(reason: str) -> str:
    """Anthropic ``stop_reason`` -> pi stop reason (``"error"`` for a value not in the table)."""
    return _STOP_REASONS.get(reason, "error")


class AnthropicStreamParser:
    """Incremental reader of one Anthropic Messages stream (see the module docstring for the rules)."""

    def __init__(self, writer: BlockWriter, model: Model, tools: list[Tool] | None = None,
                 is_oauth: bool = False) -> None:
        self.writer = writer
        self.model = model
        self.tools = tools
        self.is_oauth = is_oauth
        self.message_id: str | None = None
        self.saw_message_start = False
        self.saw_message_stop = False
        self.paused = False
        """The reply ended with ``pause_turn``: the turn is not over (the provider continues it)."""
        self._blocks: dict[int, int] = {}  # provider block index -> content index
        self._partial_json: dict[int, str] = {}  # content index -> joined input_json_delta fragments
        self._arg_parsers: dict[int, StreamingJsonParser] = {}  # content index -> incremental argument parser
        self._open: set[int] = set()  # content indexes not yet ended

    # ------------------------------------------------------------------ entry points
    def feed(self, event: str | None, data: str) -> None:
        """Handle one SSE event. ``event`` may be None/"message" (then the data's ``type`` decides)."""
        name = event or ""
        if name == "error":
            raise ProviderError(data)
        if name not in CONSUMED_EVENTS:
            if name not in ("", "message"):
                return
            # No usable event name: fall back to the payload's type (lenient; pi would skip these).
            try:
                payload = parse_json_with_repair(data)
            except Exception:
                return
            if not isinstance(payload, dict):
                return
            kind = payload.get("type")
            if kind == "error":
                raise ProviderError(data)
            if kind not in CONSUMED_EVENTS:
                return
            self.handle(payload)
            return
        try:
            payload = parse_json_with_repair(data)
        except Exception as exc:
            raw = f"event: {name}\\ndata: {data}"
            raise ProviderError(
                f"Could not parse Anthropic SSE event {name}: {exc}; data={data}; raw={raw}"
            ) from exc
        if not isinstance(payload, dict):
            raise ProviderError(
                f"Could not parse Anthropic SSE event {name}: not a JSON object; data={data}; "
                f"raw=event: {name}\\ndata: {data}"
            )
        self.handle(payload)

    def finish(self) -> None:
        """Call when the body ended: enforce ``message_stop`` after ``message_start``."""
        if self.saw_message_start and not self.saw_message_stop:
            raise ProviderError("Anthropic stream ended before message_stop")
        if not self.saw_message_start:
            raise ProviderError("Anthropic stream ended before message_start")
        for ci in sorted(self._open):  # blocks a proxy never stopped: end them so every start has its end
            self._end_block(ci)

    # ------------------------------------------------------------------ events
    def handle(self, ev: dict[str, Any]) -> None:
        """Apply one parsed event object."""
        kind = ev.get("type")
        if kind != "message_start":
            self.writer.start()  # no-op once started; a stream without message_start still gets its start
        if kind == "message_start":
            self._message_start(ev)
        elif kind == "content_block_start":
            self._block_start(ev)
        elif kind == "content_block_delta":
            self._block_delta(ev)
        elif kind == "content_block_stop":
            self._block_stop(ev)
        elif kind == "message_delta":
            self._message_delta(ev)
        elif kind == "message_stop":
            self.saw_message_stop = True

    def _message_start(self, ev: dict[str, Any]) -> None:
        message = ev.get("message") or {}
        msg_id = message.get("id")
        if self.saw_message_start:
            if msg_id == self.message_id:
                return  # duplicate message_start for the open message: ignored
            raise ProviderError(
                f"Anthropic stream sent a second message_start with a different id "
                f"({msg_id} while {self.message_id} is open)"
            )
        self.saw_message_start = True
        self.message_id = msg_id
        out = self.writer.output
        usage = message.get("usage") or {}
        out.usage.input = _int(usage.get("input_tokens"))
        out.usage.output = _int(usage.get("output_tokens"))
        out.usage.cache_read = _int(usage.get("cache_read_input_tokens"))
        out.usage.cache_write = _int(usage.get("cache_creation_input_tokens"))
        _set_long_writes(out.usage, usage)
        self._update_total()
        # ``start`` snapshots the message here: with the initial usage, before ``responseId`` (module docstring).
        self.writer.start()
        if isinstance(msg_id, str):
            out.response_id = msg_id

    def _block_start(self, ev: dict[str, Any]) -> None:
        block = ev.get("content_block") or {}
        index = ev.get("index")
        btype = block.get("type")
        w = self.writer
        if isinstance(index, int) and self._blocks.get(index) in self._open:
            self._end_block(self._blocks[index])  # a reused index ends the block that held it
        scratch = {"index": index} if isinstance(index, int) else {}  # pi's scratch, until the block stops
        if btype == "text":
            ci = w.open_text(scratch)
            initial = block.get("text")
            if isinstance(initial, str) and initial:
                w.text_delta(ci, initial)
        elif btype == "thinking":
            ci = w.open_thinking(thinking="", signature="", scratch=scratch)
            initial = block.get("thinking")
            if isinstance(initial, str) and initial:
                w.thinking_delta(ci, initial)
        elif btype == "redacted_thinking":
            data = block.get("data")
            ci = w.open_thinking("", data if isinstance(data, str) else "", True, scratch=scratch)
            w.thinking_delta(ci, REDACTED_THINKING_TEXT)  # streamed so deltas add up to the block text
        elif btype == "tool_use":
            name = str(block.get("name") or "")
            if self.is_oauth:
                name = from_claude_code_name(name, self.tools)
            initial_input = block.get("input")
            ci = w.open_tool(str(block.get("id") or ""), name,
                             initial_input if isinstance(initial_input, dict) else {},
                             scratch={"partialJson": "", **scratch})
            self._partial_json[ci] = ""
            self._arg_parsers.pop(ci, None)
        else:
            return  # server-side blocks are not client content
        if isinstance(index, int):
            self._blocks[index] = ci
        self._open.add(ci)

    def _lookup(self, ev: dict[str, Any]) -> int | None:
        index = ev.get("index")
        if not isinstance(index, int):
            return None
        ci = self._blocks.get(index)
        if ci is None or ci not in self._open:
            return None
        return ci

    def _block_delta(self, ev: dict[str, Any]) -> None:
        ci = self._lookup(ev)
        if ci is None:
            return
        delta = ev.get("delta") or {}
        dtype = delta.get("type")
        w = self.writer
        block = w.output.content[ci]
        if dtype == "text_delta" and block.type == "text":
            w.text_delta(ci, str(delta.get("text") or ""))
        elif dtype == "thinking_delta" and block.type == "thinking":
            w.thinking_delta(ci, str(delta.get("thinking") or ""))
        elif dtype == "input_json_delta" and block.type == "toolCall":
            fragment = str(delta.get("partial_json") or "")
            joined = self._partial_json.get(ci, "") + fragment
            self._partial_json[ci] = joined
            w.set_scratch(ci, "partialJson", joined)
            parser = self._arg_parsers.get(ci)
            if parser is None:
                parser = self._arg_parsers[ci] = StreamingJsonParser()
            w.tool_delta(ci, fragment, parser.feed(fragment))  # each fragment parsed once (pi 1.5.0)
        elif dtype == "signature_delta" and block.type == "thinking":
            block.thinking_signature = (block.thinking_signature or "") + str(delta.get("signature") or "")

    def _block_stop(self, ev: dict[str, Any]) -> None:
        ci = self._lookup(ev)
        if ci is not None:
            self._end_block(ci)

    def _end_block(self, ci: int) -> None:
        self._open.discard(ci)
        w = self.writer
        w.drop_scratch(ci)
        block = w.output.content[ci]
        if block.type == "text":
            w.end_text(ci)
        elif block.type == "thinking":
            w.end_thinking(ci)
        elif block.type == "toolCall":
            joined = self._partial_json.pop(ci, "")
            self._arg_parsers.pop(ci, None)
            args = parse_streaming_json(joined) if joined.strip() else (block.arguments or {})
            w.end_tool(ci, args)

    def _message_delta(self, ev: dict[str, Any]) -> None:
        out = self.writer.output
        delta = ev.get("delta") or {}
        reason = delta.get("stop_reason")
        if reason:
            reason = str(reason)
            mapped = map_stop_reason(reason)
            out.stop_reason = mapped  # type: ignore[assignment]
            self.paused = reason == "pause_turn"
            if reason == "model_context_window_exceeded":
                add_diagnostic(out, CONTEXT_WINDOW_EXCEEDED, {"stopReason": reason})
            if mapped == "error":
                details = delta.get("stop_details")
                explanation = details.get("explanation") if isinstance(details, dict) else None
                explanation = explanation if isinstance(explanation, str) and explanation else None
                if reason in _STOP_REASONS:
                    out.error_message = refusal_message(reason, explanation)
                else:
                    out.error_message = (
                        f"Anthropic ended the reply with stop reason {reason}, which pi-tui does not know"
                    )
        usage = ev.get("usage") or {}
        if usage.get("input_tokens") is not None:
            out.usage.input = _int(usage["input_tokens"])
        if usage.get("output_tokens") is not None:
            out.usage.output = _int(usage["output_tokens"])
        if usage.get("cache_read_input_tokens") is not None:
            out.usage.cache_read = _int(usage["cache_read_input_tokens"])
        if usage.get("cache_creation_input_tokens") is not None:
            out.usage.cache_write = _int(usage["cache_creation_input_tokens"])
        _set_long_writes(out.usage, usage)
        self._update_total()
        if isinstance(usage, dict):
            apply_openrouter_reported_cost(self.model, out.usage, usage)  # OpenRouter's billed total (pi 1.5.0)

    def _update_total(self) -> None:
        u = self.writer.output.usage
        u.total_tokens = u.input + u.output + u.cache_read + u.cache_write
        calculate_cost(self.model, u)


def _set_long_writes(usage: Usage, raw: Any) -> None:
    """``usage.cache_write_1h`` from ``raw.cache_creation.ephemeral_1h_input_tokens`` when reported (pi 0.99.0)."""
    breakdown = raw.get("cache_creation") if isinstance(raw, dict) else None
    if isinstance(breakdown, dict) and breakdown.get("ephemeral_1h_input_tokens") is not None:
        usage.cache_write_1h = _int(breakdown["ephemeral_1h_input_tokens"])


def _int(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    return 0

