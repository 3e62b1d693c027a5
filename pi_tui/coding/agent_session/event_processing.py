"""``AgentEventProcessor``: what the session does with each Agent event, in order (pi-reference §3.5).

The Agent awaits :meth:`AgentEventProcessor.handle` for every event, so processing is strictly ordered and
persistence precedes the tool hooks without an extra queue. For each event:

1. ``agent_start``: a new stop mark (a stop during this run ends its post-run work, ``stop_fence``);
2. ``agent_end``: failures the provider never streamed are played as message_start/end first;
3. user ``message_start``: overflow recovery resets and the delivered queue entry is removed (``queue_update``
   before subscribers see the message);
4. the recorder's pre-listener step, the ``agent_event`` hook (extensions), then every subscriber;
5. ``message_end``: persisted by the recorder, artifacts split out; a successful assistant ends a retry cycle;
6. ``agent_end``: retry (§3.10) or the compaction check (§3.9) runs as a follow-on task that ``prompt`` awaits;
   an error reply is notified, an empty answer warned about.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_tui.agent import MessageEndEvent, MessageStartEvent
from pi_tui.ai.types import AssistantMessage
from pi_tui.coding.agent_session.compaction import Compactor
from pi_tui.coding.agent_session.follow_on import FollowOn
from pi_tui.coding.agent_session.hooks import SessionHooks, await_hook
from pi_tui.coding.agent_session.queues import PromptQueues
from pi_tui.coding.agent_session.recorder import TranscriptRecorder
from pi_tui.coding.agent_session.retry import RetryController
from pi_tui.coding.agent_session.stop_fence import StopFence
from pi_tui.coding.agent_session.wiring import EMPTY_RESPONSE, is_empty_answer
from pi_tui.coding.messages import message_role, message_text


class AgentEventProcessor:
    """Applies Agent events to the session's parts (module docstring), each given at construction.

    ``emit`` sends an event to the session's subscribers; ``notify(level, text)`` adds a UI-only notification.
    ``last_assistant`` is the newest assistant message seen (or the resumed transcript's last one).
    """

    def __init__(
        self, *, fence: StopFence, recorder: TranscriptRecorder, compactor: Compactor, retry: RetryController,
        queues: PromptQueues, follow_on: FollowOn, hooks: SessionHooks, emit: Callable[[Any], None],
        notify: Callable[[str, str], Any], last_assistant: AssistantMessage | None = None,
    ) -> None:
        self._fence = fence
        self._recorder = recorder
        self._compactor = compactor
        self._retry = retry
        self._queues = queues
        self._follow_on = follow_on
        self._hooks = hooks
        self._emit = emit
        self._notify = notify
        self.last_assistant = last_assistant
        self._run_mark = fence.mark()

    async def handle(self, event: Any) -> None:
        """Process one Agent event (the Agent's listener; awaited per event, in order)."""
        kind = event.type
        if kind == "agent_start":
            self._run_mark = self._fence.mark()
        if kind == "agent_end":
            for failure in self._recorder.unstreamed_failures(event.messages):
                await self.handle(MessageStartEvent(message=failure))
                await self.handle(MessageEndEvent(message=failure))
        if kind == "message_start" and message_role(event.message) == "user":
            self._compactor.reset_overflow()
            self._queues.delivered(message_text(event.message))
        self._recorder.before_listeners(event)
        await await_hook(self._hooks.agent_event, event)  # seam: extension handlers before the listeners
        self._emit(event)
        if kind == "message_end":
            self._message_ended(event.message)
            self._recorder.add_artifacts_of(event.message)
        elif kind == "agent_end":
            self._recorder.run_ended()
            self._run_ended()

    def _message_ended(self, message: Any) -> None:
        self._recorder.message_ended(message)
        if message_role(message) == "assistant" and isinstance(message, AssistantMessage):
            self.last_assistant = message
            if message.stop_reason != "error":
                self._compactor.reset_overflow()
                self._retry.on_successful_assistant()

    def _run_ended(self) -> None:
        message = self.last_assistant
        mark = self._run_mark
        if message is not None and self._retry.should_retry(message):
            self._follow_on.start(self._retry.run(message, mark))
            return
        if message is not None and message.stop_reason == "error" and message.error_message:
            self._notify("error", message.error_message)
        elif message is not None and self._recorder.ended_in_run(message) and is_empty_answer(message):
            self._notify("warning", EMPTY_RESPONSE)
        if message is not None or self._compactor.stop_requested:
            self._follow_on.start(self._compactor.check(message, True, mark))
