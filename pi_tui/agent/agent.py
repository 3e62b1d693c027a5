"""Agent: the stateful shell around the loop — transcript, queues, listeners, abort (pi-reference §2.7).

For every loop event the Agent first reduces its own state, then awaits each listener in subscription
order (barrier semantics: a slow listener delays the loop). ``prompt``/``continue_`` run one run at a time;
a second call while running raises pi's messages. A run that raises ends with a failure assistant message
pushed onto ``state.messages`` and a lone ``agent_end`` (pi's ``handleRunFailure``).

Beyond pi 0.73.1 (tests/conformance/DIFFERENCES.md):
- a message drained from a queue whose run aborts or fails before the message reached the transcript is
  put back at the front of its queue (pi-reference §5 item 3);
- a listener that raises does not break the run: the error is logged, the run is aborted (running tools get
  the signal, no further tool starts, finished results are kept), and when the loop has ended the run fails
  with that error (failure message + ``agent_end``), leaving the agent idle;
- ``reset()`` during a run raises (pi 0.84.1); ``steering_checkpoint="tool"`` (see AgentLoopConfig);
  ``should_stop_after_turn`` is accepted as an option (pi 0.84.0).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pi_tui.ai.abort import AbortController, AbortSignal
from pi_tui.ai.stream import stream_simple
from pi_tui.ai.types import AssistantMessage, ImageContent, TextContent, Usage, UserMessage, now_ms

from .events import AgentEndEvent
from .loop import run_agent_loop, run_agent_loop_continue
from .messages import parse_agent_message
from .queue import PendingMessageQueue
from .types import (
    AfterToolCallHook,
    AgentContext,
    AgentLoopConfig,
    AgentState,
    AgentThinkingLevel,
    BeforeToolCallHook,
    QueueMode,
    ShouldStopAfterTurnContext,
    SteeringCheckpoint,
    StreamFn,
    ToolExecutionMode,
)

log = logging.getLogger(__name__)

Listener = Callable[..., "Awaitable[None] | None"]

ALREADY_PROMPTING = (
    "Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion."
)
ALREADY_CONTINUING = "Agent is already processing. Wait for completion before continuing."
ALREADY_PROCESSING = "Agent is already processing."
NO_MESSAGES = "No messages to continue from"
CANNOT_CONTINUE_ASSISTANT = "Cannot continue from message role: assistant"
LISTENER_OUTSIDE_RUN = "Agent listener invoked outside active run"
RESET_WHILE_RUNNING = "Cannot reset while the agent is processing. Call abort() and wait_for_idle() first."
_LLM_ROLES = ("user", "assistant", "toolResult")


def default_convert_to_llm(messages: list[Any]) -> list[Any]:
    """Keep only ``user``/``assistant``/``toolResult`` messages (pi's default ``convertToLlm``)."""
    return [m for m in messages if getattr(m, "role", None) in _LLM_ROLES]


def _listener_arity(listener: Listener) -> int:
    try:
        params = inspect.signature(listener).parameters.values()
    except (TypeError, ValueError):
        return 2
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind == p.VAR_POSITIONAL for p in params) or len(positional) >= 2:
        return 2
    return 1


def _to_message(message: Any) -> Any:
    if isinstance(message, str):
        return UserMessage(content=[TextContent(text=message)], timestamp=now_ms())
    return parse_agent_message(message)


@dataclass
class _ActiveRun:
    controller: AbortController
    done: asyncio.Future[None]
    in_flight: list[tuple[PendingMessageQueue, Any]] = field(default_factory=list)
    listener_error: BaseException | None = None


class Agent:
    """Stateful agent (pi's ``Agent``); options are pi's ``AgentOptions`` as keyword arguments.

    ``initial_state`` is a dict with ``system_prompt``, ``model``, ``thinking_level``, ``tools``,
    ``messages`` (camelCase keys accepted; lists copied; message dicts parsed). Public mutable fields:
    ``convert_to_llm``, ``transform_context``, ``stream_fn``, ``get_api_key``, ``on_payload``,
    ``on_response``, ``before_tool_call``, ``after_tool_call``, ``session_id``, ``thinking_budgets``,
    ``transport``, ``max_retry_delay_ms``, ``tool_execution``, ``steering_checkpoint`` and
    ``should_stop_after_turn`` (not an Agent option in pi 0.73.1; added to AgentOptions in pi 0.84.0);
    properties ``steering_mode``/``follow_up_mode``.
    """

    def __init__(
        self,
        initial_state: dict[str, Any] | None = None,
        *,
        convert_to_llm: Callable[[list[Any]], Any] | None = None,
        transform_context: Callable[[list[Any], AbortSignal | None], Any] | None = None,
        stream_fn: StreamFn | None = None,
        get_api_key: Callable[[str], Any] | None = None,
        on_payload: Any = None,
        on_response: Any = None,
        before_tool_call: BeforeToolCallHook | None = None,
        after_tool_call: AfterToolCallHook | None = None,
        steering_mode: QueueMode = "one-at-a-time",
        follow_up_mode: QueueMode = "one-at-a-time",
        session_id: str | None = None,
        thinking_budgets: dict[str, int] | None = None,
        transport: Any = "auto",
        max_retry_delay_ms: int | None = None,
        tool_execution: ToolExecutionMode = "parallel",
        steering_checkpoint: SteeringCheckpoint = "turn",
        should_stop_after_turn: Callable[[ShouldStopAfterTurnContext], Any] | None = None,
    ) -> None:
        init = dict(initial_state or {})

        def pick(snake: str, camel: str, default: Any) -> Any:
            return init.get(snake, init.get(camel, default))

        thinking: AgentThinkingLevel = pick("thinking_level", "thinkingLevel", "off")
        self._state = AgentState(
            system_prompt=pick("system_prompt", "systemPrompt", ""),
            model=pick("model", "model", None),
            thinking_level=thinking,
            tools=list(pick("tools", "tools", []) or []),
            messages=[parse_agent_message(m) for m in pick("messages", "messages", []) or []],
        )
        self.convert_to_llm: Callable[[list[Any]], Any] = convert_to_llm or default_convert_to_llm
        self.transform_context = transform_context
        self.stream_fn: StreamFn = stream_fn or stream_simple
        self.get_api_key = get_api_key
        self.on_payload = on_payload
        self.on_response = on_response
        self.before_tool_call = before_tool_call
        self.after_tool_call = after_tool_call
        self._steering = PendingMessageQueue(steering_mode)
        self._follow_up = PendingMessageQueue(follow_up_mode)
        self.session_id = session_id
        self.thinking_budgets = thinking_budgets
        self.transport = transport
        self.max_retry_delay_ms = max_retry_delay_ms
        self.tool_execution: ToolExecutionMode = tool_execution
        self.steering_checkpoint: SteeringCheckpoint = steering_checkpoint
        self.should_stop_after_turn = should_stop_after_turn
        self.max_repeated_tool_failures: int | None = None  # pi-tui: see AgentLoopConfig
        self.list_tools_when_unknown = False  # pi-tui: see AgentLoopConfig
        self._listeners: dict[int, tuple[Listener, int]] = {}
        self._listener_list: tuple[tuple[Listener, int], ...] = ()
        self._next_listener = 0
        self._active: _ActiveRun | None = None

    # ------------------------------------------------------------ state, listeners, queues

    @property
    def state(self) -> AgentState:
        """The live state; assigning ``state.tools``/``state.messages`` copies the list."""
        return self._state

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Add ``listener(event, signal)`` (or ``listener(event)``), sync or async; returns unsubscribe.

        Listeners are awaited in subscription order for every event of a run.
        """
        key = self._next_listener
        self._next_listener += 1
        self._listeners[key] = (listener, _listener_arity(listener))
        self._listener_list = tuple(self._listeners.values())

        def unsubscribe() -> None:
            if self._listeners.pop(key, None) is not None:
                self._listener_list = tuple(self._listeners.values())

        return unsubscribe

    @property
    def steering_mode(self) -> QueueMode:
        """How steering messages are drained: ``one-at-a-time`` (default) or ``all``."""
        return self._steering.mode

    @steering_mode.setter
    def steering_mode(self, mode: QueueMode) -> None:
        self._steering.mode = mode

    @property
    def follow_up_mode(self) -> QueueMode:
        """How follow-up messages are drained: ``one-at-a-time`` (default) or ``all``."""
        return self._follow_up.mode

    @follow_up_mode.setter
    def follow_up_mode(self, mode: QueueMode) -> None:
        self._follow_up.mode = mode

    def steer(self, message: Any) -> None:
        """Queue a message injected after the current turn (a str becomes a user message)."""
        self._steering.enqueue(_to_message(message))

    def follow_up(self, message: Any) -> None:
        """Queue a message run only when the agent would otherwise stop (a str becomes a user message)."""
        self._follow_up.enqueue(_to_message(message))

    @property
    def queued_steering_messages(self) -> tuple[Any, ...]:
        """Steering messages not yet delivered, oldest first."""
        return self._steering.messages

    @property
    def queued_follow_up_messages(self) -> tuple[Any, ...]:
        """Follow-up messages not yet delivered, oldest first."""
        return self._follow_up.messages

    def clear_steering_queue(self) -> None:
        """Drop queued steering messages."""
        self._steering.clear()

    def clear_follow_up_queue(self) -> None:
        """Drop queued follow-up messages."""
        self._follow_up.clear()

    def clear_all_queues(self) -> None:
        """Drop every queued message."""
        self.clear_steering_queue()
        self.clear_follow_up_queue()

    def has_queued_messages(self) -> bool:
        """True when either queue holds a message."""
        return self._steering.has_items() or self._follow_up.has_items()

    @property
    def signal(self) -> AbortSignal | None:
        """The active run's abort signal (None when idle)."""
        return self._active.controller.signal if self._active is not None else None

    def abort(self) -> None:
        """Abort the active run (no-op when idle). Queues are kept."""
        if self._active is not None:
            self._active.controller.abort()

    async def wait_for_idle(self) -> None:
        """Return when the active run and its ``agent_end`` listeners finished (at once when idle)."""
        if self._active is not None:
            await asyncio.shield(self._active.done)

    def reset(self) -> None:
        """Clear transcript, runtime fields and both queues. Raises ``RuntimeError`` during a run."""
        if self._active is not None:
            raise RuntimeError(RESET_WHILE_RUNNING)
        self._state.messages = []
        self._state._is_streaming = False
        self._state._streaming_message = None
        self._state._pending_tool_calls = frozenset()
        self._state._error_message = None
        self.clear_follow_up_queue()
        self.clear_steering_queue()

    # ------------------------------------------------------------ runs

    async def prompt(self, input: Any, images: Sequence[ImageContent] | None = None) -> None:
        """Run with ``input``: a string (one user message, ``images`` appended), a message or a list.

        Raises ``RuntimeError`` (pi's text) when a run is active. Returns when the run and its listeners
        finished; run failures do not raise (they end as a failure message, §2.7).
        """
        if self._active is not None:
            raise RuntimeError(ALREADY_PROMPTING)
        await self._run_prompt(self._normalize(input, images))

    async def continue_(self) -> None:
        """Continue from the transcript (pi's ``continue()``), §2.7.

        Assistant tail: queued steering runs as a prompt (initial steering poll skipped), else queued
        follow-ups, else ``RuntimeError("Cannot continue from message role: assistant")``. Empty
        transcript: ``RuntimeError("No messages to continue from")``.
        """
        if self._active is not None:
            raise RuntimeError(ALREADY_CONTINUING)
        if not self._state.messages:
            raise RuntimeError(NO_MESSAGES)
        if getattr(self._state.messages[-1], "role", None) == "assistant":
            steering = self._steering.drain()
            if steering:
                await self._run_prompt(steering, skip_initial_steering=True, source=self._steering)
                return
            follow_ups = self._follow_up.drain()
            if follow_ups:
                await self._run_prompt(follow_ups, source=self._follow_up)
                return
            raise RuntimeError(CANNOT_CONTINUE_ASSISTANT)
        await self._run(lambda signal: run_agent_loop_continue(
            self._snapshot(), self._loop_config(False), self._process_event, signal, self.stream_fn
        ))

    def _normalize(self, input: Any, images: Sequence[ImageContent] | None) -> list[Any]:
        if isinstance(input, list | tuple):
            return [parse_agent_message(m) for m in input]
        if not isinstance(input, str):
            return [parse_agent_message(input)]
        content: list[Any] = [TextContent(text=input), *(images or [])]
        return [UserMessage(content=content, timestamp=now_ms())]

    async def _run_prompt(
        self,
        messages: list[Any],
        skip_initial_steering: bool = False,
        source: PendingMessageQueue | None = None,
    ) -> None:
        def start(signal: AbortSignal) -> Awaitable[list[Any]]:
            if source is not None and self._active is not None:
                self._active.in_flight.extend((source, m) for m in messages)
            return run_agent_loop(
                messages,
                self._snapshot(),
                self._loop_config(skip_initial_steering),
                self._process_event,
                signal,
                self.stream_fn,
            )

        await self._run(start)

    def _snapshot(self) -> AgentContext:
        return AgentContext(
            system_prompt=self._state.system_prompt,
            messages=list(self._state.messages),
            tools=list(self._state.tools),
        )

    def _drainer(self, queue: PendingMessageQueue, skip_first: bool) -> Callable[[], list[Any]]:
        skip = [skip_first]

        def drain() -> list[Any]:
            if skip[0]:
                skip[0] = False
                return []
            drained = queue.drain()
            if drained and self._active is not None:
                self._active.in_flight.extend((queue, m) for m in drained)
            return drained

        return drain

    def _loop_config(self, skip_initial_steering: bool) -> AgentLoopConfig:
        level = self._state.thinking_level
        return AgentLoopConfig(
            model=self._state.model,
            reasoning=None if level == "off" else level,
            session_id=self.session_id,
            on_payload=self.on_payload,
            on_response=self.on_response,
            transport=self.transport,
            thinking_budgets=self.thinking_budgets,
            max_retry_delay_ms=self.max_retry_delay_ms,
            tool_execution=self.tool_execution,
            before_tool_call=self.before_tool_call,
            after_tool_call=self.after_tool_call,
            convert_to_llm=self.convert_to_llm,
            transform_context=self.transform_context,
            get_api_key=self.get_api_key,
            get_steering_messages=self._drainer(self._steering, skip_initial_steering),
            get_follow_up_messages=self._drainer(self._follow_up, False),
            steering_checkpoint=self.steering_checkpoint,
            should_stop_after_turn=self.should_stop_after_turn,
            max_repeated_tool_failures=self.max_repeated_tool_failures,
            list_tools_when_unknown=self.list_tools_when_unknown,
        )

    async def _run(self, executor: Callable[[AbortSignal], Awaitable[list[Any]]]) -> None:
        if self._active is not None:
            raise RuntimeError(ALREADY_PROCESSING)
        loop = asyncio.get_running_loop()
        run = _ActiveRun(controller=AbortController(), done=loop.create_future())
        self._active = run
        self._state._is_streaming = True
        self._state._streaming_message = None
        self._state._error_message = None
        task = loop.create_task(self._lifecycle(run, executor))
        await asyncio.shield(task)

    async def _lifecycle(self, run: _ActiveRun, executor: Callable[[AbortSignal], Awaitable[list[Any]]]) -> None:
        signal = run.controller.signal
        try:
            try:
                await executor(signal)
            except Exception as exc:
                await self._handle_failure(exc, signal.aborted)
            else:
                if run.listener_error is not None:
                    await self._handle_failure(run.listener_error, False)
        except BaseException as exc:  # a failing failure path must not leave the agent streaming
            log.exception("agent run teardown failed: %s", exc)
            if not isinstance(exc, Exception):
                raise
        finally:
            self._finish(run)

    async def _handle_failure(self, error: BaseException, aborted: bool) -> None:
        model = self._state.model
        failure = AssistantMessage(
            content=[TextContent(text="")],
            api=model.api,
            provider=model.provider,
            model=model.id,
            usage=Usage(),
            stop_reason="aborted" if aborted else "error",
            error_message=str(error) or type(error).__name__,
            timestamp=now_ms(),
        )
        self._state.messages.append(failure)
        self._state._error_message = failure.error_message
        await self._process_event(AgentEndEvent(messages=[failure]))

    def _finish(self, run: _ActiveRun) -> None:
        restore: dict[int, tuple[PendingMessageQueue, list[Any]]] = {}
        for queue, message in run.in_flight:
            restore.setdefault(id(queue), (queue, []))[1].append(message)
        for queue, messages in restore.values():
            queue.restore_front(messages)
        run.in_flight.clear()
        self._state._is_streaming = False
        self._state._streaming_message = None
        self._state._pending_tool_calls = frozenset()
        if self._active is run:
            self._active = None
        if not run.done.done():
            run.done.set_result(None)

    async def _process_event(self, event: Any) -> None:
        """Reduce state for ``event``, then await every listener in order (pi's ``processEvents``)."""
        state = self._state
        kind = event.type
        if kind == "message_update" or kind == "message_start":
            state._streaming_message = event.message
        elif kind == "message_end":
            state._streaming_message = None
            state._messages.append(event.message)
            run = self._active
            if run is not None and run.in_flight:
                run.in_flight = [(q, m) for q, m in run.in_flight if m is not event.message]
        elif kind == "tool_execution_start":
            state._pending_tool_calls = state._pending_tool_calls | {event.tool_call_id}
        elif kind == "tool_execution_end":
            state._pending_tool_calls = state._pending_tool_calls - {event.tool_call_id}
        elif kind == "turn_end":
            message = event.message
            if getattr(message, "role", None) == "assistant" and message.error_message:
                state._error_message = message.error_message
        elif kind == "agent_end":
            state._streaming_message = None
        run = self._active
        if run is None:
            raise RuntimeError(LISTENER_OUTSIDE_RUN)
        signal = run.controller.signal
        for listener, arity in self._listener_list:
            try:
                result = listener(event, signal) if arity == 2 else listener(event)
                if result is not None and inspect.isawaitable(result):
                    await result
            except Exception as exc:
                log.exception("agent listener raised on %s", kind)
                if run.listener_error is None:
                    run.listener_error = exc
                    run.controller.abort(exc)
