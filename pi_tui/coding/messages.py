"""Coding-agent message roles and the LLM converter (pi-reference §3.3; DESIGN.md "Data model").

Roles added on top of pi-ai's ``user`` / ``assistant`` / ``toolResult``:

* pi's ``bashExecution``, ``custom``, ``compactionSummary``, ``branchSummary`` (sent to the LLM as user
  messages, with the exact wording of §3.3);
* pi-tui's UI-only ``notification`` {level, text, timestamp} and ``artifact`` {title, kind, content,
  language?, path?, timestamp}: persisted and rendered, **never** sent to a provider in any form.

:func:`convert_to_llm` is the ``convert_to_llm`` hook given to the Agent. It accepts pydantic messages or
plain dicts (pi's JSON form) and returns pi-ai messages only; unknown roles are dropped, as in pi.

Optional fields default to ``None`` (omitted when dumped), so a stored message loads and dumps unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import Field

from pi_tui.agent.messages import CustomAgentMessage, register_agent_message_role
from pi_tui.ai.types import (
    AssistantMessage,
    ImageContent,
    Message,
    PiModel,
    TextContent,
    ToolResultMessage,
    Usage,
    UserContent,
    UserMessage,
    now_ms,
)

NotificationLevel = Literal["info", "warning", "error"]
ArtifactKind = Literal["markdown", "code", "diff", "text", "image"]

COMPACTION_SUMMARY_PREFIX = (
    "The conversation history before this point was compacted into the following summary:\n\n<summary>\n"
)
COMPACTION_SUMMARY_SUFFIX = "\n</summary>"
BRANCH_SUMMARY_PREFIX = (
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n"
)
BRANCH_SUMMARY_SUFFIX = "</summary>"
IMAGE_BLOCKED_TEXT = "Image reading is disabled."

UI_ONLY_ROLES: frozenset[str] = frozenset({"notification", "artifact"})
"""Roles that are persisted and rendered but never reach an LLM (DESIGN.md)."""


class BashExecutionMessage(CustomAgentMessage):
    """A user ``!cmd`` run (pi-reference §3.11): ``exitCode`` is ``None`` when cancelled."""

    role: Literal["bashExecution"] = "bashExecution"  # type: ignore[assignment]
    command: str
    output: str | None = None
    exit_code: int | None = None
    cancelled: bool | None = None
    truncated: bool | None = None
    full_output_path: str | None = None
    exclude_from_context: bool | None = None
    timestamp: int = Field(default_factory=now_ms)  # type: ignore[assignment]


class CustomMessage(CustomAgentMessage):
    """An extension/app message sent to the LLM as a user message; ``display`` only affects the UI."""

    role: Literal["custom"] = "custom"  # type: ignore[assignment]
    custom_type: str
    content: str | list[UserContent]
    display: bool | None = None
    details: Any = None
    timestamp: int = Field(default_factory=now_ms)  # type: ignore[assignment]


class CompactionSummaryMessage(CustomAgentMessage):
    """The summary that replaces compacted history (pi-reference §3.9)."""

    role: Literal["compactionSummary"] = "compactionSummary"  # type: ignore[assignment]
    summary: str
    tokens_before: int | None = None
    timestamp: int = Field(default_factory=now_ms)  # type: ignore[assignment]


class BranchSummaryMessage(CustomAgentMessage):
    """The summary of an abandoned branch (pi-reference §3.4)."""

    role: Literal["branchSummary"] = "branchSummary"  # type: ignore[assignment]
    summary: str
    from_id: str | None = None
    timestamp: int = Field(default_factory=now_ms)  # type: ignore[assignment]


class NotificationMessage(CustomAgentMessage):
    """pi-tui UI-only message: a notice for the user (retry, compaction, model switch, error).

    ``level`` is info|warning|error; a stored message without one is shown as info (nothing is added on load,
    so messages written by other tools round-trip unchanged).
    """

    role: Literal["notification"] = "notification"  # type: ignore[assignment]
    level: NotificationLevel | None = None
    text: str
    timestamp: int = Field(default_factory=now_ms)  # type: ignore[assignment]


class ArtifactMessage(CustomAgentMessage):
    """pi-tui UI-only message: a document shown to the user (diff, code, markdown, text, image)."""

    role: Literal["artifact"] = "artifact"  # type: ignore[assignment]
    title: str
    kind: ArtifactKind | None = None  # None (missing in a stored message) is shown as text
    content: str
    language: str | None = None
    path: str | None = None
    timestamp: int = Field(default_factory=now_ms)  # type: ignore[assignment]


CODING_ROLE_MODELS: dict[str, type[CustomAgentMessage]] = {
    "bashExecution": BashExecutionMessage,
    "custom": CustomMessage,
    "compactionSummary": CompactionSummaryMessage,
    "branchSummary": BranchSummaryMessage,
    "notification": NotificationMessage,
    "artifact": ArtifactMessage,
}
_BASE_ROLE_MODELS: dict[str, type[PiModel]] = {
    "user": UserMessage,
    "assistant": AssistantMessage,
    "toolResult": ToolResultMessage,
}


def register_coding_roles() -> None:
    """Register the roles above with the agent's custom-role registry (idempotent; pi-reference §3.3).

    Called when an AgentSession is built (importing this module has no global side effect).
    """
    for role, model in CODING_ROLE_MODELS.items():
        register_agent_message_role(role, model)


def message_role(message: Any) -> str | None:
    """The ``role`` of a pydantic message or a JSON dict (``None`` when it has none)."""
    if isinstance(message, dict):
        role = message.get("role")
        return role if isinstance(role, str) else None
    role = getattr(message, "role", None)
    return role if isinstance(role, str) else None


def parse_message(data: Any) -> Any:
    """A message object for ``data`` (pi JSON dict or already a model).

    Known roles become their pydantic model; an unknown role is kept as a :class:`PiModel` with its fields
    (so it round-trips unchanged). Raises ``pydantic.ValidationError`` for a known role with bad fields.
    """
    if not isinstance(data, dict):
        return data
    role = data.get("role")
    model = _BASE_ROLE_MODELS.get(role) or CODING_ROLE_MODELS.get(role)  # type: ignore[arg-type]
    if model is None:
        return PiModel.model_validate(data)
    return model.model_validate(data)


def message_to_json(message: Any) -> dict[str, Any]:
    """pi's JSON form of a message (camelCase, ``None`` omitted); dicts are returned as copies."""
    if isinstance(message, dict):
        return dict(message)
    if isinstance(message, PiModel):
        return message.to_json_dict()
    raise TypeError(f"not a message: {message!r}")


def _field(message: Any, name: str, alias: str | None = None, default: Any = None) -> Any:
    if isinstance(message, dict):
        if name in message:
            return message[name]
        return message.get(alias or name, default)
    value = getattr(message, name, None)
    if value is None and alias is not None:
        value = getattr(message, alias, None)
    return default if value is None else value


def bash_execution_to_text(message: Any) -> str:
    """The user text pi sends for a ``bashExecution`` message (pi-reference §3.3)."""
    command = _field(message, "command", default="")
    output = _field(message, "output", default="")
    text = f"Ran `{command}`\n"
    text += f"```\n{output}\n```" if output else "(no output)"
    if _field(message, "cancelled", default=False):
        text += "\n\n(command cancelled)"
    else:
        code = _field(message, "exit_code", "exitCode")
        if code is not None and code != 0:
            text += f"\n\nCommand exited with code {code}"
    full_path = _field(message, "full_output_path", "fullOutputPath")
    if _field(message, "truncated", default=False) and full_path:
        text += f"\n\n[Output truncated. Full output: {full_path}]"
    return text


def _user_content(content: Any) -> list[Any]:
    if isinstance(content, str):
        return [TextContent(text=content)]
    blocks: list[Any] = []
    for block in content or []:
        if isinstance(block, dict):
            kind = block.get("type")
            if kind == "text":
                blocks.append(TextContent.model_validate(block))
            elif kind == "image":
                blocks.append(ImageContent.model_validate(block))
        elif isinstance(block, (TextContent, ImageContent)):
            blocks.append(block)
    return blocks


def _block_images(blocks: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for block in blocks:
        if isinstance(block, ImageContent):
            if out and isinstance(out[-1], TextContent) and out[-1].text == IMAGE_BLOCKED_TEXT:
                continue
            out.append(TextContent(text=IMAGE_BLOCKED_TEXT))
        else:
            out.append(block)
    return out


def _as_llm_message(message: Any) -> Message:
    if isinstance(message, (UserMessage, AssistantMessage, ToolResultMessage)):
        return message
    role = message_role(message)
    if role == "user":
        return UserMessage.model_validate(message_to_json(message))
    if role == "assistant":
        return AssistantMessage.model_validate(message_to_json(message))
    return ToolResultMessage.model_validate(message_to_json(message))


def convert_message(message: Any, *, block_images: bool = False) -> Message | None:
    """One agent message → one LLM message, or ``None`` when it must not reach the LLM (pi-reference §3.3).

    ``notification`` and ``artifact`` always give ``None`` (UI-only); so do excluded ``bashExecution``
    runs, empty branch summaries and unknown roles.
    """
    role = message_role(message)
    timestamp = _field(message, "timestamp", default=0) or 0
    if role in ("user", "assistant", "toolResult"):
        llm = _as_llm_message(message)
        if block_images and isinstance(llm, (UserMessage, ToolResultMessage)) and not isinstance(llm.content, str):
            llm = llm.model_copy(update={"content": _block_images(llm.content)})
        return llm
    if role == "bashExecution":
        if _field(message, "exclude_from_context", "excludeFromContext", default=False):
            return None
        return UserMessage(content=[TextContent(text=bash_execution_to_text(message))], timestamp=timestamp)
    if role == "custom":
        blocks = _user_content(_field(message, "content", default=""))
        if block_images:
            blocks = _block_images(blocks)
        return UserMessage(content=blocks, timestamp=timestamp)
    if role == "compactionSummary":
        summary = _field(message, "summary", default="")
        text = COMPACTION_SUMMARY_PREFIX + summary + COMPACTION_SUMMARY_SUFFIX
        return UserMessage(content=[TextContent(text=text)], timestamp=timestamp)
    if role == "branchSummary":
        summary = _field(message, "summary", default="")
        text = BRANCH_SUMMARY_PREFIX + summary + BRANCH_SUMMARY_SUFFIX
        return UserMessage(content=[TextContent(text=text)], timestamp=timestamp)
    return None  # notification, artifact and unknown roles never reach the LLM


def convert_to_llm(messages: Iterable[Any], *, block_images: bool = False) -> list[Message]:
    """Agent messages → the LLM messages of one request (pi-reference §3.3).

    Keeps user/assistant/toolResult, converts bashExecution/custom/summaries to user messages, drops
    ``notification``/``artifact`` (UI-only), excluded bash runs and unknown roles. ``block_images``
    replaces each image block with ``Image reading is disabled.`` (consecutive duplicates collapsed).

    An assistant message kept from before the latest compaction (timestamp not after the summary's) is sent
    without its usage: that usage counts the context as it was before the compaction, and the request's output
    budget (:func:`pi_tui.ai.output_budget.default_max_tokens`) must not anchor on it (pi 0.80.6, #6464). The
    stored message keeps it.
    """
    items = list(messages)
    boundary: int | None = None
    for message in items:
        if _field(message, "role") == "compactionSummary":
            stamp = _field(message, "timestamp")
            boundary = stamp if isinstance(stamp, int) else boundary
    out: list[Message] = []
    for message in items:
        converted = convert_message(message, block_images=block_images)
        if converted is None:
            continue
        if boundary is not None and isinstance(converted, AssistantMessage) and converted.timestamp <= boundary:
            converted = converted.model_copy(update={"usage": Usage()})
        out.append(converted)
    return out


def message_text(message: Any) -> str:
    """Concatenated text blocks of a user/custom message (string content returned as is)."""
    content = _field(message, "content", default="")
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, dict):
            if block.get("type") == "text":
                parts.append(str(block.get("text", "")))
        elif isinstance(block, TextContent):
            parts.append(block.text)
    return "".join(parts)
