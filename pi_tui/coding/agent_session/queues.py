"""The steering and follow-up queues as the user sees them (pi-reference §3.6): texts for the UI list, the
messages themselves on the Agent, and a ``queue_update`` snapshot after every change."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pi_tui.agent import Agent
from pi_tui.ai.types import TextContent, UserContent, UserMessage, now_ms
from pi_tui.coding.agent_session.events import QueueUpdateEvent


class PromptQueues:
    """``agent``: holds the queued messages; ``emit(event)``: the session's fan-out (``queue_update``)."""

    def __init__(self, *, agent: Agent, emit: Callable[[Any], None]) -> None:
        self._agent = agent
        self._emit = emit
        self._steering: list[str] = []
        self._follow_up: list[str] = []

    @property
    def steering(self) -> list[str]:
        """Texts of queued steering messages (a copy)."""
        return list(self._steering)

    @property
    def follow_up_texts(self) -> list[str]:
        """Texts of queued follow-up messages (a copy)."""
        return list(self._follow_up)

    def __len__(self) -> int:
        return len(self._steering) + len(self._follow_up)

    def _changed(self) -> None:
        self._emit(QueueUpdateEvent(steering=list(self._steering), follow_up=list(self._follow_up)))

    def delivered(self, text: str) -> None:
        """A user message with ``text`` started: the first queued steering (else follow-up) text equal to it
        leaves the list (§3.5 step 1)."""
        if text in self._steering:
            self._steering.remove(text)
        elif text in self._follow_up:
            self._follow_up.remove(text)
        else:
            return
        self._changed()

    def steer(self, text: str, images: Sequence[UserContent] | None = None) -> None:
        """Queue a steering message (delivered after the current tool batch)."""
        self._steering.append(text)
        self._changed()
        self._agent.steer(UserMessage(content=[TextContent(text=text), *(images or [])], timestamp=now_ms()))

    def follow_up(self, text: str, images: Sequence[UserContent] | None = None) -> None:
        """Queue a follow-up message (delivered when the agent would stop)."""
        self._follow_up.append(text)
        self._changed()
        self._agent.follow_up(UserMessage(content=[TextContent(text=text), *(images or [])], timestamp=now_ms()))

    def clear(self) -> tuple[list[str], list[str]]:
        """Empty both queues; returns the ``(steering, follow_up)`` texts."""
        steering, follow_up = list(self._steering), list(self._follow_up)
        self._steering.clear()
        self._follow_up.clear()
        self._agent.clear_all_queues()
        self._changed()
        return steering, follow_up
