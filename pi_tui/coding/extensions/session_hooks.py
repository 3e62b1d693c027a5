""":class:`SessionExtensions`: the extension side of an ``AgentSession``. :meth:`SessionExtensions.install`
fills the session's seams (``session.hooks``, ``pi_tui.coding.agent_session.hooks.SessionHooks``) with
dispatchers, so each pi event reaches the extensions first (load order), then the app's listeners, with
pi's payloads (pi-reference §3.20; pi docs/extensions.md "Lifecycle Overview"):

* ``agent_event``: every agent event; ``turn_start`` gets ``turn_index``/``timestamp``; a ``message_end``
  handler may replace the message (same role), which is then what is saved and shown;
* ``input``: an extension command (``/name args``) runs first (pi's ``_tryExecuteExtensionCommand``), then
  ``input`` handlers may transform or handle the text; the source (``interactive``/``rpc``/``extension``)
  comes from :func:`prompt_source`;
* ``before_agent_start``: ``next_turn`` messages, then handlers' messages and this run's system prompt;
* ``context``, ``tool_call``, ``tool_result``: the Agent's hooks;
* ``session_before_switch``/``_fork``/``_compact`` (cancel, or an extension's own compaction summary),
  ``session_compact``, ``session_start`` (``startup`` loads the extensions first), ``session_shutdown``,
  ``model_select``, ``thinking_level_select``, ``user_bash`` (a result replaces running the command).

With no extension listening to an event, each seam costs one dictionary lookup.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import copy
import inspect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from pi_tui.agent.types import (
    AfterToolCallContext,
    AfterToolCallResult,
    BeforeToolCallContext,
    BeforeToolCallResult,
)
from pi_tui.coding.extensions.binding import SessionHost
from pi_tui.coding.extensions.events import (
    BeforeAgentStartEvent,
    InputEvent,
    ModelSelectEvent,
    SessionBeforeCompactEvent,
    SessionBeforeForkEvent,
    SessionBeforeSwitchEvent,
    SessionCompactEvent,
    ThinkingLevelSelectEvent,
    ToolCallEvent,
    ToolResultEvent,
    TurnStartEvent,
    UserBashEvent,
)
from pi_tui.coding.extensions.runner import monotonic_ms
from pi_tui.coding.extensions.runtime import ExtensionRuntime
from pi_tui.coding.extensions.tool_input import apply_input, input_view
from pi_tui.coding.extensions.tree_hooks import install_tree_hooks

_SOURCE: contextvars.ContextVar[tuple[str, bool]] = contextvars.ContextVar("pi_tui_prompt_source",
                                                                          default=("interactive", True))


@contextlib.contextmanager
def prompt_source(source: str, *, expand: bool = True) -> Iterator[None]:
    """Within this block prompts come from ``source`` (``interactive``, ``rpc``, ``extension``: pi's
    ``input`` event ``source``); ``expand=False`` skips extension commands (pi's ``sendUserMessage``)."""
    token = _SOURCE.set((source, expand))
    try:
        yield
    finally:
        _SOURCE.reset(token)


@dataclass
class PreparedPrompt:
    """What :meth:`SessionExtensions.handle_input` / :meth:`~SessionExtensions.prepare_run` decided:
    ``handled`` (nothing more to do), else the ``text``/``images`` to send, ``extra`` messages to send after
    the user message and this run's ``system_prompt`` (None: the base prompt)."""

    handled: bool
    text: str = ""
    images: list[Any] = field(default_factory=list)
    extra: list[Any] = field(default_factory=list)
    system_prompt: str | None = None


class SessionExtensions:
    """The extension side of one session (module docstring). ``runtime``: its :class:`ExtensionRuntime`;
    ``host``: the :class:`SessionHost` the runtime uses."""

    def __init__(self, runtime: ExtensionRuntime, host: SessionHost) -> None:
        self.runtime = runtime
        self.host = host
        self.runner = runtime.runner
        self.started = False
        self.shut_down = False
        self.last_switch_cancelled = False
        self._turn_index = 0

    # ------------------------------------------------------------------ installation

    def install(self, session: Any) -> None:
        """Fill ``session.hooks`` (module docstring)."""
        from pi_tui.coding.agent_session.hooks import (
            BeforeAgentStartOutcome,
            BeforeCompactOutcome,
            InputOutcome,
        )

        hooks = session.hooks
        runner = self.runner

        async def on_input(text: str, images: list[Any]) -> Any:
            source, expand = _SOURCE.get()
            prepared = await self.handle_input(text, images, source=source, expand=expand)
            if prepared.handled:
                return InputOutcome(text=text, images=list(images), handled=True)
            return InputOutcome(text=prepared.text, images=prepared.images)

        async def before_agent_start(text: str, images: list[Any], system_prompt: str) -> Any:
            prepared = await self.prepare_run(text, images, system_prompt)
            if not prepared.extra and prepared.system_prompt is None:
                return None
            return BeforeAgentStartOutcome(messages=prepared.extra, system_prompt=prepared.system_prompt)

        async def before_compact(preparation: Any, custom_instructions: str | None, reason: str) -> Any:
            if not runner.has_handlers("session_before_compact"):
                return None
            event = SessionBeforeCompactEvent(preparation, list(self.host.session_manager.get_branch()),
                                              custom_instructions, None)
            cancelled, compaction = await runner.emit_cancellable("session_before_compact", event)
            if cancelled:
                return BeforeCompactOutcome(cancel=True)
            result = _compaction_result(compaction, preparation)
            return BeforeCompactOutcome(result=result) if result is not None else None

        hooks.agent_event = self.on_agent_event
        from pi_tui.coding.extensions.provider_hooks import install_provider_hooks

        install_provider_hooks(session.agent, runner)
        hooks.input = on_input
        hooks.before_agent_start = before_agent_start
        hooks.context = self.context
        hooks.tool_call = self.before_tool_call
        hooks.tool_result = self.after_tool_call
        hooks.session_before_compact = before_compact
        hooks.session_compact = self.session_compact
        hooks.session_before_switch = self.before_switch
        hooks.session_before_fork = self.before_fork
        hooks.session_start = self.session_start
        hooks.session_shutdown = self.session_shutdown
        hooks.model_select = self.model_selected
        hooks.thinking_level_select = self.thinking_selected
        hooks.user_bash = self.user_bash
        install_tree_hooks(hooks, runner)  # session_before_tree / session_tree (tree_hooks.py)

    # ------------------------------------------------------------------ agent seams

    async def context(self, messages: list[Any]) -> list[Any] | None:
        """``context``: the rewritten messages, or None (unchanged)."""
        return await self.runner.emit_context(messages)

    async def before_tool_call(self, ctx: BeforeToolCallContext, signal: Any = None) -> BeforeToolCallResult | None:
        """``tool_call``: ``event.input`` is the validated arguments as a dict (``tool_input``); what handlers
        change in it is what the tool runs with."""
        if not self.runner.has_handlers("tool_call"):
            return None
        view = input_view(ctx.args)
        event = ToolCallEvent(tool_name=ctx.tool_call.name, tool_call_id=ctx.tool_call.id, input=view)
        blocked, reason = await self.runner.emit_tool_call(event)
        if blocked:
            return BeforeToolCallResult(block=True, reason=reason)
        invalid = apply_input(ctx.args, view, event.input)
        return BeforeToolCallResult(block=True, reason=f"Blocked: {invalid}") if invalid else None

    async def after_tool_call(self, ctx: AfterToolCallContext, signal: Any = None) -> AfterToolCallResult | None:
        """``tool_result``: the chained patch, or None when nothing changed."""
        if not self.runner.has_handlers("tool_result"):
            return None
        result = ctx.result
        event = ToolResultEvent(
            tool_name=ctx.tool_call.name, tool_call_id=ctx.tool_call.id,
            input=input_view(ctx.args) if isinstance(ctx.args, dict | BaseModel) else getattr(ctx.args, "__dict__", {}),
            content=list(result.content), details=copy.deepcopy(result.details), is_error=ctx.is_error,
        )
        before = (list(event.content), event.details, event.is_error)
        out = await self.runner.emit_tool_result(event)
        if (out.content, out.details, out.is_error) == before:
            return None
        return AfterToolCallResult(content=out.content, details=out.details, is_error=out.is_error)

    def on_agent_event(self, event: Any) -> Any:
        """Dispatch an agent event to extensions: returns the awaitable dispatch, or None at once when no
        extension listens (the hot path of every streamed token; ``message_end``: a replacement message is
        put in place)."""
        kind = event.type
        if kind == "agent_start":
            self._turn_index = 0
            self.host.run_ending = False
        elif kind == "agent_end":
            self.host.run_ending = True
        elif kind == "turn_start":
            index = self._turn_index
            self._turn_index += 1
            if self.runner.has_handlers("turn_start"):
                return self.runner.dispatch("turn_start", TurnStartEvent(turn_index=index, timestamp=monotonic_ms()))
            return None
        if not self.runner.has_handlers(kind):
            return None
        if kind == "message_end":
            return self._message_end(event)
        return self.runner.dispatch(kind, event)

    async def _message_end(self, event: Any) -> None:
        replacement = await self.runner.emit_message_end(event)
        if replacement is not None:
            self._replace_message(event, replacement)

    def _replace_message(self, event: Any, replacement: Any) -> None:
        messages = self.host.session.agent.state.messages
        for index, message in enumerate(messages):
            if message is event.message:
                messages[index] = replacement
                break
        event.message = replacement

    # ------------------------------------------------------------------ prompts

    async def run_extension_command(self, text: str) -> bool:
        """``/name args`` of an extension command: run it (even while streaming, as pi); True when it was one."""
        if not text.startswith("/"):
            return False
        name, _, args = text[1:].partition(" ")
        spec = self.runtime.commands.get(name)
        if spec is None or spec.source != "extension":
            return False
        outcome = spec.handler(args.strip(), None)
        if inspect.isawaitable(outcome):
            await outcome
        return True

    async def handle_input(self, text: str, images: Sequence[Any], *, source: str, expand: bool) -> PreparedPrompt:
        """The start of pi's ``prompt``: an extension command (``expand`` only), then ``input`` handlers."""
        self.runner.new_prompt()
        if expand and await self.run_extension_command(text):
            return PreparedPrompt(handled=True)
        action, event = await self.runner.emit_input(InputEvent(text=text, images=list(images), source=source))
        if action == "handled":
            return PreparedPrompt(handled=True)
        return PreparedPrompt(handled=False, text=event.text, images=list(event.images))

    async def prepare_run(self, text: str, images: Sequence[Any], base_system_prompt: str) -> PreparedPrompt:
        """Before the run: ``next_turn`` messages, then ``before_agent_start`` (messages after the user
        message; the system prompt for this run, None for the base)."""
        prepared = PreparedPrompt(handled=False, text=text, images=list(images))
        prepared.extra = self.host.take_next_turn_messages()
        if not self.runner.has_handlers("before_agent_start"):
            return prepared
        start = BeforeAgentStartEvent(prompt=text, images=list(images), system_prompt=base_system_prompt)
        self.runtime.current_system_prompt = base_system_prompt
        try:
            added, system_prompt = await self.runner.emit_before_agent_start(start)
        finally:
            self.runtime.current_system_prompt = None
        from pi_tui.coding.extensions.api import _custom_message

        for extension, message in added:
            try:
                prepared.extra.append(_custom_message(message))
            except ValueError as exc:
                self.runner.fail(extension, "before_agent_start", exc)
        prepared.system_prompt = system_prompt
        return prepared

    # ------------------------------------------------------------------ session events

    async def session_start(self, reason: str = "startup") -> None:
        """``startup``: load the extensions, then ``session_start``/``resources_discover``; after a switch
        (new/resume/fork/clone): ``session_shutdown`` then ``session_start`` (pi re-binds extensions there)."""
        if reason == "startup":
            if self.started:
                return
            self.started = True
            from pi_tui.coding.extensions.setup import load_extensions

            await load_extensions(self)
            from pi_tui.coding.agent_session.pending_model import resolve_pending_model

            resolve_pending_model(getattr(self.host, "session", None))  # a --model of an extension's provider (pi: flushed first)
            await self.runtime.start("startup")
            return
        await self.runtime.shutdown(reason)
        await self.runtime.start(reason, self.host.previous_session_file)

    async def session_shutdown(self) -> None:
        """``session_shutdown`` (quit); once, however many exit paths call it."""
        if self.shut_down:
            return
        self.shut_down = True
        await self.runtime.shutdown("quit")

    async def before_switch(self, reason: str, target_session_file: str | None = None) -> bool:
        """``session_before_switch``; True when an extension cancelled."""
        cancelled, _ = await self.runner.emit_cancellable(
            "session_before_switch", SessionBeforeSwitchEvent(reason, target_session_file))
        self.last_switch_cancelled = cancelled
        if not cancelled:
            self.host.previous_session_file = self.host.session.session_file
        return cancelled

    async def before_fork(self, entry_id: str | None, position: str = "before") -> bool:
        """``session_before_fork``; True when cancelled."""
        cancelled, _ = await self.runner.emit_cancellable(
            "session_before_fork", SessionBeforeForkEvent(entry_id, position))
        if not cancelled:
            self.host.previous_session_file = self.host.session.session_file
        return cancelled

    async def session_compact(self, result: Any, from_extension: bool) -> None:
        """``session_compact``."""
        await self.runner.emit("session_compact", SessionCompactEvent(result, from_extension))

    def model_selected(self, model: Any, previous: Any, source: str) -> Any:
        """``model_select`` (called from sync code: returns the dispatch to schedule, or None when no
        extension listens or no event loop runs yet)."""
        if not self.runner.has_handlers("model_select") or not _loop_running():
            return None
        return self.runner.emit("model_select", ModelSelectEvent(model, previous, source))

    def thinking_selected(self, level: str, previous: str | None) -> Any:
        """``thinking_level_select`` (as :meth:`model_selected`)."""
        if not self.runner.has_handlers("thinking_level_select") or not _loop_running():
            return None
        return self.runner.emit("thinking_level_select", ThinkingLevelSelectEvent(level, previous))

    async def user_bash(self, command: str, exclude_from_context: bool, cwd: str = "") -> Any:
        """``user_bash``: a ``BashResult`` that replaces running the command, or None."""
        if not self.runner.has_handlers("user_bash"):
            return None
        value = await self.runner.emit_user_bash(UserBashEvent(command, exclude_from_context, cwd or self.host.cwd))
        if value is None:
            return None
        from pi_tui.coding.user_bash import BashResult

        exit_code = value.get("exit_code", value.get("exitCode", 0))
        return BashResult(output=str(value.get("output", "")),
                          exit_code=exit_code if isinstance(exit_code, int) else None,
                          cancelled=bool(value.get("cancelled", False)), truncated=bool(value.get("truncated", False)))


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _compaction_result(compaction: Any, preparation: Any) -> Any:
    """An extension's ``{"summary", "first_kept_entry_id"?, "tokens_before"?, "details"?}`` as a
    ``CompactionResult`` (missing ids and counts from ``preparation``); None when there is no summary."""
    if not isinstance(compaction, dict) or not isinstance(compaction.get("summary"), str):
        return None
    from pi_tui.coding.compaction.summarize import CompactionResult

    first = compaction.get("first_kept_entry_id", compaction.get("firstKeptEntryId"))
    tokens = compaction.get("tokens_before", compaction.get("tokensBefore"))
    details = compaction.get("details")
    return CompactionResult(
        summary=compaction["summary"],
        first_kept_entry_id=str(first or preparation.first_kept_entry_id),
        tokens_before=int(tokens if isinstance(tokens, int) else preparation.tokens_before),
        details=details if isinstance(details, dict) else {},
    )
