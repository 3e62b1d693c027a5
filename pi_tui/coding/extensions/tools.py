"""Tools registered by extensions (pi's ``registerTool``; pi docs/extensions.md "Custom Tools").

:func:`make_extension_tool` turns ``pi.register_tool(...)`` arguments into an :class:`ExtensionTool`, an
``AgentTool`` the agent runs like a built-in. ``parameters`` is a pydantic model class (``execute`` then
receives a validated instance) or a JSON-schema dict (``execute`` receives the validated dict).

``execute(tool_call_id, params, signal, on_update, ctx)`` may be sync or async and may accept fewer
positional arguments (``execute(tool_call_id, params)`` is fine). It returns an ``AgentToolResult``, a dict
``{"content": [...] | str, "details"?: ..., "terminate"?: bool}``, a ``str`` (one text block) or None
(empty result). It signals failure by raising: the error message goes to the model as an error result
(pi: returning a value never sets the error flag).

Abort (Esc). An async ``execute`` still running when the turn's ``signal`` fires is cancelled at once (its
task gets ``CancelledError``) and the call ends with ``Tool NAME aborted``, as bash and MCP calls do; one that
ignores the signal no longer keeps the run waiting (tester2 #6: 30 s of "Working..." after Esc). A sync
``execute`` cannot be interrupted: it runs to its end.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, PrivateAttr

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortError, AbortSignal

ToolExecute = Callable[..., Any]


def _positional_count(fn: Callable[..., Any]) -> int:
    """How many of ``(tool_call_id, params, signal, on_update, ctx)`` ``fn`` takes: its positional
    parameters without a default (a defaulted one named like an argument, e.g. ``ctx=None``, counts too)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return 5
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return 5
    names = ("tool_call_id", "call_id", "params", "signal", "on_update", "ctx", "context")
    count = 0
    for p in params:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        if p.default is not p.empty and p.name.lstrip("_") not in names:
            break
        count += 1
    return min(count, 5)


class ExtensionTool(AgentTool):
    """An ``AgentTool`` backed by an extension's ``execute`` (module docstring). ``prompt_snippet`` is its
    one-line entry under "Available tools" (left out without one); ``prompt_guidelines`` are appended to
    the system prompt's guidelines while the tool is active (pi). ``owner``: the extension name."""

    prompt_snippet: str | None = None
    prompt_guidelines: list[str] | None = None
    owner: str = ""
    _fn: ToolExecute | None = PrivateAttr(default=None)
    _nargs: int = PrivateAttr(default=5)
    _prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = PrivateAttr(default=None)
    _context: Callable[[], Any] | None = PrivateAttr(default=None)

    def bind(self, fn: ToolExecute, prepare: Callable[[dict[str, Any]], dict[str, Any]] | None,
             context: Callable[[], Any] | None) -> ExtensionTool:
        """Attach the extension's callables; returns self."""
        self._fn = fn
        self._nargs = _positional_count(fn)
        self._prepare = prepare
        self._context = context
        return self

    def prepare_arguments(self, args: dict[str, Any]) -> dict[str, Any]:
        """The extension's ``prepare_arguments`` (legacy argument shapes), else unchanged."""
        if self._prepare is None:
            return args
        prepared = self._prepare(args)
        return prepared if isinstance(prepared, dict) else args

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Run the extension's ``execute`` and normalise its result (module docstring); raises
        ``TypeError`` for a result of another shape."""
        if self._fn is None:
            raise RuntimeError(f"tool {self.name!r} has no implementation")
        ctx = self._context() if self._context is not None else None
        args = (tool_call_id, params, signal, on_update, ctx)[: self._nargs]
        result = self._fn(*args)
        if inspect.isawaitable(result):
            result = await until_aborted(result, signal, f"Tool {self.name} aborted")
        return to_tool_result(result, self.name)


async def until_aborted(awaitable: Any, signal: AbortSignal | None, message: str) -> Any:
    """Await ``awaitable``; when ``signal`` fires first, cancel it and raise ``AbortError(message)`` (a
    cancel of the caller itself is passed on as it is)."""
    if signal is None:
        return await awaitable
    if signal.aborted:
        if inspect.iscoroutine(awaitable):
            awaitable.close()
        raise AbortError(message)
    task = asyncio.ensure_future(awaitable)
    remove = signal.add_listener(task.cancel)
    try:
        return await task
    except asyncio.CancelledError:
        current = asyncio.current_task()
        if signal.aborted and (current is None or current.cancelling() == 0):
            raise AbortError(message) from None
        raise
    finally:
        remove()


def to_tool_result(result: Any, tool_name: str) -> AgentToolResult:
    """Normalise what an ``execute`` returned (module docstring)."""
    if isinstance(result, AgentToolResult):
        return result
    if result is None:
        return AgentToolResult(content=[])
    if isinstance(result, str):
        return AgentToolResult.model_validate({"content": [{"type": "text", "text": result}]})
    if isinstance(result, dict):
        data = dict(result)
        if isinstance(data.get("content"), str):
            data["content"] = [{"type": "text", "text": data["content"]}]
        try:
            return AgentToolResult.model_validate(data)
        except ValueError as exc:
            raise TypeError(f"tool {tool_name!r} returned an invalid result: {str(exc).splitlines()[0]}") from None
    raise TypeError(
        f"tool {tool_name!r} returned {type(result).__name__}; expected a str, a dict with 'content' or AgentToolResult"
    )


def make_extension_tool(
    *,
    name: str,
    description: str,
    execute: ToolExecute,
    parameters: type[BaseModel] | dict[str, Any] | None = None,
    label: str = "",
    prompt_snippet: str | None = None,
    prompt_guidelines: Sequence[str] | None = None,
    execution_mode: str | None = None,
    prepare_arguments: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    owner: str = "",
    context: Callable[[], Any] | None = None,
) -> ExtensionTool:
    """Build the tool (module docstring). Raises ``ValueError`` for an empty name, a non-callable
    ``execute``, parameters that are neither a pydantic model class nor a dict, or a bad execution mode."""
    if not name or any(ch.isspace() for ch in name):
        raise ValueError(f"Invalid tool name {name!r}")
    if not callable(execute):
        raise ValueError(f"Tool {name}: execute is not callable")
    if execution_mode not in (None, "sequential", "parallel"):
        raise ValueError(f"Tool {name}: execution_mode must be 'sequential' or 'parallel'")
    fields: dict[str, Any] = {
        "name": name,
        "description": description,
        "label": label or name,
        "prompt_snippet": prompt_snippet,
        "prompt_guidelines": list(prompt_guidelines) if prompt_guidelines is not None else None,
        "execution_mode": execution_mode,
        "owner": owner,
    }
    if isinstance(parameters, type) and issubclass(parameters, BaseModel):
        fields["params_model"] = parameters
    elif isinstance(parameters, dict):
        fields["parameters"] = parameters
    elif parameters is not None:
        raise ValueError(f"Tool {name}: parameters must be a pydantic model class or a JSON-schema dict")
    tool = ExtensionTool(**fields)
    return tool.bind(execute, prepare_arguments, context)
