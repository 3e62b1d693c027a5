"""The agent loop: a double while over turns, steering and follow-ups (pi-reference §2.2–§2.4, §2.6).

``run_agent_loop``/``run_agent_loop_continue`` await ``emit`` for every event (the Agent's barrier);
``agent_loop``/``agent_loop_continue`` run the same loop in a task and return an :class:`AgentEventStream`
that does not wait for its consumer. Event order, queue polling and failure paths follow pi 0.73.1:
steering is polled once at the start and after every turn, follow-ups only when the loop would stop, an
error/aborted assistant message ends the run without polling, ``should_stop_after_turn`` ends it after
``turn_end``. A raising ``stream_fn``/``convert_to_llm``/``transform_context``/``get_api_key``/queue/stop
callback makes ``run_agent_loop`` raise (the Agent turns that into a failure message).

Beyond pi 0.73.1 (tests/conformance/DIFFERENCES.md): once the signal is aborted the queues are no longer
polled, and messages drained but not yet injected are not injected (the Agent puts them back at the front
of their queue), so an abort never swallows a queued message. With ``max_repeated_tool_failures`` set, a run
whose model repeats the same failing call that many times ends with an error assistant message saying so
(:mod:`pi_tui.agent.tool_loop_guard`; issue 10 class 5).
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.events import AssistantMessageEventStream, EventStream
from pi_tui.ai.stream import stream_simple
from pi_tui.ai.types import AssistantMessage, Context, TextContent, ToolCall, ToolResultMessage, Usage, now_ms

from .events import (
    AgentEndEvent,
    AgentEvent,
    AgentStartEvent,
    MessageEndEvent,
    MessageStartEvent,
    MessageUpdateEvent,
    TurnEndEvent,
    TurnStartEvent,
)
from .messages import parse_agent_message
from .tool_execution import call_maybe_async, execute_tool_calls
from .tool_loop_guard import RepeatedFailureGuard
from .types import AgentContext, AgentLoopConfig, ShouldStopAfterTurnContext, StreamFn

EmitFn = Callable[[Any], "Awaitable[None] | None"]
_BLOCK_EVENTS = frozenset(
    {
        "text_start",
        "text_delta",
        "text_end",
        "thinking_start",
        "thinking_delta",
        "thinking_end",
        "toolcall_start",
        "toolcall_delta",
        "toolcall_end",
    }
)


_set = object.__setattr__


def shallow_copy(message: AssistantMessage) -> AssistantMessage:
    """pi's ``{...partial}``: a new message object sharing the field values (content list included).

    Same result as ``message.model_copy()`` (which is the fallback for anything unusual), about twice as fast;
    it runs once per streamed event.
    """
    cls = type(message)
    private = getattr(message, "__pydantic_private__", None)
    if private:
        return message.model_copy()
    new = cls.__new__(cls)
    _set(new, "__dict__", message.__dict__.copy())
    extra = message.__pydantic_extra__
    _set(new, "__pydantic_extra__", None if extra is None else dict(extra))
    _set(new, "__pydantic_fields_set__", set(message.__pydantic_fields_set__))
    _set(new, "__pydantic_private__", None)
    return new


def _awaited(emit: EmitFn) -> Callable[[Any], Awaitable[None]]:
    if inspect.iscoroutinefunction(emit):
        return emit  # type: ignore[return-value]

    async def wrapper(event: Any) -> None:
        result = emit(event)
        if inspect.isawaitable(result):
            await result

    return wrapper


def _check_continuable(context: AgentContext) -> None:
    if not context.messages:
        raise ValueError("Cannot continue: no messages in context")
    if getattr(context.messages[-1], "role", None) == "assistant":
        raise ValueError("Cannot continue from message role: assistant")


async def run_agent_loop(
    prompts: list[Any],
    context: AgentContext,
    config: AgentLoopConfig,
    emit: EmitFn,
    signal: AbortSignal | None = None,
    stream_fn: StreamFn | None = None,
) -> list[Any]:
    """Run a loop that starts with ``prompts``; returns the new messages (prompts included), §2.3.

    ``context`` is not modified (its message list is copied). Raises what a callback raises (§2.6).
    """
    prompts = [parse_agent_message(p) for p in prompts]
    new_messages: list[Any] = list(prompts)
    current = dataclasses.replace(context, messages=[*context.messages, *prompts])
    out = _awaited(emit)
    await out(AgentStartEvent())
    await out(TurnStartEvent())
    for prompt in prompts:
        await out(MessageStartEvent(message=prompt))
        await out(MessageEndEvent(message=prompt))
    await _run_loop(current, new_messages, config, signal, out, stream_fn)
    return new_messages


async def run_agent_loop_continue(
    context: AgentContext,
    config: AgentLoopConfig,
    emit: EmitFn,
    signal: AbortSignal | None = None,
    stream_fn: StreamFn | None = None,
) -> list[Any]:
    """Continue from ``context`` without new messages (retries, tool-result tails), §2.2.

    Raises ``ValueError("Cannot continue: no messages in context")`` or
    ``ValueError("Cannot continue from message role: assistant")``.
    """
    _check_continuable(context)
    new_messages: list[Any] = []
    current = dataclasses.replace(context, messages=list(context.messages))
    out = _awaited(emit)
    await out(AgentStartEvent())
    await out(TurnStartEvent())
    await _run_loop(current, new_messages, config, signal, out, stream_fn)
    return new_messages


class AgentEventStream(EventStream[AgentEvent, list[Any]]):
    """Stream of agent events; ``await result()`` gives ``agent_end.messages``.

    Unlike pi (whose stream never ends when the loop throws), a loop failure ends the stream and
    ``result()`` raises that exception.
    """

    def __init__(self) -> None:
        self._error: BaseException | None = None
        super().__init__(
            lambda e: e.type == "agent_end",
            lambda e: e.messages if isinstance(e, AgentEndEvent) else [],
            self._raise_error,
        )

    def _raise_error(self) -> list[Any]:
        if self._error is not None:
            raise self._error
        return []

    def fail(self, error: BaseException) -> None:
        """End the stream because the loop raised ``error``."""
        self._error = error
        self.end()


def _start_stream(runner: Callable[[Callable[[Any], Awaitable[None]]], Awaitable[list[Any]]]) -> AgentEventStream:
    stream = AgentEventStream()

    async def push(event: Any) -> None:
        stream.push(event)

    async def main() -> None:
        try:
            messages = await runner(push)
        except Exception as exc:
            stream.fail(exc)
            return
        stream.end(messages)

    task = asyncio.get_running_loop().create_task(main())
    _background.add(task)
    task.add_done_callback(_background.discard)
    return stream


_background: set[asyncio.Task[None]] = set()


def agent_loop(
    prompts: list[Any],
    context: AgentContext,
    config: AgentLoopConfig,
    signal: AbortSignal | None = None,
    stream_fn: StreamFn | None = None,
) -> AgentEventStream:
    """Start :func:`run_agent_loop` in the background; events are pushed without waiting (§2.2)."""
    return _start_stream(lambda push: run_agent_loop(prompts, context, config, push, signal, stream_fn))


def agent_loop_continue(
    context: AgentContext,
    config: AgentLoopConfig,
    signal: AbortSignal | None = None,
    stream_fn: StreamFn | None = None,
) -> AgentEventStream:
    """Background :func:`run_agent_loop_continue`; raises ``ValueError`` at once for an invalid context."""
    _check_continuable(context)
    return _start_stream(lambda push: run_agent_loop_continue(context, config, push, signal, stream_fn))


def _aborted(signal: AbortSignal | None) -> bool:
    return signal is not None and signal.aborted


async def _poll(fn: Callable[[], Any] | None, signal: AbortSignal | None) -> list[Any]:
    if fn is None or _aborted(signal):
        return []
    return list(await call_maybe_async(fn) or [])


async def _run_loop(
    context: AgentContext,
    new_messages: list[Any],
    config: AgentLoopConfig,
    signal: AbortSignal | None,
    emit: Callable[[Any], Awaitable[None]],
    stream_fn: StreamFn | None,
) -> None:
    first_turn = True
    limit = config.max_repeated_tool_failures
    guard = RepeatedFailureGuard(limit) if limit else None
    pending = await _poll(config.get_steering_messages, signal)  # poll #0: typed while waiting
    while True:
        has_more_tool_calls = True
        while has_more_tool_calls or pending:
            if not first_turn:
                await emit(TurnStartEvent())
            else:
                first_turn = False
            if pending and not _aborted(signal):
                if guard is not None:  # the user spoke: a fresh budget for repeated failures
                    guard = RepeatedFailureGuard(guard.limit)
                for message in pending:
                    await emit(MessageStartEvent(message=message))
                    await emit(MessageEndEvent(message=message))
                    context.messages.append(message)
                    new_messages.append(message)
            pending = []

            message = await stream_assistant_response(context, config, signal, emit, stream_fn)
            new_messages.append(message)
            if message.stop_reason in ("error", "aborted"):
                await emit(TurnEndEvent(message=message, tool_results=[]))
                await emit(AgentEndEvent(messages=new_messages))
                return

            tool_results: list[ToolResultMessage] = []
            has_more_tool_calls = False
            steering_mid_batch: list[Any] = []
            if any(isinstance(c, ToolCall) for c in message.content):
                batch = await execute_tool_calls(context, message, config, signal, emit)
                tool_results.extend(batch.messages)
                has_more_tool_calls = not batch.terminate
                steering_mid_batch = batch.steering
                for result in tool_results:
                    context.messages.append(result)
                    new_messages.append(result)

            await emit(TurnEndEvent(message=message, tool_results=tool_results))
            if guard is not None and tool_results:
                stop = guard.record(message, tool_results, {t.name for t in context.tools or ()})
                if stop is not None:
                    await _stop_run(stop, context, new_messages, config, emit)
                    return
            if config.should_stop_after_turn is not None and await call_maybe_async(
                config.should_stop_after_turn,
                ShouldStopAfterTurnContext(
                    message=message, tool_results=tool_results, context=context, new_messages=new_messages
                ),
            ):
                await emit(AgentEndEvent(messages=new_messages))
                return
            pending = steering_mid_batch or await _poll(config.get_steering_messages, signal)

        follow_ups = await _poll(config.get_follow_up_messages, signal)
        if follow_ups:
            pending = follow_ups
            continue
        break
    await emit(AgentEndEvent(messages=new_messages))


async def _stop_run(
    text: str,
    context: AgentContext,
    new_messages: list[Any],
    config: AgentLoopConfig,
    emit: Callable[[Any], Awaitable[None]],
) -> None:
    """End the run with an error assistant message saying why (repeated failing tool calls)."""
    model = config.model
    message = AssistantMessage(
        content=[TextContent(text="")],
        api=model.api,
        provider=model.provider,
        model=model.id,
        usage=Usage(),
        stop_reason="error",
        error_message=text,
        timestamp=now_ms(),
    )
    await emit(TurnStartEvent())
    await emit(MessageStartEvent(message=message))
    context.messages.append(message)
    new_messages.append(message)
    await emit(MessageEndEvent(message=message))
    await emit(TurnEndEvent(message=message, tool_results=[]))
    await emit(AgentEndEvent(messages=new_messages))


async def stream_assistant_response(
    context: AgentContext,
    config: AgentLoopConfig,
    signal: AbortSignal | None,
    emit: Callable[[Any], Awaitable[None]],
    stream_fn: StreamFn | None = None,
) -> AssistantMessage:
    """One LLM call (§2.4): transform → convert → stream, mirroring the partial into ``context.messages``."""
    messages = context.messages
    if config.transform_context is not None:
        messages = await call_maybe_async(config.transform_context, messages, signal)
    llm_messages = await call_maybe_async(config.convert_to_llm, messages)
    llm_context = Context(system_prompt=context.system_prompt, messages=llm_messages, tools=context.tools)
    api_key = None
    if config.get_api_key is not None:
        api_key = await call_maybe_async(config.get_api_key, config.model.provider)
    options = dataclasses.replace(config, api_key=api_key or config.api_key, signal=signal)
    fn = stream_fn or stream_simple
    response: Any = fn(config.model, llm_context, options)
    if inspect.isawaitable(response) and not isinstance(response, AssistantMessageEventStream):
        response = await response

    partial: AssistantMessage | None = None
    added = False
    async for event in response:
        kind = event.type
        if kind == "start":
            partial = event.partial
            context.messages.append(partial)
            added = True
            await emit(MessageStartEvent(message=shallow_copy(partial)))  # type: ignore[arg-type]
        elif kind in _BLOCK_EVENTS:
            if partial is not None:
                partial = event.partial
                context.messages[-1] = partial
                await emit(MessageUpdateEvent(message=shallow_copy(partial), assistant_message_event=event))  # type: ignore[arg-type]
        elif kind in ("done", "error"):
            break
    final: AssistantMessage = await response.result()
    if added:
        context.messages[-1] = final
    else:
        context.messages.append(final)
        await emit(MessageStartEvent(message=shallow_copy(final)))
    await emit(MessageEndEvent(message=final))
    return final


__all__ = [
    "AgentEventStream",
    "agent_loop",
    "agent_loop_continue",
    "run_agent_loop",
    "run_agent_loop_continue",
    "stream_assistant_response",
]
