"""Kept importable: the session event models live in :mod:`pi_tui.coding.agent_session.events`."""

from pi_tui.coding.agent_session.events import (
    SESSION_EVENT_TYPES,
    AutoRetryEndEvent,
    AutoRetryStartEvent,
    CompactionEndEvent,
    CompactionStartEvent,
    ModelChangedEvent,
    QueueUpdateEvent,
    SessionInfoChangedEvent,
    ThinkingLevelChangedEvent,
    event_to_json,
)

__all__ = [
    "SESSION_EVENT_TYPES",
    "AutoRetryEndEvent",
    "AutoRetryStartEvent",
    "CompactionEndEvent",
    "CompactionStartEvent",
    "ModelChangedEvent",
    "QueueUpdateEvent",
    "SessionInfoChangedEvent",
    "ThinkingLevelChangedEvent",
    "event_to_json",
]
