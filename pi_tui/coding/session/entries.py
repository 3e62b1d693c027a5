"""Session file records: the header and every entry type of pi's v3 JSONL (pi-reference §3.4).

Each record is a pydantic model whose JSON form is pi's camelCase object; unknown fields are kept
(``extra="allow"``) and an entry ``type`` this version does not know loads as :class:`UnknownEntry`, so a
file written by a newer pi round-trips without loss. ``parentId`` is always written (``null`` for a root).
Entry timestamps are ISO-8601 strings (``2026-01-02T03:04:05.678Z``); message timestamps are Unix ms.

pi-tui's UI-only message roles (``notification``, ``artifact``; see DESIGN.md) are stored as ``custom``
entries with ``customType`` :data:`NOTIFICATION_CUSTOM_TYPE` / :data:`ARTIFACT_CUSTOM_TYPE`; pi ignores
``custom`` entries when it builds the LLM context, so such files stay valid pi sessions.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Container
from datetime import UTC, datetime
from typing import Any, Literal, Self

from pydantic import ConfigDict, Field, ValidationError, field_serializer, field_validator

from pi_tui.ai.types import PiModel
from pi_tui.coding.session.messages import AgentMessage, message_from_json, message_to_json

CURRENT_SESSION_VERSION = 3
"""Session format version written by this module (pi-reference §3.4)."""

NOTIFICATION_CUSTOM_TYPE = "pi-tui.notification"
ARTIFACT_CUSTOM_TYPE = "pi-tui.artifact"
UI_CUSTOM_TYPES: dict[str, str] = {NOTIFICATION_CUSTOM_TYPE: "notification", ARTIFACT_CUSTOM_TYPE: "artifact"}
"""``customType`` of a UI-only custom entry → the message role it displays as."""


def iso_now() -> str:
    """Current UTC time as pi writes it: ISO-8601 with milliseconds and ``Z``."""
    return iso_from_datetime(datetime.now(UTC))


def iso_from_datetime(moment: datetime) -> str:
    """``datetime`` → ``YYYY-MM-DDTHH:MM:SS.mmmZ`` (UTC; naive datetimes are taken as UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def iso_to_ms(value: Any) -> int:
    """ISO-8601 string → Unix milliseconds (JS ``new Date(s).getTime()``); unparsable → 0."""
    if not isinstance(value, str) or not value:
        return 0
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return 0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def generate_entry_id(existing: Container[str]) -> str:
    """8 hex chars (pi: first 8 chars of a random UUID), re-drawn on collision; full UUID as a fallback."""
    for _ in range(100):
        candidate = secrets.token_hex(4)
        if candidate not in existing:
            return candidate
    return str(uuid.uuid4())


class SessionHeader(PiModel):
    """First line of a session file: ``{type:"session", version, id, timestamp, cwd, parentSession?}``."""

    type: Literal["session"] = "session"
    version: int = CURRENT_SESSION_VERSION
    id: str
    timestamp: str = Field(default_factory=iso_now)
    cwd: str = ""
    parent_session: str | None = None

    def to_json_dict(self) -> dict[str, Any]:
        """pi's header JSON (``parentSession`` omitted when absent)."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


class SessionEntryBase(PiModel):
    """Fields every tree entry has: ``type``, ``id`` (8 hex), ``parentId`` (``None`` = root), ``timestamp`` (ISO)."""

    type: str
    id: str
    parent_id: str | None = None
    timestamp: str = Field(default_factory=iso_now)

    @classmethod
    def new(cls, **fields: Any) -> Self:
        """Build an entry in code: ``None`` values other than ``parent_id`` are left out (pi's ``undefined``)."""
        return cls(**{k: v for k, v in fields.items() if v is not None or k == "parent_id"})

    def to_json_dict(self) -> dict[str, Any]:
        """pi's JSON form: camelCase; exactly the fields that were set (a loaded entry writes back what it read,
        explicit ``null`` included), plus ``type``, ``id``, ``parentId`` (always, ``null`` for a root) and
        ``timestamp``."""
        data = self.model_dump(mode="json", by_alias=True, exclude_unset=True)
        data.pop("type", None)
        data.pop("id", None)
        data.pop("parentId", None)
        data.pop("timestamp", None)
        ordered: dict[str, Any] = {
            "type": self.type,
            "id": self.id,
            "parentId": self.parent_id,
            "timestamp": self.timestamp,
        }
        ordered.update(data)
        return ordered


class MessageEntry(SessionEntryBase):
    """``message``: one AgentMessage (model for user/assistant/toolResult, dict for other roles)."""

    type: Literal["message"] = "message"
    message: AgentMessage

    @field_validator("message", mode="before")
    @classmethod
    def _load_message(cls, value: Any) -> Any:
        return message_from_json(value)

    @field_serializer("message")
    def _dump_message(self, value: Any) -> Any:
        return message_to_json(value)


class ThinkingLevelChangeEntry(SessionEntryBase):
    """``thinking_level_change``: ``thinkingLevel`` (off|minimal|low|medium|high|xhigh, kept as written)."""

    type: Literal["thinking_level_change"] = "thinking_level_change"
    thinking_level: str


class ModelChangeEntry(SessionEntryBase):
    """``model_change``: ``provider``, ``modelId``."""

    model_config = ConfigDict(protected_namespaces=())

    type: Literal["model_change"] = "model_change"
    provider: str
    model_id: str


class CompactionEntry(SessionEntryBase):
    """``compaction``: ``summary``, ``firstKeptEntryId``, ``tokensBefore``, ``details?``, ``fromHook?``."""

    type: Literal["compaction"] = "compaction"
    summary: str
    first_kept_entry_id: str | None = None
    tokens_before: int = 0
    details: Any = None
    from_hook: bool | None = None


class BranchSummaryEntry(SessionEntryBase):
    """``branch_summary``: ``fromId`` (entry id or ``"root"``), ``summary``, ``details?``, ``fromHook?``."""

    type: Literal["branch_summary"] = "branch_summary"
    from_id: str = "root"
    summary: str = ""
    details: Any = None
    from_hook: bool | None = None


class CustomEntry(SessionEntryBase):
    """``custom``: extension/app state (``customType``, ``data?``); never part of the LLM context."""

    type: Literal["custom"] = "custom"
    custom_type: str
    data: Any = None


class CustomMessageEntry(SessionEntryBase):
    """``custom_message``: ``customType``, ``content`` (string or blocks), ``display``, ``details?``; in context."""

    type: Literal["custom_message"] = "custom_message"
    custom_type: str
    content: Any = ""
    display: bool = True
    details: Any = None


class LabelEntry(SessionEntryBase):
    """``label``: ``targetId`` and ``label`` (absent/empty clears the label)."""

    type: Literal["label"] = "label"
    target_id: str
    label: str | None = None


class SessionInfoEntry(SessionEntryBase):
    """``session_info``: ``name?`` (trimmed; empty clears the session name)."""

    type: Literal["session_info"] = "session_info"
    name: str | None = None


class UnknownEntry(SessionEntryBase):
    """An entry whose ``type`` is unknown here (or whose known fields are invalid); kept verbatim."""


SessionEntry = (
    MessageEntry
    | ThinkingLevelChangeEntry
    | ModelChangeEntry
    | CompactionEntry
    | BranchSummaryEntry
    | CustomEntry
    | CustomMessageEntry
    | LabelEntry
    | SessionInfoEntry
    | UnknownEntry
)

ENTRY_TYPES: dict[str, type[SessionEntryBase]] = {
    "message": MessageEntry,
    "thinking_level_change": ThinkingLevelChangeEntry,
    "model_change": ModelChangeEntry,
    "compaction": CompactionEntry,
    "branch_summary": BranchSummaryEntry,
    "custom": CustomEntry,
    "custom_message": CustomMessageEntry,
    "label": LabelEntry,
    "session_info": SessionInfoEntry,
}


class EntryNotFoundError(KeyError):
    """``Entry <id> not found`` (pi's message), raised for unknown entry ids."""

    def __init__(self, entry_id: str | None) -> None:
        super().__init__(entry_id)
        self.entry_id = entry_id

    def __str__(self) -> str:
        return f"Entry {self.entry_id} not found"


class EntryError(ValueError):
    """A JSON object that cannot be a tree entry (no string ``type``/``id``)."""


def entry_from_json(data: Any) -> SessionEntry:
    """Load one entry object. Unknown types or invalid known ones → :class:`UnknownEntry` (nothing lost).

    Raises :class:`EntryError` if ``data`` is not an object with string ``type`` and ``id`` (such a line
    cannot be placed in the tree; the loader skips it with a warning).
    """
    if not isinstance(data, dict):
        raise EntryError(f"entry is not a JSON object: {type(data).__name__}")
    entry_type = data.get("type")
    entry_id = data.get("id")
    if not isinstance(entry_type, str):
        raise EntryError("entry has no string 'type'")
    if not isinstance(entry_id, str) or not entry_id:
        raise EntryError(f"{entry_type} entry has no string 'id'")
    model = ENTRY_TYPES.get(entry_type)
    if model is not None:
        try:
            return model.model_validate(data)  # type: ignore[return-value]
        except ValidationError:
            pass
    parent = data.get("parentId")
    fixed = dict(data)
    if parent is not None and not isinstance(parent, str):
        fixed["parentId"] = None
    if not isinstance(fixed.get("timestamp"), str):
        fixed["timestamp"] = ""
    return UnknownEntry.model_validate(fixed)


def entry_to_json(entry: SessionEntryBase | SessionHeader) -> dict[str, Any]:
    """pi's JSON object for an entry or header."""
    return entry.to_json_dict()
