"""AgentSessionEvent: the agent events plus the session's own events (pi-reference §3.5).

Each event is a pydantic model whose ``to_json_dict()`` is pi's JSON line (``followUp``, ``maxAttempts``,
``delayMs``, ``errorMessage``, ``finalError``, ``willRetry``). pi-tui adds ``model_changed``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from pi_tui.ai.types import PiModel


class QueueUpdateEvent(PiModel):
    """Full snapshot of the texts waiting in the steering and follow-up queues."""

    type: Literal["queue_update"] = "queue_update"
    steering: list[str] = Field(default_factory=list)
    follow_up: list[str] = Field(default_factory=list)


class CompactionStartEvent(PiModel):
    """A compaction begins; ``reason`` is manual, threshold or overflow."""

    type: Literal["compaction_start"] = "compaction_start"
    reason: Literal["manual", "threshold", "overflow"]


class CompactionEndEvent(PiModel):
    """A compaction ended: ``result`` ({summary, firstKeptEntryId, tokensBefore, details}) when it succeeded."""

    type: Literal["compaction_end"] = "compaction_end"
    reason: Literal["manual", "threshold", "overflow"]
    result: dict[str, Any] | None = None
    aborted: bool = False
    will_retry: bool = False
    error_message: str | None = None


class AutoRetryStartEvent(PiModel):
    """A retry of a transient provider failure is scheduled after ``delay_ms``."""

    type: Literal["auto_retry_start"] = "auto_retry_start"
    attempt: int
    max_attempts: int
    delay_ms: int
    error_message: str


class AutoRetryEndEvent(PiModel):
    """The retry cycle ended (``success``), with the final error when it gave up."""

    type: Literal["auto_retry_end"] = "auto_retry_end"
    success: bool
    attempt: int
    final_error: str | None = None


class SummarizationRetryScheduledEvent(PiModel):
    """A compaction or branch-summary request failed transiently; retry ``attempt`` of ``max_attempts`` starts
    after ``delay_ms`` (pi 0.81.1; pi 1.x ``docs/json.md``)."""

    type: Literal["summarization_retry_scheduled"] = "summarization_retry_scheduled"
    attempt: int
    max_attempts: int
    delay_ms: int
    error_message: str


class SummarizationRetryAttemptStartEvent(PiModel):
    """The retried summary request starts: ``source`` compaction (with its ``reason``) or branchSummary."""

    type: Literal["summarization_retry_attempt_start"] = "summarization_retry_attempt_start"
    source: Literal["compaction", "branchSummary"]
    reason: Literal["manual", "threshold", "overflow"] | None = None


class SummarizationRetryFinishedEvent(PiModel):
    """The summary request's retry cycle ended (its outcome arrives as ``compaction_end`` or the summary)."""

    type: Literal["summarization_retry_finished"] = "summarization_retry_finished"


class SessionInfoChangedEvent(PiModel):
    """The session name changed."""

    type: Literal["session_info_changed"] = "session_info_changed"
    name: str | None = None


class ThinkingLevelChangedEvent(PiModel):
    """The thinking level changed."""

    type: Literal["thinking_level_changed"] = "thinking_level_changed"
    level: str


class ModelChangedEvent(PiModel):
    """pi-tui: the active model changed (``provider``, ``model_id``, and the reason ``set``/``cycle``/``restore``)."""

    model_config = PiModel.model_config | {"protected_namespaces": ()}

    type: Literal["model_changed"] = "model_changed"
    provider: str
    model_id: str
    reason: str = "set"


SESSION_EVENT_TYPES = frozenset(
    {
        "queue_update",
        "compaction_start",
        "compaction_end",
        "auto_retry_start",
        "auto_retry_end",
        "summarization_retry_scheduled",
        "summarization_retry_attempt_start",
        "summarization_retry_finished",
        "session_info_changed",
        "thinking_level_changed",
        "model_changed",
        "session_tree",  # agent_session/tree_navigation.py
        "branch_summary_start",
        "branch_summary_end",
    }
)


def event_to_json(event: Any) -> dict[str, Any]:
    """pi's JSON form of any session or agent event (camelCase, ``None`` fields omitted)."""
    if isinstance(event, dict):
        return event
    if isinstance(event, PiModel):
        return event.model_dump(mode="json", by_alias=True, exclude_none=True)
    raise TypeError(f"not an event: {event!r}")
