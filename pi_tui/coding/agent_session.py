"""AgentSession: one Agent + one SessionManager, shared by every mode (pi-reference §3.1, §3.5–§3.11).

Event processing (§3.5). The session subscribes to its Agent; the Agent awaits that listener for every
event, in order, so processing is strictly ordered and persistence precedes tool hooks without an extra
queue. For each event:

1. user ``message_start``: the first queued steering (else follow-up) text equal to the message text is
   removed and ``queue_update`` is emitted *before* subscribers see the ``message_start``;
2. toolResult ``message_end``: ``details["artifacts"]`` are taken out of the result (pi-tui);
3. the event goes to every subscriber (sync callables, in subscription order);
4. ``message_end``: persisted (``custom`` → custom_message entry, others → message entry; a toolResult was
   already written at its ``tool_execution_end``, before step 3, so a crash mid-batch keeps it); artifacts from
   step 2 become ``artifact`` messages right after the toolResult (state + file + message_start/end);
   a successful assistant ends a retry cycle with ``auto_retry_end{success:true}``;
5. ``agent_end``: retry (§3.10, retry.py) or compaction check (§3.9) run as a follow-on task that
   :meth:`prompt` awaits.

UI-only messages (``notification``/``artifact``) live in ``messages`` and the session file but never reach
the LLM (convert_to_llm drops them). The session notifies retries, compaction, model switches and errors.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

from pi_tui.agent import Agent, MessageEndEvent, MessageStartEvent, ShouldStopAfterTurnContext
from pi_tui.agent.types import AgentLoopConfig, AgentTool
from pi_tui.ai.abort import AbortController
from pi_tui.ai.registry import error_stream
from pi_tui.ai.secret_redaction import redact_text
from pi_tui.ai.stream import stream_simple
from pi_tui.ai.types import (
    AssistantMessage,
    ImageContent,
    Model,
    TextContent,
    ToolResultMessage,
    UserMessage,
    now_ms,
)
from pi_tui.coding.extensions.registries import CommandRegistry
from pi_tui.coding.messages import (
    ArtifactMessage,
    BashExecutionMessage,
    NotificationMessage,
    convert_to_llm,
    message_role,
    message_text,
    register_coding_roles,
)
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.coding.session_bash import BashMixin
from pi_tui.coding.session_compaction import CompactionMixin
from pi_tui.coding.session_events import QueueUpdateEvent, SessionInfoChangedEvent
from pi_tui.coding.session_models import ModelMixin
from pi_tui.coding.session_retry import RetryMixin
from pi_tui.coding.session_settings import LOGIN_HELP, NO_MODEL_MESSAGE, ModelAccess, SessionSettings
from pi_tui.coding.session_stats import StatsMixin
from pi_tui.coding.session_switching import SwitchingMixin

log = logging.getLogger(__name__)

SessionListener = Callable[[Any], Any]

EMPTY_RESPONSE = "The model returned an empty response (no text and no tool call)."


def _is_empty_answer(message: AssistantMessage) -> bool:
    """A normal stop with nothing in it: no text, no thinking, no tool call (a misconfigured server, an
    endpoint that answers 200 with an empty stream). pi shows nothing at all; pi-tui adds a UI-only warning."""
    if message.stop_reason != "stop":
        return False
    for block in message.content:
        if block.type == "toolCall":
            return False
        if (getattr(block, "text", None) or getattr(block, "thinking", None) or "").strip():
            return False
    return True


ALREADY_STREAMING = (
    "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message."
)


class _SessionAgent(Agent):
    """The Agent with a ``should_stop_after_turn`` hook (pi 0.84's AgentOptions field; loop config in 0.73)."""

    stop_after_turn: Callable[[ShouldStopAfterTurnContext], bool] | None = None

    def _loop_config(self, skip_initial_steering: bool) -> AgentLoopConfig:
        config = super()._loop_config(skip_initial_steering)
        if self.stop_after_turn is not None:
            config.should_stop_after_turn = self.stop_after_turn
        return config


def _artifact_from(data: Any) -> ArtifactMessage | None:
    if isinstance(data, ArtifactMessage):
        return data
    if not isinstance(data, dict):
        return None
    try:
        fields = {k: v for k, v in data.items() if k != "role"}
        fields.setdefault("title", str(fields.get("path") or "artifact"))
        fields.setdefault("content", "")
        if not isinstance(fields.get("content"), str):
            fields["content"] = str(fields["content"])
        return ArtifactMessage.model_validate(fields)
    except ValueError:
        return None


class AgentSession(RetryMixin, CompactionMixin, ModelMixin, StatsMixin, BashMixin, SwitchingMixin):
    """A coding-agent session (pi's ``AgentSession``). Build it with ``create_agent_session``.

    ``agent``: the wired Agent (convert_to_llm, tools, system prompt, model); ``session_manager``: H6's
    SessionManager; ``models``: model/key access; ``settings``: behaviour settings. ``offline``: the built-in
    offline demo model is in use. ``sleep`` (tests) replaces ``asyncio.sleep`` for retry waits.
    ``commands``: the slash-command registry every front end reads (built-ins, extensions, templates,
    skills, MCP prompts; ``pi_tui.coding.extensions.registries``); a new empty one when None.
    """

    def __init__(
        self,
        *,
        agent: Agent,
        session_manager: SessionManager,
        models: ModelAccess,
        settings: SessionSettings | None = None,
        cwd: str,
        offline: bool = False,
        rebuild_system_prompt: Callable[[list[AgentTool]], str] | None = None,
        sleep: Callable[[float], Any] | None = None,
        commands: CommandRegistry | None = None,
    ) -> None:
        register_coding_roles()
        self.agent = agent
        self.session_manager = session_manager
        self.models = models
        self.settings = settings or SessionSettings()
        self.cwd = cwd
        self.commands = commands if commands is not None else CommandRegistry()
        self._offline = offline
        self._rebuild_system_prompt = rebuild_system_prompt
        self._sleep = sleep or asyncio.sleep
        self._listeners: dict[int, SessionListener] = {}
        self._next_listener = 0
        self._steering_texts: list[str] = []
        self._follow_up_texts: list[str] = []
        self._pending_bash: list[BashExecutionMessage] = []
        self._bash_abort: AbortController | None = None
        self._last_assistant: AssistantMessage | None = None
        self._ended_in_run: set[int] = set()
        self._save_failure_reported = False  # id() of messages that had message_end in the current run
        self._call_artifacts: dict[str, list[ArtifactMessage]] = {}
        self._stored_results: dict[str, list[ToolResultMessage]] = {}  # written at tool_execution_end
        self._follow_on: asyncio.Task[None] | None = None
        self.all_tools: dict[str, AgentTool] = {t.name: t for t in agent.state.tools}
        self.startup_warnings: list[str] = []
        self._init_retry()
        self._init_compaction()
        agent.convert_to_llm = self._convert_to_llm
        agent.get_api_key = self._get_api_key_for_provider
        agent.stream_fn = self._stream
        agent.session_id = session_manager.get_session_id()
        if isinstance(agent, _SessionAgent):
            agent.stop_after_turn = self._should_stop_after_turn
        agent.max_repeated_tool_failures = self.settings.max_repeated_tool_failures or None
        agent.list_tools_when_unknown = True  # issue 10 class 5
        self._unsubscribe_agent = agent.subscribe(self._on_agent_event)

    # ------------------------------------------------------------------ subscribers

    def subscribe(self, listener: SessionListener) -> Callable[[], None]:
        """Add ``listener(event)`` (sync; called in order for every AgentSessionEvent); returns unsubscribe."""
        key = self._next_listener
        self._next_listener += 1
        self._listeners[key] = listener

        def unsubscribe() -> None:
            self._listeners.pop(key, None)

        return unsubscribe

    def _emit(self, event: Any) -> None:
        for listener in list(self._listeners.values()):
            try:
                result = listener(event)
                if asyncio.iscoroutine(result):
                    asyncio.ensure_future(result)
            except Exception:  # a broken listener must not break the session
                log.exception("session listener failed on %s", getattr(event, "type", event))

    # ------------------------------------------------------------------ simple properties

    @property
    def messages(self) -> list[Any]:
        """The live transcript (agent messages, UI-only ones included)."""
        return self.agent.state.messages

    @property
    def is_streaming(self) -> bool:
        """True while the agent runs."""
        return self.agent.state.is_streaming

    @property
    def is_offline_model(self) -> bool:
        """True when the built-in offline demo model is in use."""
        from pi_tui.coding.offline_model import is_offline_model

        return is_offline_model(self.model)

    @property
    def steering_messages(self) -> list[str]:
        """Texts of queued steering messages (UI list)."""
        return list(self._steering_texts)

    @property
    def follow_up_messages(self) -> list[str]:
        """Texts of queued follow-up messages (UI list)."""
        return list(self._follow_up_texts)

    @property
    def pending_message_count(self) -> int:
        """Number of queued steering + follow-up messages."""
        return len(self._steering_texts) + len(self._follow_up_texts)

    @property
    def session_file(self) -> str | None:
        """Path of the session file (None for in-memory sessions)."""
        path = self.session_manager.get_session_file()
        return str(path) if path is not None else None

    @property
    def session_id(self) -> str:
        """The session's UUIDv7."""
        return self.session_manager.get_session_id()

    @property
    def session_name(self) -> str | None:
        """The session's display name."""
        return self.session_manager.get_session_name()

    def set_session_name(self, name: str) -> None:
        """Rename the session (a ``session_info`` entry) and emit ``session_info_changed``."""
        self.session_manager.append_session_info(name)
        self._emit(SessionInfoChangedEvent(name=self.session_manager.get_session_name()))

    # ------------------------------------------------------------------ agent wiring

    def _convert_to_llm(self, messages: list[Any]) -> list[Any]:
        return convert_to_llm(messages, block_images=self.settings.block_images)

    def _get_api_key_for_provider(self, provider: str) -> str | None:
        model = self.agent.state.model
        if model is not None and model.provider == provider:
            return self.models.get_api_key(model)
        return None

    def _stream(self, model: Model, context: Any, options: Any) -> Any:
        """Per-request credentials (pi's streamFn): the key and models.json headers are resolved for every
        call; a resolution error becomes an error stream (never an exception)."""
        resolve = getattr(self.models, "request_credentials", None)
        if resolve is not None:
            credentials = resolve(model)
            if credentials.error:
                return error_stream(model, credentials.error)
            changes: dict[str, Any] = {}
            if credentials.api_key:
                changes["api_key"] = credentials.api_key
            if credentials.headers:
                changes["headers"] = {**credentials.headers, **(options.headers or {})}
            if changes:
                options = dataclasses.replace(options, **changes)
        return stream_simple(model, context, options)

    async def _on_agent_event(self, event: Any) -> None:
        kind = event.type
        if kind == "agent_start":
            self._ended_in_run = set()
            self._stored_results = {}
        elif kind == "message_end":
            self._ended_in_run.add(id(event.message))
        elif kind == "agent_end":
            for failure in self._unstreamed_failures(event.messages):
                await self._on_agent_event(MessageStartEvent(message=failure))
                await self._on_agent_event(MessageEndEvent(message=failure))
        if kind == "message_start" and message_role(event.message) == "user":
            self._overflow_attempted = False
            self._dequeue_text(message_text(event.message))
        elif kind == "tool_execution_end":
            artifacts = self._take_artifacts(event.result)
            if artifacts:
                self._call_artifacts[event.tool_call_id] = artifacts
            self._persist_finished_result(event)
        elif kind in ("message_start", "message_end") and message_role(event.message) == "toolResult":
            self._strip_artifacts(event.message)
            stored = self._stored_results.get(event.message.tool_call_id)
            if stored:
                event.message.timestamp = stored[0].timestamp  # the live message and the stored one agree
        message = getattr(event, "message", None)
        if isinstance(message, AssistantMessage) and message.error_message:
            # a provider error may echo the key ("Incorrect API key provided: sk-…"): never shown or stored
            message.error_message = redact_text(message.error_message)
        self._emit(event)
        if kind == "message_end":
            self._on_message_end(event.message)
            if message_role(event.message) == "toolResult":
                for artifact in self._call_artifacts.pop(event.message.tool_call_id, []):
                    self._append_ui_message(artifact)
        elif kind == "agent_end":
            self._call_artifacts.clear()
            self._on_agent_end()

    def _unstreamed_failures(self, messages: Sequence[Any]) -> list[AssistantMessage]:
        """Assistant messages of an ``agent_end`` that never had a ``message_end``: a run that failed before
        streaming (an unknown ``api``, a failing stream function) ends with only ``agent_end([failure])``.
        They are replayed as message_start/message_end so the error is shown, saved and retried like any
        other (pi shows nothing and saves nothing; deviation)."""
        return [
            m
            for m in messages
            if isinstance(m, AssistantMessage)
            and m.stop_reason in ("error", "aborted")
            and id(m) not in self._ended_in_run
        ]

    def _dequeue_text(self, text: str) -> None:
        if text in self._steering_texts:
            self._steering_texts.remove(text)
        elif text in self._follow_up_texts:
            self._follow_up_texts.remove(text)
        else:
            return
        self._emit_queue_update()

    def _emit_queue_update(self) -> None:
        self._emit(QueueUpdateEvent(steering=list(self._steering_texts), follow_up=list(self._follow_up_texts)))

    @staticmethod
    def _take_artifacts(holder: Any) -> list[ArtifactMessage]:
        """Remove ``details["artifacts"]`` from a tool result (details left empty become None)."""
        details = getattr(holder, "details", None)
        if not isinstance(details, dict) or "artifacts" not in details:
            return []
        raw = details.pop("artifacts")
        if not details:
            holder.details = None
        items = raw if isinstance(raw, list) else [raw]
        return [a for a in (_artifact_from(item) for item in items) if a is not None]

    def _strip_artifacts(self, message: Any) -> None:
        call_id = getattr(message, "tool_call_id", None)
        details = getattr(message, "details", None)
        if isinstance(details, dict) and "artifacts" in details:
            found = self._take_artifacts(message)
            if found and isinstance(call_id, str) and call_id not in self._call_artifacts:
                self._call_artifacts[call_id] = found
        elif call_id in self._call_artifacts and details == {}:
            message.details = None

    def _on_message_end(self, message: Any) -> None:
        role = message_role(message)
        try:
            if role == "custom":
                self.session_manager.append_custom_message_entry(
                    message.custom_type, message.content, message.display, message.details
                )
            elif role == "toolResult" and self._stored_results.get(message.tool_call_id):
                self._stored_results[message.tool_call_id].pop(0)  # written at its tool_execution_end
            elif role in ("user", "assistant", "toolResult", "bashExecution", "notification", "artifact"):
                self.session_manager.append_message(message)
        except OSError as exc:
            self._session_write_failed(exc)
        if role == "assistant" and isinstance(message, AssistantMessage):
            self._last_assistant = message
            if message.stop_reason != "error":
                self._overflow_attempted = False
                self._on_successful_assistant()

    def _persist_finished_result(self, event: Any) -> None:
        """Write a tool result to the session file the moment its call finishes (before anyone sees the
        ``tool_execution_end``), not when the whole batch is done: a crash while a sibling still runs must not
        lose a result the user saw finish (issue 10 class 1; pi 0.73.1 writes the batch at the end). The
        batch's later toolResult ``message_end`` then writes nothing. Parallel batches are stored in completion
        order; resuming puts them back in call order (:mod:`pi_tui.coding.session.tool_results`)."""
        result = event.result
        message = ToolResultMessage(
            tool_call_id=event.tool_call_id,
            tool_name=event.tool_name,
            content=list(result.content),
            details=result.details,
            is_error=event.is_error,
            timestamp=now_ms(),
        )
        try:
            self.session_manager.append_message(message)
        except OSError as exc:
            self._session_write_failed(exc)
            return  # not stored: the message_end tries again
        self._stored_results.setdefault(event.tool_call_id, []).append(message)

    def _on_agent_end(self) -> None:
        message = self._last_assistant
        if message is not None and self._should_retry(message):
            self._set_follow_on(self._run_retry(message))
            return
        self._resolve_retry_waiters()
        if message is not None and message.stop_reason == "error" and message.error_message:
            self.notify("error", message.error_message)
        elif message is not None and id(message) in self._ended_in_run and _is_empty_answer(message):
            self.notify("warning", EMPTY_RESPONSE)
        if message is not None or self._stop_for_compaction:
            self._set_follow_on(self._check_compaction(message, skip_aborted=True))

    def _set_follow_on(self, coro: Any) -> None:
        self._follow_on = asyncio.get_running_loop().create_task(coro)

    async def _wait_follow_on(self) -> None:
        """Wait until retries/compaction continuations started by the last run settle (chains included)."""
        while True:
            task = self._follow_on
            if task is None or task.done():
                if task is self._follow_on:
                    return
                continue
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                if task.cancelled():
                    continue
                raise
            except Exception:
                log.exception("follow-on task failed")

    # ------------------------------------------------------------------ prompting (§3.6)

    async def prompt(
        self,
        text: str,
        images: Sequence[ImageContent] | None = None,
        streaming_behavior: str | None = None,
    ) -> None:
        """Send a user message and wait for the run (and any retry/compaction continuation) to finish.

        While streaming, ``streaming_behavior`` ``"steer"`` or ``"followUp"``/``"follow_up"`` queues the
        text instead; without it raises ``RuntimeError`` (pi's wording). Raises ``RuntimeError`` with pi's
        messages when no model is selected or no key is configured.
        """
        if self.is_retrying and not self.is_streaming:
            self.abort_retry()  # a new prompt replaces the pending retry
            await self._wait_follow_on()
        if self.is_streaming:
            if streaming_behavior is None:
                raise RuntimeError(ALREADY_STREAMING)
            if streaming_behavior in ("followUp", "follow_up"):
                await self.follow_up(text, images)
            else:
                await self.steer(text, images)
            return
        self._flush_pending_bash()
        model = self.model
        if model is None:
            raise RuntimeError(NO_MODEL_MESSAGE)
        if not self.models.has_auth(model):
            raise RuntimeError(f"No API key found for {model.provider}.\n\n{LOGIN_HELP}")
        last_assistant = self._find_last_assistant_message()
        if last_assistant is not None:
            await self._check_compaction(last_assistant, skip_aborted=False)
        content: list[Any] = [TextContent(text=text), *(images or [])]
        await self.agent.prompt([UserMessage(content=content, timestamp=now_ms())])
        await self._wait_follow_on()

    def _find_last_assistant_message(self) -> AssistantMessage | None:
        """The last assistant message in the agent's state (pi's ``_findLastAssistantMessage``).

        Not the last one *streamed*: overflow recovery drops the overflowed error message from the state, and
        the pre-prompt compaction check must not see it again (it would report a failed recovery that never
        ran; pi-reference §3.9).
        """
        for message in reversed(self.agent.state.messages):
            if isinstance(message, AssistantMessage):
                return message
        return None

    async def steer(self, text: str, images: Sequence[ImageContent] | None = None) -> None:
        """Queue a steering message (delivered after the current tool batch); emits ``queue_update``."""
        self._steering_texts.append(text)
        self._emit_queue_update()
        self.agent.steer(UserMessage(content=[TextContent(text=text), *(images or [])], timestamp=now_ms()))

    async def follow_up(self, text: str, images: Sequence[ImageContent] | None = None) -> None:
        """Queue a follow-up message (delivered when the agent would stop); emits ``queue_update``."""
        self._follow_up_texts.append(text)
        self._emit_queue_update()
        self.agent.follow_up(UserMessage(content=[TextContent(text=text), *(images or [])], timestamp=now_ms()))

    def clear_queue(self) -> tuple[list[str], list[str]]:
        """Empty both queues; returns the ``(steering, follow_up)`` texts (for the editor); emits ``queue_update``."""
        steering, follow_up = list(self._steering_texts), list(self._follow_up_texts)
        self._steering_texts.clear()
        self._follow_up_texts.clear()
        self.agent.clear_all_queues()
        self._emit_queue_update()
        return steering, follow_up

    async def abort(self) -> None:
        """Cancel a retry wait or compaction, abort the run and wait until the agent is idle."""
        self.abort_retry()
        self.abort_compaction()
        self.agent.abort()
        await self.agent.wait_for_idle()

    async def wait_for_idle(self) -> None:
        """Wait for the agent and any retry/compaction continuation."""
        await self.agent.wait_for_idle()
        await self._wait_follow_on()

    # ------------------------------------------------------------------ UI-only messages

    def _append_ui_message(self, message: NotificationMessage | ArtifactMessage) -> None:
        self.agent.state.messages.append(message)
        try:
            self.session_manager.append_message(message)
        except OSError as exc:
            self._session_write_failed(exc)
        self._emit(MessageStartEvent(message=message))
        self._emit(MessageEndEvent(message=message))

    def _session_write_failed(self, exc: OSError) -> None:
        """A session-file write failed: log it and tell the user once per session (a UI-only error line),
        instead of only logging while the conversation silently stops being saved."""
        log.error("could not write the session file: %s", exc)
        if self._save_failure_reported:
            return
        self._save_failure_reported = True  # before notifying: the notification's own write fails too
        where = self.session_manager.get_session_file() or "the session file"
        self.notify(
            "error",
            f"Cannot save the session to {where}: {exc.strerror or exc}. This conversation is not being saved.",
        )

    def notify(self, level: str, text: str) -> NotificationMessage:
        """Add a UI-only notification (``info``/``warning``/``error``) to the transcript and the file."""
        message = NotificationMessage(level=level if level in ("info", "warning", "error") else "info", text=text)
        self._append_ui_message(message)
        return message

    def add_artifact(
        self, title: str, kind: str, content: str, language: str | None = None, path: str | None = None
    ) -> ArtifactMessage:
        """Add a UI-only artifact (markdown|code|diff|text|image) to the transcript and the file."""
        message = ArtifactMessage.model_validate(
            {"title": title, "kind": kind, "content": content, "language": language, "path": path}
        )
        self._append_ui_message(message)
        return message

    # ------------------------------------------------------------------ transcript helpers

    def get_last_assistant_text(self) -> str | None:
        """Text of the last assistant message with text (None when there is none)."""
        for message in reversed(self.messages):
            if message_role(message) == "assistant":
                text = "".join(b.text for b in message.content if isinstance(b, TextContent))
                if text.strip():
                    return text
                if message.stop_reason not in ("aborted", "error"):
                    return text or None
        return None

    def dispose(self) -> None:
        """Unsubscribe from the agent (the session stops processing events)."""
        self._unsubscribe_agent()

    def _model_label(self, model: Model | None) -> str:
        return f"{model.provider}/{model.id}" if model is not None else "(none)"
