"""Tool execution for one assistant message: preparation, sequential/parallel runs, hooks (pi-reference §2.5).

pi's order is kept exactly: ``tool_execution_start`` → preparation (lookup, ``prepare_arguments``,
validation, ``before_tool_call``) → ``execute`` with awaited ``tool_execution_update`` events →
``after_tool_call`` overrides → ``tool_execution_end`` → toolResult ``message_start``/``message_end``.
Parallel mode prepares in source order, starts every prepared call together, emits
``tool_execution_end`` in completion order and the toolResult messages in source order.

Beyond pi 0.73.1 (tests/conformance/DIFFERENCES.md):
- once the run's signal is aborted, no further call is prepared or started; such calls get the error result
  ``Tool execution was aborted`` (running tools get the signal; finished results are kept) — pi ≥ 0.75.4;
- calls whose arguments a provider reported as unparseable (``assistant.diagnostics`` entry
  ``tool_call_arguments_invalid``) and every call of a message cut off by the output limit
  (``stop_reason == "length"``) are not run; they get an error result saying why (cases/README.md case 8);
- ``steering_checkpoint == "tool"`` (sequential mode): steering is polled after each tool; when a message
  arrived, the remaining calls get ``Skipped: the user sent a steering message`` and the messages are
  returned for the next turn (pi-reference §5 item 1);
- ``on_update`` calls after ``execute`` returned are ignored (pi 0.79.2); a tool returning something that is
  not a result becomes an error result instead of failing the run;
- with ``list_tools_when_unknown`` (the coding session sets it), a call to a tool that does not exist gets
  ``Tool <name> not found. [Did you mean <x>?] Available tools: <names>.`` (pi: ``Tool <name> not found``;
  issue 10 class 5);

Results, partial results and error texts are passed on as the tools made them, as pi does: the model, the session
file and events get a file's or a command's true content (tester2 #23: a ``read`` that dropped escape sequences
made the model's ``edit`` of that file fail). Only what reaches the terminal is cleaned, by the TUI
(``pi_tui.tui.widgets.tool_format``, ``RenderContext.to_strips``; issue 10 class 7).
"""

from __future__ import annotations

import asyncio
import difflib
import inspect
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.types import AssistantMessage, TextContent, ToolCall, ToolResultMessage, now_ms
from pi_tui.ai.validation import validate_tool_arguments

from .events import (
    MessageEndEvent,
    MessageStartEvent,
    ToolExecutionEndEvent,
    ToolExecutionStartEvent,
    ToolExecutionUpdateEvent,
)
from .types import (
    AfterToolCallContext,
    AfterToolCallResult,
    AgentContext,
    AgentLoopConfig,
    AgentTool,
    AgentToolResult,
    BeforeToolCallContext,
)

Emit = Callable[[Any], Awaitable[None]]

ABORTED_TEXT = "Tool execution was aborted"
BLOCKED_TEXT = "Tool execution was blocked"
SKIPPED_FOR_STEERING_TEXT = "Skipped: the user sent a steering message"
INVALID_ARGUMENTS_DIAGNOSTIC = "tool_call_arguments_invalid"


def truncated_arguments_text(name: str) -> str:
    """Error text for a call whose arguments were cut off by the output token limit (case 8)."""
    return (
        f'The arguments of this call to "{name}" were cut off by the output token limit '
        "(stop reason: length), so the tool was not run. Retry with a shorter call."
    )


def invalid_json_arguments_text(name: str) -> str:
    """Error text for a call whose arguments were not valid JSON (case 8)."""
    return f'The arguments of this call to "{name}" were not valid JSON, so the tool was not run.'


async def call_maybe_async(fn: Callable[..., Any], *args: Any) -> Any:
    """Call ``fn(*args)`` and await the result when it is awaitable."""
    result = fn(*args)
    if inspect.isawaitable(result):
        return await result
    return result


def unknown_tool_text(name: str, tools: Any) -> str:
    """pi's ``Tool <name> not found``, then a close match (``Did you mean bash?``, case and ``_file``-style
    suffixes ignored) and the list of tools that exist (issue 10 class 5)."""
    names = [t.name for t in tools]
    if not names:
        return f"Tool {name} not found. No tools are available."
    lowered = {n.lower(): n for n in names}
    guess = lowered.get(name.lower())
    if guess is None:
        stem = re.split(r"[_\-.]", name.lower())[0]
        guess = lowered.get(stem) or next(iter(difflib.get_close_matches(name.lower(), list(lowered), n=1)), None)
        guess = lowered.get(guess) if guess in lowered else guess
    hint = f" Did you mean {guess}?" if guess else ""
    return f"Tool {name} not found.{hint} Available tools: {', '.join(names)}."


def error_tool_result(message: str) -> AgentToolResult:
    """pi's ``createErrorToolResult``: one text block, ``details: {}`` (the text as given: the TUI cleans what
    it shows)."""
    return AgentToolResult(content=[TextContent(text=message)], details={})


def _exc_text(exc: BaseException) -> str:
    return str(exc) if str(exc) else type(exc).__name__


@dataclass
class _Immediate:
    tool_call: ToolCall
    result: AgentToolResult
    is_error: bool = True


@dataclass
class _Prepared:
    tool_call: ToolCall
    tool: AgentTool
    args: Any


@dataclass
class _Finalized:
    tool_call: ToolCall
    result: AgentToolResult
    is_error: bool


@dataclass
class ToolBatch:
    """Outcome of one batch: result messages in source order, ``terminate`` and steering drained mid-batch."""

    messages: list[ToolResultMessage]
    terminate: bool
    steering: list[Any] = field(default_factory=list)


def _invalid_argument_reasons(assistant: AssistantMessage) -> dict[str, str]:
    reasons: dict[str, str] = {}
    for entry in assistant.diagnostics or ():
        if not isinstance(entry, dict) or entry.get("type") != INVALID_ARGUMENTS_DIAGNOSTIC:
            continue
        details = entry.get("details") or {}
        call_id = details.get("toolCallId") if isinstance(details, dict) else None
        if isinstance(call_id, str):
            reasons[call_id] = str(details.get("reason") or "invalid_json")
    return reasons


def _coerce_result(value: Any, tool_name: str) -> AgentToolResult:
    if isinstance(value, AgentToolResult):
        return value
    if isinstance(value, dict):
        return AgentToolResult.model_validate(value)
    raise TypeError(f"Tool {tool_name} returned {type(value).__name__} instead of a tool result")


def _field(obj: Any, *names: str) -> Any:
    for name in names:
        if isinstance(obj, dict):
            if name in obj:
                return obj[name]
        elif hasattr(obj, name):
            return getattr(obj, name)
    return None


async def prepare_tool_call(
    context: AgentContext,
    assistant: AssistantMessage,
    tool_call: ToolCall,
    config: AgentLoopConfig,
    signal: AbortSignal | None,
    invalid_reasons: dict[str, str],
) -> _Immediate | _Prepared:
    """Lookup, ``prepare_arguments``, validation, ``before_tool_call`` (§2.5 "Preparation")."""
    if signal is not None and signal.aborted:
        return _Immediate(tool_call, error_tool_result(ABORTED_TEXT))
    if assistant.stop_reason == "length" or invalid_reasons.get(tool_call.id) == "truncated":
        return _Immediate(tool_call, error_tool_result(truncated_arguments_text(tool_call.name)))
    if tool_call.id in invalid_reasons:
        return _Immediate(tool_call, error_tool_result(invalid_json_arguments_text(tool_call.name)))
    tool = next((t for t in context.tools or () if t.name == tool_call.name), None)
    if tool is None:
        text = (
            unknown_tool_text(tool_call.name, context.tools or ())
            if config.list_tools_when_unknown
            else f"Tool {tool_call.name} not found"
        )
        return _Immediate(tool_call, error_tool_result(text))
    try:
        prepare = getattr(tool, "prepare_arguments", None)
        prepared_args = prepare(tool_call.arguments) if prepare is not None else tool_call.arguments
        call_for_validation = (
            tool_call
            if prepared_args is tool_call.arguments
            else tool_call.model_copy(update={"arguments": prepared_args})
        )
        args: Any = validate_tool_arguments(tool, call_for_validation)
        params_model = getattr(tool, "params_model", None)
        if params_model is not None:
            args = params_model.model_validate(args)
        if config.before_tool_call is not None:
            before = await call_maybe_async(
                config.before_tool_call,
                BeforeToolCallContext(assistant_message=assistant, tool_call=tool_call, args=args, context=context),
                signal,
            )
            if before is not None and _field(before, "block"):
                reason = _field(before, "reason")
                return _Immediate(tool_call, error_tool_result(reason or BLOCKED_TEXT))
        return _Prepared(tool_call, tool, args)
    except Exception as exc:
        return _Immediate(tool_call, error_tool_result(_exc_text(exc)))


async def _execute_prepared(prepared: _Prepared, signal: AbortSignal | None, emit: Emit) -> _Finalized:
    call = prepared.tool_call
    chain: list[asyncio.Future[None] | None] = [None]
    closed = False

    async def _emit_after(previous: asyncio.Future[None] | None, event: Any) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        await emit(event)

    def on_update(partial: Any) -> asyncio.Future[None] | None:
        if closed:
            return None  # late progress after execute() returned (pi 0.79.2 fix)
        try:
            partial_result = _coerce_result(partial, call.name)
        except Exception:
            partial_result = partial
        event = ToolExecutionUpdateEvent(
            tool_call_id=call.id, tool_name=call.name, args=call.arguments, partial_result=partial_result
        )
        fut = asyncio.ensure_future(_emit_after(chain[-1], event))
        chain.append(fut)
        return fut

    async def _drain_updates() -> None:
        pending = [f for f in chain if f is not None]
        if pending:
            await asyncio.gather(*pending)

    try:
        raw: Any = prepared.tool.execute(call.id, prepared.args, signal, on_update)
        if inspect.isawaitable(raw):  # execute is async by contract; a plain function is tolerated
            raw = await raw
        closed = True
        await _drain_updates()
        return _Finalized(call, _coerce_result(raw, call.name), False)
    except asyncio.CancelledError:
        closed = True
        task = asyncio.current_task()
        if task is not None and task.cancelling():
            raise
        await _drain_updates()
        return _Finalized(call, error_tool_result(ABORTED_TEXT), True)
    except Exception as exc:
        closed = True
        await _drain_updates()
        return _Finalized(call, error_tool_result(_exc_text(exc)), True)


async def _finalize(
    context: AgentContext,
    assistant: AssistantMessage,
    prepared: _Prepared,
    executed: _Finalized,
    config: AgentLoopConfig,
    signal: AbortSignal | None,
) -> _Finalized:
    result, is_error = executed.result, executed.is_error
    if config.after_tool_call is None:
        return executed
    try:
        after = await call_maybe_async(
            config.after_tool_call,
            AfterToolCallContext(
                assistant_message=assistant,
                tool_call=prepared.tool_call,
                args=prepared.args,
                result=result,
                is_error=is_error,
                context=context,
            ),
            signal,
        )
        if after is not None:
            if isinstance(after, dict):
                after = AfterToolCallResult(
                    content=after.get("content"),
                    details=after.get("details"),
                    is_error=after.get("is_error", after.get("isError")),
                    terminate=after.get("terminate"),
                )
            content = after.content if after.content is not None else result.content
            details = after.details if after.details is not None else result.details
            terminate = after.terminate if after.terminate is not None else result.terminate
            result = AgentToolResult(content=content, details=details, terminate=terminate)
            if after.is_error is not None:
                is_error = after.is_error
    except Exception as exc:
        result, is_error = error_tool_result(_exc_text(exc)), True
    return _Finalized(prepared.tool_call, result, is_error)


def _result_message(finalized: _Finalized) -> ToolResultMessage:
    return ToolResultMessage(
        tool_call_id=finalized.tool_call.id,
        tool_name=finalized.tool_call.name,
        content=finalized.result.content,
        details=finalized.result.details,
        is_error=finalized.is_error,
        timestamp=now_ms(),
    )


async def _emit_start(call: ToolCall, emit: Emit) -> None:
    await emit(ToolExecutionStartEvent(tool_call_id=call.id, tool_name=call.name, args=call.arguments))


async def _emit_end(finalized: _Finalized, emit: Emit) -> None:
    await emit(
        ToolExecutionEndEvent(
            tool_call_id=finalized.tool_call.id,
            tool_name=finalized.tool_call.name,
            result=finalized.result,
            is_error=finalized.is_error,
        )
    )


async def _emit_result_message(message: ToolResultMessage, emit: Emit) -> None:
    await emit(MessageStartEvent(message=message))
    await emit(MessageEndEvent(message=message))


def _terminates(finalized: list[_Finalized]) -> bool:
    return bool(finalized) and all(f.result.terminate is True for f in finalized)


async def execute_tool_calls(
    context: AgentContext,
    assistant: AssistantMessage,
    config: AgentLoopConfig,
    signal: AbortSignal | None,
    emit: Emit,
) -> ToolBatch:
    """Run every tool call of ``assistant`` (§2.5); sequential if configured or any called tool demands it."""
    calls = [c for c in assistant.content if isinstance(c, ToolCall)]
    tools = {t.name: t for t in context.tools or ()}
    sequential = config.tool_execution == "sequential" or any(
        getattr(tools.get(c.name), "execution_mode", None) == "sequential" for c in calls
    )
    invalid = _invalid_argument_reasons(assistant)
    if sequential:
        return await _run_sequential(context, assistant, calls, config, signal, emit, invalid)
    return await _run_parallel(context, assistant, calls, config, signal, emit, invalid)


async def _run_sequential(
    context: AgentContext,
    assistant: AssistantMessage,
    calls: list[ToolCall],
    config: AgentLoopConfig,
    signal: AbortSignal | None,
    emit: Emit,
    invalid: dict[str, str],
) -> ToolBatch:
    finalized_calls: list[_Finalized] = []
    messages: list[ToolResultMessage] = []
    steering: list[Any] = []
    for index, call in enumerate(calls):
        await _emit_start(call, emit)
        if steering:
            finalized = _Finalized(call, error_tool_result(SKIPPED_FOR_STEERING_TEXT), True)
        else:
            preparation = await prepare_tool_call(context, assistant, call, config, signal, invalid)
            if isinstance(preparation, _Immediate):
                finalized = _Finalized(call, preparation.result, preparation.is_error)
            else:
                executed = await _execute_prepared(preparation, signal, emit)
                finalized = await _finalize(context, assistant, preparation, executed, config, signal)
        await _emit_end(finalized, emit)
        message = _result_message(finalized)
        await _emit_result_message(message, emit)
        finalized_calls.append(finalized)
        messages.append(message)
        if (
            config.steering_checkpoint == "tool"
            and not steering
            and index < len(calls) - 1
            and config.get_steering_messages is not None
            and not (signal is not None and signal.aborted)
        ):
            steering = list(await call_maybe_async(config.get_steering_messages) or [])
    return ToolBatch(messages=messages, terminate=_terminates(finalized_calls), steering=steering)


async def _run_parallel(
    context: AgentContext,
    assistant: AssistantMessage,
    calls: list[ToolCall],
    config: AgentLoopConfig,
    signal: AbortSignal | None,
    emit: Emit,
    invalid: dict[str, str],
) -> ToolBatch:
    entries: list[_Finalized | _Prepared] = []
    for call in calls:
        await _emit_start(call, emit)
        preparation = await prepare_tool_call(context, assistant, call, config, signal, invalid)
        if isinstance(preparation, _Immediate):
            finalized = _Finalized(call, preparation.result, preparation.is_error)
            await _emit_end(finalized, emit)
            entries.append(finalized)
        else:
            entries.append(preparation)

    async def run(prepared: _Prepared) -> _Finalized:
        if signal is not None and signal.aborted:  # aborted during preflight: never start it
            finalized = _Finalized(prepared.tool_call, error_tool_result(ABORTED_TEXT), True)
        else:
            executed = await _execute_prepared(prepared, signal, emit)
            finalized = await _finalize(context, assistant, prepared, executed, config, signal)
        await _emit_end(finalized, emit)
        return finalized

    async def done(finalized: _Finalized) -> _Finalized:
        return finalized

    outcomes = await asyncio.gather(
        *(run(e) if isinstance(e, _Prepared) else done(e) for e in entries), return_exceptions=True
    )
    for outcome in outcomes:
        if isinstance(outcome, BaseException):
            raise outcome  # every other call has finished: nothing is left running
    ordered: list[_Finalized] = [o for o in outcomes if isinstance(o, _Finalized)]
    messages: list[ToolResultMessage] = []
    for finalized in ordered:
        message = _result_message(finalized)
        await _emit_result_message(message, emit)
        messages.append(message)
    return ToolBatch(messages=messages, terminate=_terminates(ordered))
