"""Shared helpers for the agent tests: pi's test tools (calculate, get_current_time), mock streams, recorders."""

from __future__ import annotations

import ast
import asyncio
import operator
from collections.abc import Awaitable, Callable
from typing import Any

from pi_tui.agent import AgentTool, AgentToolResult
from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.events import AssistantMessageEventStream, DoneEvent, ErrorEvent
from pi_tui.ai.types import AssistantMessage, Model, TextContent, ToolCall, Usage, UserMessage

_OPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def _eval(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _eval(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return float(_OPS[type(node.op)](_eval(node.left), _eval(node.right)))
    raise ValueError("unsupported expression")


def calculate_expression(expression: str) -> int | float:
    """Evaluate + - * / arithmetic; raises ValueError on anything else (pi's utils/calculate.ts)."""
    try:
        value = _eval(ast.parse(expression, mode="eval"))
    except (SyntaxError, ZeroDivisionError, ValueError) as exc:
        raise ValueError(f"Invalid expression: {expression} ({exc})") from exc
    return int(value) if float(value).is_integer() else value


class CalculateTool(AgentTool):
    """pi's test tool ``calculate``: text ``<expression> = <result>``; raises on bad expressions."""

    name: str = "calculate"
    label: str = "Calculator"
    description: str = "Evaluate mathematical expressions"
    parameters: dict[str, Any] = {
        "type": "object",
        "properties": {"expression": {"type": "string", "description": "The expression to evaluate"}},
        "required": ["expression"],
    }

    async def execute(
        self, tool_call_id: str, params: Any, signal: AbortSignal | None = None, on_update: Any = None
    ) -> AgentToolResult:
        result = calculate_expression(params["expression"])
        return AgentToolResult(content=[TextContent(text=f"{params['expression']} = {result}")], details=None)


class GetCurrentTimeTool(AgentTool):
    """pi's test tool ``get_current_time``: returns a fixed-format time string."""

    name: str = "get_current_time"
    label: str = "Current Time"
    description: str = "Get the current date and time"
    parameters: dict[str, Any] = {"type": "object", "properties": {"timezone": {"type": "string"}}}

    async def execute(
        self, tool_call_id: str, params: Any, signal: AbortSignal | None = None, on_update: Any = None
    ) -> AgentToolResult:
        return AgentToolResult(content=[TextContent(text="2026-01-01T00:00:00Z")], details={"utcTimestamp": 0})


class FnTool(AgentTool):
    """A tool whose execute is a plain async function ``fn(tool_call_id, params, signal, on_update)``."""

    fn: Any = None

    async def execute(
        self, tool_call_id: str, params: Any, signal: AbortSignal | None = None, on_update: Any = None
    ) -> AgentToolResult:
        result: AgentToolResult = await self.fn(tool_call_id, params, signal, on_update)
        return result


def fn_tool(
    name: str,
    fn: Callable[..., Awaitable[AgentToolResult]],
    properties: dict[str, Any] | None = None,
    required: list[str] | None = None,
    **extra: Any,
) -> FnTool:
    """Build a :class:`FnTool` with an object schema."""
    schema: dict[str, Any] = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = required
    return FnTool(name=name, description=f"{name} tool", parameters=schema, fn=fn, **extra)


def text_result(text: str, **extra: Any) -> AgentToolResult:
    """A one-text-block tool result."""
    return AgentToolResult(content=[TextContent(text=text)], **extra)


MOCK_MODEL = Model(id="mock", name="mock", api="openai-responses", provider="openai")


def user(text: str) -> UserMessage:
    """A user message with one text block."""
    return UserMessage(content=[TextContent(text=text)], timestamp=0)


def assistant(content: list[Any] | str, stop_reason: str = "stop") -> AssistantMessage:
    """An assistant message as pi's tests build it (mock model, zero usage)."""
    blocks = [TextContent(text=content)] if isinstance(content, str) else content
    return AssistantMessage(
        content=blocks,
        api="openai-responses",
        provider="openai",
        model="mock",
        usage=Usage(),
        stop_reason=stop_reason,  # type: ignore[arg-type]
        timestamp=0,
    )


def call(name: str, args: dict[str, Any], id: str) -> ToolCall:
    """A tool-call block."""
    return ToolCall(id=id, name=name, arguments=args)


class MockStreamFn:
    """A ``stream_fn`` like pi's mock: each call pushes only ``done`` (or ``error``) for the next reply.

    Records every call's ``(context, options)``. ``replies`` are AssistantMessages or callables
    ``(context, options) -> AssistantMessage``.
    """

    def __init__(self, *replies: Any) -> None:
        self.replies = list(replies)
        self.calls: list[tuple[Any, Any]] = []

    def __call__(self, model: Any, context: Any, options: Any) -> AssistantMessageEventStream:
        self.calls.append((context, options))
        reply = self.replies.pop(0) if self.replies else assistant("no more replies")
        stream = AssistantMessageEventStream()

        async def produce() -> None:
            await asyncio.sleep(0)
            message = reply(context, options) if callable(reply) else reply
            if message.stop_reason in ("error", "aborted"):
                stream.push(ErrorEvent(reason=message.stop_reason, error=message))
            else:
                stream.push(DoneEvent(reason=message.stop_reason, message=message))
            stream.end()

        _tasks.add(asyncio.get_running_loop().create_task(produce()))
        return stream


_tasks: set[asyncio.Task[None]] = set()


def types_of(events: list[Any]) -> list[str]:
    """The ``type`` of every event."""
    return [e.type for e in events]
