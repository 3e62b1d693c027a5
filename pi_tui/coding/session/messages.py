"""Agent messages as stored in session entries: the role → model hook (pi-reference §3.3, §6 "AgentMessage").

A session ``message`` entry holds an ``AgentMessage``. The three LLM roles (``user``, ``assistant``,
``toolResult``) load as the pydantic models of :mod:`pi_tui.ai.types`. Any other role (``bashExecution``,
``custom``, ``compactionSummary``, ``branchSummary``, pi-tui's UI-only ``notification`` / ``artifact``, or a
role written by a newer pi) goes through a parser registered here with :func:`register_message_role`, else
through the agent layer's message registry (``pi_tui.agent.messages.parse_agent_message``) when that module
exists, else stays a plain ``dict``.
Nothing is ever dropped: a message that fails validation for its registered model is kept as the dict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ValidationError

from pi_tui.ai.types import AssistantMessage, ToolResultMessage, UserMessage

AgentMessage = Any
"""A pydantic message model (``UserMessage`` …) or a plain camelCase dict with a ``role`` key."""

MessageParser = Callable[[dict[str, Any]], Any]

_PARSERS: dict[str, MessageParser] = {
    "user": UserMessage.model_validate,
    "assistant": AssistantMessage.model_validate,
    "toolResult": ToolResultMessage.model_validate,
}


def register_message_role(role: str, parser: MessageParser) -> None:
    """Make messages of ``role`` load through ``parser`` (e.g. a pydantic model's ``model_validate``).

    ``parser`` receives the camelCase JSON dict and returns the message object; if it raises
    ``ValidationError``/``ValueError``/``TypeError`` the dict is kept unchanged.
    """
    _PARSERS[role] = parser


def _agent_registry_parser() -> MessageParser | None:
    """The agent layer's ``parse_agent_message`` when that module is available (soft dependency)."""
    try:
        from pi_tui.agent.messages import parse_agent_message
    except ImportError:
        return None
    return parse_agent_message


def message_from_json(data: Any) -> AgentMessage:
    """Turn a stored message (JSON dict) into an AgentMessage.

    Order: a parser registered here for the role; else the agent layer's message registry
    (:func:`pi_tui.agent.messages.parse_agent_message`) if present; else the dict itself. Data that fails
    validation stays the dict.
    """
    if not isinstance(data, dict):
        return data
    parser = _PARSERS.get(str(data.get("role")))
    if parser is None:
        parser = _agent_registry_parser()
    if parser is None:
        return data
    try:
        return parser(data)
    except (ValidationError, ValueError, TypeError):
        return data


def message_to_json(message: AgentMessage) -> Any:
    """pi's JSON form of an AgentMessage: camelCase keys, ``None`` fields omitted (dicts copied as is)."""
    if isinstance(message, BaseModel):
        to_json = getattr(message, "to_json_dict", None)
        if callable(to_json):
            return to_json()
        return message.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(message, dict):
        return dict(message)
    return message


def message_role(message: AgentMessage) -> str | None:
    """The ``role`` of a model or dict message (``None`` when absent)."""
    if isinstance(message, dict):
        role = message.get("role")
        return role if isinstance(role, str) else None
    role = getattr(message, "role", None)
    return role if isinstance(role, str) else None


def message_field(message: AgentMessage, json_name: str, attr_name: str | None = None) -> Any:
    """Read a field of a model (by attribute) or dict (by camelCase key); ``None`` when absent."""
    if isinstance(message, dict):
        return message.get(json_name)
    return getattr(message, attr_name or json_name, None)
