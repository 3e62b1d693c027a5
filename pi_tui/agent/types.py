"""pi-agent-core types (pi-reference §2.1). Tool protocol first; events and loop config follow.

``AgentTool.execute`` raises on failure (the loop turns the exception message into an error
result); it never encodes errors in its content.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field

from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.events import AssistantMessageEventStream
from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.types import (
    AssistantMessage,
    Context,
    Model,
    PiModel,
    Tool,
    ToolCall,
    ToolResultContent,
    ToolResultMessage,
)

ToolExecutionMode = Literal["sequential", "parallel"]


class AgentToolResult(PiModel):
    """``{content: (text|image)[], details, terminate?}``; ``details`` never reaches the LLM."""

    content: list[ToolResultContent] = Field(default_factory=list)
    details: Any = None
    terminate: bool | None = None


AgentToolUpdateCallback = Callable[[AgentToolResult], "Awaitable[None] | None"]


class AgentTool(Tool):
    """A tool the agent can run: pi-ai ``Tool`` + ``label``, ``execute`` and optional hooks (§2.1).

    ``parameters`` is a JSON Schema dict; alternatively set ``params_model`` to a pydantic model
    class (its JSON schema is then used as ``parameters`` and ``execute`` receives a validated
    instance of it). Subclasses override :meth:`execute`; :meth:`prepare_arguments` is a
    compatibility shim run on the raw arguments before validation (default: unchanged).
    ``execution_mode="sequential"`` forces the whole batch containing this tool to run sequentially.
    """

    label: str = ""
    execution_mode: ToolExecutionMode | None = None
    params_model: type[BaseModel] | None = Field(default=None, exclude=True)

    def model_post_init(self, __context: Any) -> None:
        if not self.label:
            self.label = self.name
        if self.params_model is not None and self.parameters == {"type": "object", "properties": {}}:
            self.parameters = self.params_model.model_json_schema()

    def prepare_arguments(self, args: dict[str, Any]) -> dict[str, Any]:
        """Rewrite legacy argument shapes before validation (pi's ``prepareArguments``)."""
        return args

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Run the tool; raise an exception (its message becomes the error result) on failure."""
        raise NotImplementedError(f"tool {self.name!r} does not implement execute()")


# ---------------------------------------------------------------- loop configuration and hooks (§2.1)

AgentThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh"]
"""Agent-level thinking level (``off`` included); the loop forwards anything but ``off`` as ``reasoning``."""
ThinkingLevel = AgentThinkingLevel
QueueMode = Literal["one-at-a-time", "all"]
SteeringCheckpoint = Literal["turn", "tool"]


@dataclass
class AgentContext:
    """What the loop runs on: ``{system_prompt, messages, tools}`` (pi's ``AgentContext``).

    The loop appends to ``messages`` in place (streaming partial, tool results), so callers pass a copy.
    """

    system_prompt: str = ""
    messages: list[Any] = field(default_factory=list)
    tools: list[AgentTool] | None = None


@dataclass
class BeforeToolCallResult:
    """``{block?, reason?}``: ``block=True`` turns the call into an error result with ``reason``."""

    block: bool = False
    reason: str | None = None


@dataclass
class AfterToolCallResult:
    """Field-wise overrides of an executed result; each given field replaces the original (no deep merge)."""

    content: list[Any] | None = None
    details: Any = None
    is_error: bool | None = None
    terminate: bool | None = None


@dataclass
class BeforeToolCallContext:
    """``{assistant_message, tool_call (raw block), args (validated), context}``."""

    assistant_message: AssistantMessage
    tool_call: ToolCall
    args: Any
    context: AgentContext


@dataclass
class AfterToolCallContext:
    """``{assistant_message, tool_call, args, result (pre-override), is_error, context}``."""

    assistant_message: AssistantMessage
    tool_call: ToolCall
    args: Any
    result: AgentToolResult
    is_error: bool
    context: AgentContext


@dataclass
class ShouldStopAfterTurnContext:
    """``{message, tool_results, context (after appending results), new_messages}``."""

    message: AssistantMessage
    tool_results: list[ToolResultMessage]
    context: AgentContext
    new_messages: list[Any]


BeforeToolCallHook = Callable[
    [BeforeToolCallContext, "AbortSignal | None"], "Awaitable[BeforeToolCallResult | dict[str, Any] | None] | BeforeToolCallResult | dict[str, Any] | None"
]
AfterToolCallHook = Callable[
    [AfterToolCallContext, "AbortSignal | None"], "Awaitable[AfterToolCallResult | dict[str, Any] | None] | AfterToolCallResult | dict[str, Any] | None"
]
StreamFn = Callable[[Model, Context, Any], "AssistantMessageEventStream | Awaitable[AssistantMessageEventStream]"]
"""Same signature as ``stream_simple``; should encode failures in the stream rather than raise (§2.1)."""


@dataclass(kw_only=True)
class AgentLoopConfig(SimpleStreamOptions):
    """Loop configuration (pi's ``AgentLoopConfig extends SimpleStreamOptions``, §2.1).

    The whole config is passed to ``stream_fn`` as its options (with ``api_key`` and ``signal`` set per call),
    like pi. Callbacks may be sync or async. ``convert_to_llm`` (required) maps AgentMessages to LLM
    messages; ``transform_context(messages, signal)`` runs before it; ``get_api_key(provider)`` is
    re-resolved before every LLM call; ``should_stop_after_turn(ctx)`` ends the run after a turn;
    ``get_steering_messages()``/``get_follow_up_messages()`` drain the queues; ``tool_execution`` is
    ``"parallel"`` (default) or ``"sequential"``; ``before_tool_call(ctx, signal)`` may block a call;
    ``after_tool_call(ctx, signal)`` may override the result.

    Beyond pi: ``steering_checkpoint="tool"`` also polls steering after each tool in sequential mode; the
    rest of the batch is then skipped (error results) and the steering message goes to the model next.
    ``max_repeated_tool_failures`` (None or 0: no limit, pi) ends a run whose model made the same failing
    call that many times (:mod:`pi_tui.agent.tool_loop_guard`); ``list_tools_when_unknown`` (False: pi's
    ``Tool <name> not found``) makes the error for an unknown tool name the tools that exist.
    """

    model: Model
    convert_to_llm: Callable[[list[Any]], Any]
    transform_context: Callable[[list[Any], AbortSignal | None], Any] | None = None
    get_api_key: Callable[[str], Any] | None = None
    should_stop_after_turn: Callable[[ShouldStopAfterTurnContext], Any] | None = None
    get_steering_messages: Callable[[], Any] | None = None
    get_follow_up_messages: Callable[[], Any] | None = None
    tool_execution: ToolExecutionMode = "parallel"
    before_tool_call: BeforeToolCallHook | None = None
    after_tool_call: AfterToolCallHook | None = None
    steering_checkpoint: SteeringCheckpoint = "turn"
    max_repeated_tool_failures: int | None = None
    list_tools_when_unknown: bool = False


# ---------------------------------------------------------------- agent state (§2.1 AgentState, §2.7)

DEFAULT_MODEL = Model(
    id="unknown",
    name="unknown",
    api="unknown",
    provider="unknown",
    base_url="",
    reasoning=False,
    input=[],
    context_window=0,
    max_tokens=0,
)
"""pi's placeholder model for an Agent built without one."""


class AgentState:
    """Runtime state of an :class:`~pi_tui.agent.agent.Agent` (pi's ``AgentState``).

    ``system_prompt``, ``model`` and ``thinking_level`` are plain attributes. Assigning ``tools`` or
    ``messages`` stores a copy of the list; reading them returns the live list (so ``append`` mutates the
    state). ``is_streaming``, ``streaming_message``, ``pending_tool_calls`` (a frozenset of tool-call ids,
    replaced on every change) and ``error_message`` are read-only: only the Agent changes them.
    """

    __slots__ = (
        "system_prompt",
        "model",
        "thinking_level",
        "_tools",
        "_messages",
        "_is_streaming",
        "_streaming_message",
        "_pending_tool_calls",
        "_error_message",
    )

    def __init__(
        self,
        system_prompt: str = "",
        model: Model | None = None,
        thinking_level: AgentThinkingLevel = "off",
        tools: list[AgentTool] | None = None,
        messages: list[Any] | None = None,
    ) -> None:
        self.system_prompt = system_prompt
        self.model: Model = model if model is not None else DEFAULT_MODEL
        self.thinking_level: AgentThinkingLevel = thinking_level
        self._tools: list[AgentTool] = list(tools or [])
        self._messages: list[Any] = list(messages or [])
        self._is_streaming = False
        self._streaming_message: Any = None
        self._pending_tool_calls: frozenset[str] = frozenset()
        self._error_message: str | None = None

    @property
    def tools(self) -> list[AgentTool]:
        """The live tool list."""
        return self._tools

    @tools.setter
    def tools(self, tools: list[AgentTool]) -> None:
        self._tools = list(tools)

    @property
    def messages(self) -> list[Any]:
        """The live transcript (AgentMessages)."""
        return self._messages

    @messages.setter
    def messages(self, messages: list[Any]) -> None:
        self._messages = list(messages)

    @property
    def is_streaming(self) -> bool:
        """True while a run is active (until its ``agent_end`` listeners finished)."""
        return self._is_streaming

    @property
    def streaming_message(self) -> Any:
        """The message being streamed (set on ``message_start``/``message_update``), else None."""
        return self._streaming_message

    @property
    def pending_tool_calls(self) -> frozenset[str]:
        """Ids of tool calls between ``tool_execution_start`` and ``tool_execution_end``."""
        return self._pending_tool_calls

    @property
    def error_message(self) -> str | None:
        """Error of the last failed/aborted turn or run, cleared when a run starts."""
        return self._error_message

    def __repr__(self) -> str:
        return (
            f"AgentState(model={self.model.id!r}, messages={len(self._messages)}, tools={len(self._tools)}, "
            f"is_streaming={self._is_streaming}, error_message={self._error_message!r})"
        )


def __getattr__(name: str) -> Any:
    """``AgentEvent`` and the event models live in :mod:`pi_tui.agent.events` (they need AgentToolResult
    from here); this makes ``from pi_tui.agent.types import AgentEvent`` work too."""
    if name == "AgentEvent" or name.endswith("Event"):
        from . import events

        if hasattr(events, name):
            return getattr(events, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
