"""Faux provider: a scripted test double that streams canned assistant messages (pi-reference §1.21).

``register_faux_provider()`` registers a provider under a fresh api name (or the one given) and returns a
:class:`FauxProvider` handle whose queue of *steps* answers requests in order. A step is an
:class:`AssistantMessage` (or its pi JSON dict) or a factory ``(context, options, state, model) ->
message`` (sync or async). Behaviour matches pi-ai 0.73.1 including its quirks (pi-traces README
"Observations" 1, 2, 5): the ``start`` partial already carries the final ``stop_reason``/``usage``; with a
``session_id`` the cache simulation reports the uncached part as both ``input`` and ``cache_write``; an
abort ends the stream without closing the open block.

Streaming: ``start``, then per block ``*_start``, deltas of ``token_size`` tokens (1 token = 4 chars) each
after one event-loop tick or paced at ``tokens_per_second``, ``*_end``. Tool calls stream their compact
JSON arguments. The abort signal is checked before ``start``, before each block and after each chunk wait.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, overload

from ..events import (
    AssistantMessageEventStream,
    DoneEvent,
    ErrorEvent,
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
from ..json_stream import StreamingJsonParser
from ..registry import ApiProvider, register_api_provider, unregister_api_providers
from ..types import (
    AssistantMessage,
    Context,
    ImageContent,
    Model,
    ModelCost,
    StopReason,
    TextContent,
    ThinkingContent,
    ToolCall,
    Usage,
    now_ms,
)

DEFAULT_API = "faux"
DEFAULT_PROVIDER = "faux"
DEFAULT_MODEL_ID = "faux-1"
DEFAULT_MODEL_NAME = "Faux Model"
DEFAULT_BASE_URL = "http://localhost:0"
DEFAULT_MIN_TOKEN_SIZE = 3
DEFAULT_MAX_TOKEN_SIZE = 5
NO_MORE_RESPONSES = "No more faux responses queued"
ABORTED_MESSAGE = "Request was aborted"

FauxContent = TextContent | ThinkingContent | ToolCall
FauxStep = AssistantMessage | dict[str, Any] | Callable[..., Any]


def _random_id(prefix: str) -> str:
    return f"{prefix}:{int(time.time() * 1000)}:{random.getrandbits(40):x}"


def faux_text(text: str) -> TextContent:
    """A text block ``{type:"text", text}``."""
    return TextContent(text=text)


def faux_thinking(thinking: str) -> ThinkingContent:
    """A thinking block ``{type:"thinking", thinking}``."""
    return ThinkingContent(thinking=thinking)


def faux_tool_call(name: str, arguments: dict[str, Any], id: str | None = None) -> ToolCall:
    """A tool-call block; ``id`` defaults to ``tool:<ms>:<random>``."""
    return ToolCall(id=id if id is not None else _random_id("tool"), name=name, arguments=arguments)


def faux_assistant_message(
    content: str | FauxContent | Iterable[FauxContent],
    stop_reason: StopReason = "stop",
    error_message: str | None = None,
    response_id: str | None = None,
    timestamp: int | None = None,
) -> AssistantMessage:
    """A scripted reply: ``content`` is a string (one text block), one block or a list of blocks.

    ``api``/``provider``/``model`` are placeholders (re-stamped when served); usage is zero (the faux
    provider estimates it when serving).
    """
    if isinstance(content, str):
        blocks: list[Any] = [faux_text(content)]
    elif isinstance(content, TextContent | ThinkingContent | ToolCall):
        blocks = [content]
    else:
        blocks = list(content)
    return AssistantMessage(
        content=blocks,
        api=DEFAULT_API,
        provider=DEFAULT_PROVIDER,
        model=DEFAULT_MODEL_ID,
        usage=Usage(),
        stop_reason=stop_reason,
        error_message=error_message,
        response_id=response_id,
        timestamp=timestamp if timestamp is not None else now_ms(),
    )


# ---------------------------------------------------------------- usage estimate


def _js_len(text: str) -> int:
    """Length in UTF-16 code units (JavaScript's ``string.length``)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def estimate_tokens(text: str) -> int:
    """``ceil(len(text) / 4)`` with JavaScript string length."""
    return -(-_js_len(text) // 4)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _content_to_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, TextContent):
            parts.append(block.text)
        elif isinstance(block, ImageContent):
            parts.append(f"[image:{block.mime_type}:{_js_len(block.data)}]")
        else:
            parts.append(str(getattr(block, "text", "")))
    return "\n".join(parts)


def _assistant_content_to_text(content: list[Any]) -> str:
    parts: list[str] = []
    for block in content:
        if isinstance(block, TextContent):
            parts.append(block.text)
        elif isinstance(block, ThinkingContent):
            parts.append(block.thinking)
        elif isinstance(block, ToolCall):
            parts.append(f"{block.name}:{_json(block.arguments)}")
    return "\n".join(parts)


def _message_to_text(message: Any) -> str:
    role = getattr(message, "role", None)
    if role == "user":
        return _content_to_text(message.content)
    if role == "assistant":
        return _assistant_content_to_text(message.content)
    return "\n".join(
        [str(getattr(message, "tool_name", "")), *(_content_to_text([b]) for b in message.content)]
    )


def _tool_json(tool: Any) -> dict[str, Any]:
    """The keys JSON.stringify keeps of a pi tool object: name, label?, description, parameters, executionMode?"""
    out: dict[str, Any] = {"name": tool.name}
    label = getattr(tool, "label", None)
    if label is not None:
        out["label"] = label
    out["description"] = tool.description
    out["parameters"] = tool.parameters
    mode = getattr(tool, "execution_mode", None)
    if mode is not None:
        out["executionMode"] = mode
    return out


def serialize_context(context: Context) -> str:
    """The text the usage estimate is computed from (pi-traces README Part A "Normalisation")."""
    parts: list[str] = []
    if context.system_prompt:
        parts.append(f"system:{context.system_prompt}")
    for message in context.messages:
        parts.append(f"{message.role}:{_message_to_text(message)}")
    if context.tools:
        parts.append("tools:" + _json([_tool_json(t) for t in context.tools]))
    return "\n\n".join(parts)


def _common_prefix_length(a: str, b: str) -> int:
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # binary search on the first differing index
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _with_usage_estimate(
    message: AssistantMessage, context: Context, options: Any, prompt_cache: dict[str, str]
) -> AssistantMessage:
    prompt_text = serialize_context(context)
    prompt_tokens = estimate_tokens(prompt_text)
    output_tokens = estimate_tokens(_assistant_content_to_text(message.content))
    input_tokens = prompt_tokens
    cache_read = 0
    cache_write = 0
    session_id = getattr(options, "session_id", None)
    if session_id and getattr(options, "cache_retention", None) != "none":
        previous = prompt_cache.get(session_id)
        if previous:
            cached = _common_prefix_length(previous, prompt_text)
            cache_read = estimate_tokens(previous[:cached])
            cache_write = estimate_tokens(prompt_text[cached:])
            input_tokens = max(0, prompt_tokens - cache_read)
        else:
            cache_write = prompt_tokens
        prompt_cache[session_id] = prompt_text
    message.usage = Usage(
        input=input_tokens,
        output=output_tokens,
        cache_read=cache_read,
        cache_write=cache_write,
        total_tokens=input_tokens + output_tokens + cache_read + cache_write,
    )
    return message


# ---------------------------------------------------------------- streaming


def _split_by_token_size(text: str, min_size: int, max_size: int) -> list[str]:
    chunks: list[str] = []
    index = 0
    while index < len(text):
        size = max(1, random.randint(min_size, max_size) * 4)
        chunks.append(text[index : index + size])
        index += size
    return chunks or [""]


async def _schedule_chunk(chunk: str, tokens_per_second: float | None) -> None:
    if not tokens_per_second or tokens_per_second <= 0:
        await asyncio.sleep(0)
        return
    await asyncio.sleep(estimate_tokens(chunk) / tokens_per_second)


def _aborted(partial: AssistantMessage) -> AssistantMessage:
    return partial.model_copy(
        update={"stop_reason": "aborted", "error_message": ABORTED_MESSAGE, "timestamp": now_ms()}
    )


def _error_message(error: Any, api: str, provider: str, model_id: str) -> AssistantMessage:
    text = str(error) if isinstance(error, BaseException) else json.dumps(error, default=str)
    return AssistantMessage(
        content=[], api=api, provider=provider, model=model_id, stop_reason="error", error_message=text
    )


def _end_aborted(stream: AssistantMessageEventStream, partial: AssistantMessage) -> None:
    aborted = _aborted(partial)
    stream.push(ErrorEvent(reason="aborted", error=aborted))
    stream.end(aborted)


async def _stream_with_deltas(
    stream: AssistantMessageEventStream,
    message: AssistantMessage,
    min_size: int,
    max_size: int,
    tokens_per_second: float | None,
    signal: Any,
    partial_arguments: bool = False,
) -> None:
    partial = message.model_copy(update={"content": []})
    if signal is not None and signal.aborted:
        _end_aborted(stream, partial)
        return
    stream.push(StartEvent(partial=partial.model_copy()))
    for index, block in enumerate(message.content):
        if signal is not None and signal.aborted:
            _end_aborted(stream, partial)
            return
        if isinstance(block, ThinkingContent | TextContent):
            is_thinking = isinstance(block, ThinkingContent)
            live: Any = ThinkingContent(thinking="") if is_thinking else TextContent(text="")
            partial.content = [*partial.content, live]
            full = block.thinking if isinstance(block, ThinkingContent) else block.text
            start_cls, delta_cls, end_cls = (
                (ThinkingStartEvent, ThinkingDeltaEvent, ThinkingEndEvent)
                if is_thinking
                else (TextStartEvent, TextDeltaEvent, TextEndEvent)
            )
            stream.push(start_cls(content_index=index, partial=partial.model_copy()))
            for chunk in _split_by_token_size(full, min_size, max_size):
                await _schedule_chunk(chunk, tokens_per_second)
                if signal is not None and signal.aborted:
                    _end_aborted(stream, partial)
                    return
                if is_thinking:
                    live.thinking += chunk
                else:
                    live.text += chunk
                stream.push(delta_cls(content_index=index, delta=chunk, partial=partial.model_copy()))
            stream.push(end_cls(content_index=index, content=full, partial=partial.model_copy()))
            continue
        if not isinstance(block, ToolCall):
            continue
        live_call = ToolCall(id=block.id, name=block.name, arguments={})
        partial.content = [*partial.content, live_call]
        stream.push(ToolCallStartEvent(content_index=index, partial=partial.model_copy()))
        parser = StreamingJsonParser()
        for chunk in _split_by_token_size(_json(block.arguments), min_size, max_size):
            await _schedule_chunk(chunk, tokens_per_second)
            if signal is not None and signal.aborted:
                _end_aborted(stream, partial)
                return
            if partial_arguments:  # as the real providers do: the arguments parsed so far
                live_call.arguments = parser.feed(chunk)
            stream.push(ToolCallDeltaEvent(content_index=index, delta=chunk, partial=partial.model_copy()))
        live_call.arguments = block.arguments
        stream.push(ToolCallEndEvent(content_index=index, tool_call=block, partial=partial.model_copy()))
    if message.stop_reason in ("error", "aborted"):
        stream.push(ErrorEvent(reason=message.stop_reason, error=message))  # type: ignore[arg-type]
        stream.end(message)
        return
    stream.push(DoneEvent(reason=message.stop_reason, message=message))  # type: ignore[arg-type]
    stream.end(message)


# ---------------------------------------------------------------- registration


@dataclass
class FauxState:
    """Mutable provider state handed to factories; ``call_count`` counts requests (served or not)."""

    call_count: int = 0


@dataclass
class FauxProvider:
    """Handle returned by :func:`register_faux_provider`."""

    api: str
    provider: str
    models: list[Model]
    state: FauxState
    _source_id: str
    _pending: list[FauxStep] = field(default_factory=list)

    @overload
    def get_model(self) -> Model: ...

    @overload
    def get_model(self, model_id: str | None) -> Model | None: ...

    def get_model(self, model_id: str | None = None) -> Model | None:
        """The first model, or the one with ``model_id`` (None if absent)."""
        if not model_id:
            return self.models[0]
        return next((m for m in self.models if m.id == model_id), None)

    def set_responses(self, steps: Iterable[FauxStep]) -> None:
        """Replace the queue of scripted steps."""
        self._pending = list(steps)

    def append_responses(self, steps: Iterable[FauxStep]) -> None:
        """Add steps at the end of the queue."""
        self._pending.extend(steps)

    def get_pending_response_count(self) -> int:
        """Number of steps not yet served."""
        return len(self._pending)

    def unregister(self) -> None:
        """Remove this provider from the registry."""
        unregister_api_providers(self._source_id)


def _to_model(definition: Any, api: str, provider: str) -> Model:
    d = definition.model_dump(by_alias=False) if isinstance(definition, Model) else dict(definition)
    cost = d.get("cost") or ModelCost()
    return Model(
        id=d["id"],
        name=d.get("name") or d["id"],
        api=api,
        provider=provider,
        base_url=DEFAULT_BASE_URL,
        reasoning=bool(d.get("reasoning", False)),
        input=d.get("input") or ["text", "image"],
        cost=cost,
        context_window=d.get("context_window", d.get("contextWindow", 128000)),
        max_tokens=d.get("max_tokens", d.get("maxTokens", 16384)),
    )


def _coerce_message(value: Any) -> AssistantMessage:
    if isinstance(value, AssistantMessage):
        return value
    if isinstance(value, dict):
        return AssistantMessage.model_validate(value)
    raise TypeError(f"A faux response must be an AssistantMessage, got {type(value).__name__}")


def register_faux_provider(
    api: str | None = None,
    provider: str = DEFAULT_PROVIDER,
    models: list[Any] | None = None,
    tokens_per_second: float | None = None,
    token_size: dict[str, int] | tuple[int, int] | None = None,
    partial_arguments: bool = False,
) -> FauxProvider:
    """Register a faux provider and return its handle (pi's ``registerFauxProvider``, §1.21).

    ``api`` defaults to a fresh ``faux:<ms>:<random>``; ``models`` are definitions (dicts or Models with at
    least ``id``; default one ``faux-1``); ``token_size`` is ``{"min","max"}`` tokens per chunk (default
    3..5); ``tokens_per_second`` paces chunks (default: one event-loop tick per chunk).
    ``partial_arguments`` (pi-tui's, off = pi's faux): a streaming tool call carries the arguments parsed so
    far, as the real providers' calls do (the offline demo model: an abort keeps what the screen showed).
    """
    api = api if api is not None else _random_id(DEFAULT_API)
    source_id = _random_id("faux-provider")
    if isinstance(token_size, tuple):
        tmin, tmax = token_size
    else:
        tmin = (token_size or {}).get("min", DEFAULT_MIN_TOKEN_SIZE)
        tmax = (token_size or {}).get("max", DEFAULT_MAX_TOKEN_SIZE)
    min_size = max(1, min(tmin, tmax))
    max_size = max(min_size, tmax)
    definitions = models or [
        {
            "id": DEFAULT_MODEL_ID,
            "name": DEFAULT_MODEL_NAME,
            "reasoning": False,
            "input": ["text", "image"],
            "context_window": 128000,
            "max_tokens": 16384,
        }
    ]
    handle = FauxProvider(
        api=api,
        provider=provider,
        models=[_to_model(d, api, provider) for d in definitions],
        state=FauxState(),
        _source_id=source_id,
    )
    prompt_cache: dict[str, str] = {}
    tasks: set[asyncio.Task[None]] = set()

    async def produce(
        outer: AssistantMessageEventStream,
        step: FauxStep | None,
        model: Model,
        context: Context,
        options: Any,
    ) -> None:
        try:
            on_response = getattr(options, "on_response", None)
            if on_response is not None:
                r = on_response({"status": 200, "headers": {}}, model)
                if inspect.isawaitable(r):
                    await r
            if step is None:
                msg = _error_message(RuntimeError(NO_MORE_RESPONSES), api, provider, model.id)
                msg = _with_usage_estimate(msg, context, options, prompt_cache)
                outer.push(ErrorEvent(reason="error", error=msg))
                outer.end(msg)
                return
            if callable(step) and not isinstance(step, AssistantMessage | dict):
                resolved = step(context, options, handle.state, model)
                if inspect.isawaitable(resolved):
                    resolved = await resolved
            else:
                resolved = step
            message = _coerce_message(resolved).model_copy(deep=True)
            message.api = api
            message.provider = provider
            message.model = model.id
            message = _with_usage_estimate(message, context, options, prompt_cache)
            await _stream_with_deltas(
                outer, message, min_size, max_size, tokens_per_second, getattr(options, "signal", None),
                partial_arguments,
            )
        except asyncio.CancelledError:
            msg = _error_message(RuntimeError(ABORTED_MESSAGE), api, provider, model.id)
            msg.stop_reason = "aborted"
            outer.push(ErrorEvent(reason="aborted", error=msg))
            outer.end(msg)
        except Exception as exc:
            msg = _error_message(exc, api, provider, model.id)
            outer.push(ErrorEvent(reason="error", error=msg))
            outer.end(msg)

    def stream(model: Model, context: Context, options: Any = None) -> AssistantMessageEventStream:
        outer = AssistantMessageEventStream()
        step = handle._pending.pop(0) if handle._pending else None
        handle.state.call_count += 1
        task = asyncio.get_running_loop().create_task(produce(outer, step, model, context, options))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        return outer

    register_api_provider(ApiProvider(api=api, stream=stream, stream_simple=stream), source_id)
    return handle


__all__ = [
    "FauxProvider",
    "FauxState",
    "estimate_tokens",
    "faux_assistant_message",
    "faux_text",
    "faux_thinking",
    "faux_tool_call",
    "register_faux_provider",
    "serialize_context",
]
