"""The extension seams of an AgentSession: one hook attribute per pi extension event (pi-reference §3.20).

:class:`SessionHooks` holds one optional callable per seam; every hook is None by default, and a session
without hooks behaves exactly as pi-tui did before the seams existed. Each hook is called from exactly one
place (named in its field's docstring); whoever loads extensions sets the fields (one dispatcher per event
that runs the extensions' handlers in load order and reports a failing handler without raising).

Hooks may be sync or async (their result is awaited when it is awaitable), except ``tool_call`` /
``tool_result`` / ``context``, which follow the Agent's own hook signatures (also sync or async).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pi_tui.agent import Agent
from pi_tui.agent.types import AfterToolCallHook, BeforeToolCallHook

if TYPE_CHECKING:
    from pi_tui.agent.types import AfterToolCallContext, BeforeToolCallContext
    from pi_tui.ai.abort import AbortSignal
    from pi_tui.ai.types import ImageContent, Model


@dataclass
class InputOutcome:
    """What an ``input`` hook decided: go on with ``text``/``images`` (maybe transformed), or ``handled``
    (the input was consumed; no prompt is sent). pi's ``{action: continue|transform|handled}``."""

    text: str
    images: list[ImageContent] = field(default_factory=list)
    handled: bool = False


@dataclass
class BeforeAgentStartOutcome:
    """What a ``before_agent_start`` hook adds to a run: extra messages after the user message and a system
    prompt for this run (None: the base prompt)."""

    messages: list[Any] = field(default_factory=list)
    system_prompt: str | None = None


@dataclass
class BeforeCompactOutcome:
    """What a ``session_before_compact`` hook decided: ``cancel`` the compaction, or supply its ``result``
    (a :class:`~pi_tui.coding.compaction.summarize.CompactionResult`) instead of the built-in summariser."""

    cancel: bool = False
    result: Any = None


MaybeAwaitable = Any
"""A hook's return value: the value itself or an awaitable of it."""


@dataclass
class SessionHooks:
    """The seams, one field each (None = not hooked). Call sites are in ``pi_tui/coding/agent_session/``."""

    agent_event: Callable[[Any], MaybeAwaitable] | None = None
    """``agent_event(event)``: every agent event (agent_start … message_end … agent_end), after the session's
    own bookkeeping and persistence preparation and **before** the app's listeners (pi: extension events are
    dispatched before public subscribers). Called in ``AgentEventProcessor.handle`` only."""

    input: Callable[[str, list[ImageContent]], MaybeAwaitable] | None = None
    """``input(text, images) -> InputOutcome | None`` (None: unchanged): the user's text before it becomes a
    prompt. Called first thing in ``Prompter.prompt`` (pi §3.6 step 2)."""

    expand_input: Callable[[str], str] | None = None
    """``expand_input(text) -> text``: ``/skill:name args`` and ``/template args`` expanded
    (``pi_tui/coding/resources/commands.py``), after the ``input`` hook and before the text is sent or queued
    (pi 0.73 ``prompt``/``steer``/``followUp``). Called in ``Prompter.expand`` only."""

    before_agent_start: Callable[[str, list[ImageContent], str], MaybeAwaitable] | None = None
    """``before_agent_start(text, images, system_prompt) -> BeforeAgentStartOutcome | None``, right before the
    run starts (pi §3.6 step 8). Called in ``Prompter._start_run`` only."""

    context: Callable[[list[Any]], MaybeAwaitable] | None = None
    """``context(messages) -> list | None`` (None: unchanged): the agent messages about to be converted for
    the LLM, per request. Installed as the Agent's ``transform_context`` by ``AgentSeams.transform_context``."""

    tool_call: BeforeToolCallHook | None = None
    """The Agent's ``before_tool_call`` (may block or change arguments); see ``AgentSeams.before_tool_call``."""

    tool_result: AfterToolCallHook | None = None
    """The Agent's ``after_tool_call`` (may override the result); see ``AgentSeams.after_tool_call``."""

    session_before_compact: Callable[[Any, str | None, str], MaybeAwaitable] | None = None
    """``session_before_compact(preparation, custom_instructions, reason) -> BeforeCompactOutcome | None``,
    before the summariser runs. Called in ``Compactor._summarise`` only."""

    session_compact: Callable[[Any, bool], MaybeAwaitable] | None = None
    """``session_compact(result, from_hook)`` after the compaction entry is written and the agent's messages
    rebuilt. Called in ``Compactor._summarise`` only."""

    session_before_switch: Callable[[str, str | None], MaybeAwaitable] | None = None
    """``session_before_switch(reason, target_path) -> bool`` (True cancels): before ``new``/``resume``
    replaces the session. Called in ``SessionSwitcher._before_switch`` only."""

    session_before_fork: Callable[[str, str], MaybeAwaitable] | None = None
    """``session_before_fork(entry_id, position) -> bool`` (True cancels): before a fork (position ``before``
    the user message ``entry_id``) or a clone (``at`` the leaf), as pi 0.73.1. Called in
    ``SessionSwitcher.fork`` and ``SessionSwitcher.clone`` only."""

    session_before_tree: Callable[[Any, Any], MaybeAwaitable] | None = None
    """``session_before_tree(preparation, signal) -> dict | None``: before tree navigation (always, summary
    or not); ``{"cancel": True}`` cancels, ``{"summary": {"summary", "details"?}}`` supplies the summary,
    ``customInstructions``/``replaceInstructions``/``label`` override. Called in ``TreeNavigator.navigate``."""

    session_tree: Callable[[Any], MaybeAwaitable] | None = None
    """``session_tree(event)`` after the leaf moved (a ``SessionTreeEvent``). Called in
    ``TreeNavigator.navigate`` only."""

    session_start: Callable[[str], MaybeAwaitable] | None = None
    """``session_start(reason)``: ``startup`` (``AgentSession.start``, called by the modes), ``new``,
    ``resume`` or ``fork`` (a fork or a clone; ``SessionSwitcher``, after the switch)."""

    session_shutdown: Callable[[], MaybeAwaitable] | None = None
    """``session_shutdown()``: the process is about to exit; called by ``AgentSession.shutdown`` (from
    :func:`~pi_tui.coding.agent_session.shutdown.settle_session`) once the session has settled."""

    model_select: Callable[[Model, Model | None, str], MaybeAwaitable] | None = None
    """``model_select(model, previous, source)`` (source ``set``/``cycle``/``restore``), after a switch.
    Called in ``ModelSwitcher._selected`` only."""

    thinking_level_select: Callable[[str, str], MaybeAwaitable] | None = None
    """``thinking_level_select(level, previous)`` after the level changed. Called in
    ``ModelSwitcher._level_changed`` only."""

    user_bash: Callable[[str, bool, str], MaybeAwaitable] | None = None
    """``user_bash(command, exclude_from_context, cwd) -> BashResult | None`` (a result replaces running the
    command). Called in ``UserBashRunner.execute`` only."""


async def await_hook(hook: Callable[..., Any] | None, *args: Any) -> Any:
    """``hook(*args)``, awaited when it returns an awaitable; None when ``hook`` is None."""
    if hook is None:
        return None
    result = hook(*args)
    if inspect.isawaitable(result):
        return await result
    return result


def fire_and_forget(hook: Callable[..., Any] | None, *args: Any) -> Awaitable[Any] | None:
    """For notification hooks called from sync code: ``hook(*args)``; an awaitable result is scheduled on
    the running loop (never awaited by the caller). Returns that awaitable (tests may await it)."""
    if hook is None:
        return None
    result = hook(*args)
    if inspect.isawaitable(result):
        import asyncio

        return asyncio.ensure_future(result)
    return None



class AgentSeams:
    """The seams that live on the Agent itself: ``context`` (``transform_context``), ``tool_call``
    (``before_tool_call``) and ``tool_result`` (``after_tool_call``). Each dispatcher reads ``hooks`` per call,
    so hooks set later take effect; unhooked, it returns at once without awaiting (no behaviour change)."""

    def __init__(self, hooks: SessionHooks) -> None:
        self._hooks = hooks

    def install(self, agent: Agent) -> None:
        """Make the three dispatchers the Agent's hooks."""
        agent.transform_context = self.transform_context
        agent.before_tool_call = self.before_tool_call
        agent.after_tool_call = self.after_tool_call

    def transform_context(self, messages: list[Any], signal: AbortSignal | None) -> Any:
        """Seam ``context``: the messages about to be converted for the LLM (a returned list replaces them)."""
        hook = self._hooks.context
        if hook is None:
            return messages
        result = hook(messages)
        if inspect.isawaitable(result):
            return _settled(result, messages)
        return messages if result is None else list(result)

    def before_tool_call(self, ctx: BeforeToolCallContext, signal: AbortSignal | None) -> Any:
        """Seam ``tool_call``: may block the call or change its arguments."""
        hook = self._hooks.tool_call
        return None if hook is None else hook(ctx, signal)

    def after_tool_call(self, ctx: AfterToolCallContext, signal: AbortSignal | None) -> Any:
        """Seam ``tool_result``: may override the result's content, details or error flag."""
        hook = self._hooks.tool_result
        return None if hook is None else hook(ctx, signal)


async def _settled(result: Awaitable[Any], original: list[Any]) -> list[Any]:
    value = await result
    return original if value is None else list(value)
