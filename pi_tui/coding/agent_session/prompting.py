"""``AgentSession.prompt`` (pi-reference §3.6): from the user's text to a finished run."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from pi_tui.agent import Agent
from pi_tui.ai.types import (
    AssistantMessage,
    ImageContent,
    Model,
    TextContent,
    UserContent,
    UserMessage,
    now_ms,
)
from pi_tui.coding.agent_session.attachments import PromptAttachers
from pi_tui.coding.agent_session.follow_on import FollowOn
from pi_tui.coding.agent_session.hooks import BeforeAgentStartOutcome, InputOutcome, SessionHooks, await_hook
from pi_tui.coding.agent_session.queues import PromptQueues
from pi_tui.coding.agent_session.settings import ModelAccess, login_help, no_model_message
from pi_tui.coding.agent_session.stop_fence import StopMark
from pi_tui.coding.agent_session.unstarted import UnstartedPrompts
from pi_tui.coding.agent_session.wiring import ALREADY_STREAMING


class Prompter:
    """Runs prompts for one session.

    ``agent``: runs them; ``models``: auth check; ``hooks``: the ``input``/``before_agent_start`` seams;
    ``model()``: the active model; ``is_retrying()`` / ``abort_retry()``: a pending retry is replaced by a new
    prompt; ``follow_on``: retries/compactions a run leaves behind (awaited); ``queues``: where text goes while
    streaming; ``flush_pending_bash()``: records deferred ``!cmd`` results; ``check_compaction(message,
    skip_aborted)``: the pre-prompt compaction check.
    """

    def __init__(
        self,
        *,
        agent: Agent,
        models: ModelAccess,
        hooks: SessionHooks,
        model: Callable[[], Model | None],
        is_retrying: Callable[[], bool],
        abort_retry: Callable[[], None],
        follow_on: FollowOn,
        queues: PromptQueues,
        flush_pending_bash: Callable[[], None],
        check_compaction: Callable[[AssistantMessage | None, bool], Awaitable[None]],
        stop_mark: Callable[[], StopMark] | None = None,
    ) -> None:
        self._stop_mark = stop_mark
        self._agent = agent
        self._models = models
        self._hooks = hooks
        self._model = model
        self._is_retrying = is_retrying
        self._abort_retry = abort_retry
        self._follow_on = follow_on
        self._queues = queues
        self._flush_pending_bash = flush_pending_bash
        self._check_compaction = check_compaction
        self.attachers = PromptAttachers()
        """Content blocks added to a user message for what its text mentions (``@server:uri`` MCP resources)."""
        self.unstarted = UnstartedPrompts()
        """The prompts whose run has not started yet (a quit keeps them unsent: ``unstarted.py``)."""

    async def prompt(
        self,
        text: str,
        images: Sequence[ImageContent] | None = None,
        streaming_behavior: str | None = None,
    ) -> None:
        """Send a user message and wait for the run (and any retry/compaction continuation) to finish.

        While streaming, ``streaming_behavior`` ``"steer"`` or ``"followUp"``/``"follow_up"`` queues the
        text instead; without it raises ``RuntimeError`` (pi's wording). Raises ``RuntimeError`` with pi's
        messages when no model is selected or no key is configured. A stop requested (``AgentSession.abort``)
        after this call began and before its run started makes the run start and end aborted at once (the user
        message is kept, nothing is streamed, ``agent_end`` comes): new-user run #36, RPC prompt + abort.
        """
        mark = self._stop_mark() if self._stop_mark is not None else None
        token = self.unstarted.begin(text)
        try:
            ran = await self._prompt(text, images, streaming_behavior, mark, token)
        finally:
            self.unstarted.end(token)
        if ran:
            await self._follow_on.wait()

    async def _prompt(self, text: str, images: Sequence[ImageContent] | None, streaming_behavior: str | None,
                      mark: StopMark | None, token: int) -> bool:
        """:meth:`prompt` up to the end of its run; False when no run was started (handled by a hook, queued).
        A prompt taken from :attr:`unstarted` while it waited (a quit, Escape) ends without a run."""
        if self._hooks.input is not None:  # seam: input (may transform or consume the user's text)
            outcome = await await_hook(self._hooks.input, text, list(images or []))
            if isinstance(outcome, InputOutcome):
                if outcome.handled:
                    return False
                text, images = outcome.text, outcome.images
        text = self.expand(text)
        extra = await self.attachers.blocks(text)
        if self._is_retrying() and not self._agent.state.is_streaming:
            self._abort_retry()  # a new prompt replaces the pending retry
            await self._follow_on.wait()
        if self.unstarted.dropped(token):
            return False
        if self._agent.state.is_streaming:
            if streaming_behavior is None:
                raise RuntimeError(ALREADY_STREAMING)
            if streaming_behavior in ("followUp", "follow_up"):
                self._queues.follow_up(text, [*(images or []), *extra])
            else:
                self._queues.steer(text, [*(images or []), *extra])
            return False
        self._flush_pending_bash()
        model = self._model()
        if model is None:
            raise RuntimeError(self._no_model_message())
        if not self._models.has_auth(model):
            raise RuntimeError(f"No API key found for {model.provider}.\n\n{login_help()}")
        last_assistant = self._find_last_assistant_message()
        if last_assistant is not None:
            await self._check_compaction(last_assistant, False)

        def starting() -> bool:  # the run starts now unless the prompt was taken back
            if self.unstarted.dropped(token):
                return False
            self.unstarted.end(token)
            return True

        await self._start_run(text, list(images or []), extra, stopped=lambda: mark is not None and mark.stopped,
                              wanted=starting)
        return True

    def _no_model_message(self) -> str:
        """pi's "No model selected", with the configuration errors that left no model and, when /model offers
        the built-in offline demo model, that it is there to go on with (issue 9)."""
        from pi_tui.coding.offline_model import is_offline_model

        problems = [str(e) for e in getattr(self._models, "errors", None) or []]
        offered = any(is_offline_model(m) for m in self._models.available_models())
        return no_model_message(problems, offline_offered=offered)

    def expand(self, text: str) -> str:
        """Seam ``expand_input``: skills and prompt templates expanded (``text`` itself when not hooked)."""
        return self._hooks.expand_input(text) if self._hooks.expand_input is not None else text

    async def _start_run(self, text: str, images: list[ImageContent], extra: Sequence[UserContent] = (),
                         stopped: Callable[[], bool] = lambda: False,
                         wanted: Callable[[], bool] = lambda: True) -> None:
        """Seam ``before_agent_start``, then the run: the user message (plus any hook messages), with the
        hook's system prompt for this run only. ``extra``: the attachers' blocks, after the images;
        ``stopped()``: a stop was requested since the prompt began (:meth:`_run_agent`); ``wanted()`` False:
        the prompt was taken back meanwhile (:attr:`unstarted`), no run starts."""
        messages: list[Any] = [UserMessage(content=[TextContent(text=text), *images, *extra], timestamp=now_ms())]
        base_prompt = self._agent.state.system_prompt
        outcome = await await_hook(self._hooks.before_agent_start, text, images, base_prompt)
        if not isinstance(outcome, BeforeAgentStartOutcome):
            await self._run_agent(messages, stopped, wanted)
            return
        messages.extend(outcome.messages)
        if outcome.system_prompt is not None:
            self._agent.state.system_prompt = outcome.system_prompt
        try:
            await self._run_agent(messages, stopped, wanted)
        finally:
            self._agent.state.system_prompt = base_prompt

    async def _run_agent(self, messages: list[Any], stopped: Callable[[], bool],
                         wanted: Callable[[], bool] = lambda: True) -> None:
        """``agent.prompt(messages)``; when ``stopped()`` already, the run is aborted as soon as it exists (the
        agent's abort is a no-op before that), so it records the message and ends aborted without streaming.
        A prompt that failed at once (the agent busy with another run) aborts nothing: that run is not ours.
        Nothing runs when the prompt is no longer ``wanted()`` (taken back while it waited)."""
        if not wanted():
            return
        if not stopped():
            await self._agent.prompt(messages)
            return
        run = asyncio.ensure_future(self._agent.prompt(messages))
        await asyncio.sleep(0)  # one step of the task: Agent._run makes the run active before its first await
        if not run.done():
            self._agent.abort()
        await run

    def _find_last_assistant_message(self) -> AssistantMessage | None:
        """The last assistant message in the agent's state (pi's ``_findLastAssistantMessage``).

        Not the last one *streamed*: overflow recovery drops the overflowed error message from the state, and
        the pre-prompt compaction check must not see it again (it would report a failed recovery that never
        ran; pi-reference §3.9).
        """
        for message in reversed(self._agent.state.messages):
            if isinstance(message, AssistantMessage):
                return message
        return None
