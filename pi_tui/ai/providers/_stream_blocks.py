"""Block bookkeeping shared by the anthropic-messages, openai-responses and google-generative-ai providers.

:class:`BlockWriter` owns the assistant message under construction (``output``) and the event stream. It
appends content blocks and pushes the matching AssistantMessageEvents of pi-reference §1.10 with the right
``content_index``. The ``start`` event's ``partial`` is a snapshot (:func:`snapshot`) of ``output`` when it is
pushed; every block event's ``partial`` is the same mutable ``output`` object (aliasing, §1.10 item 7).
Parser scratch state (partial JSON strings, provider block indexes) lives in the parsers, never on the
blocks, so nothing has to be stripped before ``toolcall_end`` or a terminal event (§1.10 item 8).

The run/terminal-event logic (§1.18) is :func:`pi_tui.ai.providers._provider_run.run_provider`.
"""

from __future__ import annotations

from typing import Any

from ..events import (
    AssistantMessageEventStream,
    StartEvent,
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
from ..js_format import js_json_compact
from ..types import AssistantMessage, TextContent, ThinkingContent, ToolCall


def snapshot(output: AssistantMessage) -> AssistantMessage:
    """A deep copy of ``output``: the ``partial`` of the ``start`` event (pi-reference §1.10 item 7).

    The consumer reads the ``start`` event later than it was pushed (the producer task may have parsed more
    chunks by then) and keeps its message (the agent's ``message_start``), so it must not alias the working
    message. pi's ``message_start`` shows the message as it was when ``start`` was pushed: empty content,
    ``stopReason: "stop"``, no ``responseId`` (pi traces, coding/*). Taken once per reply (~13 us); block
    events keep aliasing the live message, so streaming deltas copy nothing.
    """
    return output.model_copy(deep=True)


class ProviderError(Exception):
    """A failure detected while reading a provider stream; its text becomes ``error_message``."""


class BlockWriter:
    """Appends blocks to ``output.content`` and pushes the §1.10 events for them."""

    def __init__(self, output: AssistantMessage, stream: AssistantMessageEventStream) -> None:
        self.output = output
        self.stream = stream
        self.started = False

    # -------------------------------------------------------------- lifecycle
    def start(self) -> None:
        """Push ``start`` (once) with a :func:`snapshot`; call it only after the HTTP response arrived (§1.10 item 2)."""
        if not self.started:
            self.started = True
            self.stream.push(StartEvent(partial=snapshot(self.output)))

    # -------------------------------------------------------------- text
    def open_text(self, scratch: dict[str, Any] | None = None) -> int:
        """Append an empty text block (``scratch``: extra streaming fields, see :meth:`drop_scratch`);
        returns its content index."""
        self.output.content.append(TextContent(text="", **(scratch or {})))
        idx = len(self.output.content) - 1
        self.stream.push(TextStartEvent(content_index=idx, partial=self.output))
        return idx

    def text_delta(self, idx: int, delta: str) -> None:
        """Append ``delta`` to the text block at ``idx``."""
        block = self.output.content[idx]
        assert isinstance(block, TextContent)
        block.text += delta
        self.stream.push(TextDeltaEvent(content_index=idx, delta=delta, partial=self.output))

    def end_text(self, idx: int) -> None:
        """Push ``text_end`` with the block's full text."""
        block = self.output.content[idx]
        assert isinstance(block, TextContent)
        self.stream.push(TextEndEvent(content_index=idx, content=block.text, partial=self.output))

    # -------------------------------------------------------------- thinking
    def open_thinking(self, thinking: str = "", signature: str | None = None, redacted: bool | None = None,
                      scratch: dict[str, Any] | None = None) -> int:
        """Append a thinking block (optionally pre-filled, e.g. redacted); returns its content index."""
        self.output.content.append(
            ThinkingContent(thinking=thinking, thinking_signature=signature, redacted=redacted, **(scratch or {}))
        )
        idx = len(self.output.content) - 1
        self.stream.push(ThinkingStartEvent(content_index=idx, partial=self.output))
        return idx

    def thinking_delta(self, idx: int, delta: str) -> None:
        """Append ``delta`` to the thinking block at ``idx``."""
        block = self.output.content[idx]
        assert isinstance(block, ThinkingContent)
        block.thinking += delta
        self.stream.push(ThinkingDeltaEvent(content_index=idx, delta=delta, partial=self.output))

    def end_thinking(self, idx: int) -> None:
        """Push ``thinking_end`` with the block's full thinking text."""
        block = self.output.content[idx]
        assert isinstance(block, ThinkingContent)
        self.stream.push(ThinkingEndEvent(content_index=idx, content=block.thinking, partial=self.output))

    # -------------------------------------------------------------- tool calls
    def open_tool(self, call_id: str, name: str, arguments: dict[str, Any] | None = None,
                  thought_signature: str | None = None, scratch: dict[str, Any] | None = None) -> int:
        """Append a tool call block (arguments default ``{}``); returns its content index."""
        self.output.content.append(
            ToolCall(id=call_id, name=name, arguments=dict(arguments or {}), thought_signature=thought_signature,
                     **(scratch or {}))
        )
        idx = len(self.output.content) - 1
        self.stream.push(ToolCallStartEvent(content_index=idx, partial=self.output))
        return idx

    def tool_delta(self, idx: int, delta: str, arguments: dict[str, Any] | None = None) -> None:
        """Push ``toolcall_delta`` (raw JSON fragment, may be ``""``); ``arguments`` = best-effort parse so far."""
        block = self.output.content[idx]
        assert isinstance(block, ToolCall)
        if arguments is not None:
            block.arguments = arguments
        self.stream.push(ToolCallDeltaEvent(content_index=idx, delta=delta, partial=self.output))

    def end_tool(self, idx: int, arguments: dict[str, Any] | None = None) -> None:
        """Set the final ``arguments`` (if given) and push ``toolcall_end``."""
        block = self.output.content[idx]
        assert isinstance(block, ToolCall)
        if arguments is not None:
            block.arguments = arguments
        self.stream.push(ToolCallEndEvent(content_index=idx, tool_call=block, partial=self.output))

    def set_scratch(self, idx: int, key: str, value: Any) -> None:
        """Set the extra streaming field ``key`` of block ``idx`` (pi's ``partialJson`` & co.)."""
        extra = self.output.content[idx].__pydantic_extra__
        if extra is not None:
            extra[key] = value

    def drop_scratch(self, idx: int) -> None:
        """Remove every streaming scratch field of block ``idx`` (call before its ``*_end``)."""
        extra = self.output.content[idx].__pydantic_extra__
        if extra:
            for key in ("index", "partialJson", "partialArgs", "streamIndex"):
                extra.pop(key, None)

    def has_tool_call(self) -> bool:
        """True when the message holds at least one tool call."""
        return any(isinstance(b, ToolCall) for b in self.output.content)


def json_compact(value: Any) -> str:
    """``JSON.stringify(value)``: compact separators, non-ASCII kept, JavaScript number format (js_format)."""
    return js_json_compact(value)
