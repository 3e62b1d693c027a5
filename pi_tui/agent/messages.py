"""AgentMessage: the LLM messages plus app-registered custom roles (pi-reference §2.1, DESIGN "Data model").

pi widens its ``AgentMessage`` type by TypeScript declaration merging (``CustomAgentMessages``). Here the
same openness is a registry ``role -> model class``: :func:`register_agent_message_role` adds a role,
:func:`parse_agent_message` turns a pi JSON dict into the right model (``user``/``assistant``/``toolResult``
→ pi-ai models, registered roles → their model, anything else → :class:`UnknownAgentMessage`, which keeps
every field so the message round-trips unchanged). ``convert_to_llm`` decides what the LLM sees.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, PlainValidator, SerializeAsAny

from pi_tui.ai.types import AssistantMessage, PiModel, ToolResultMessage, UserMessage


class CustomAgentMessage(PiModel):
    """Base of every app-level (non-LLM) message: ``{role, ...fields}``; unknown fields are kept."""

    role: str
    timestamp: int | None = None


class UnknownAgentMessage(CustomAgentMessage):
    """Passthrough for a role nobody registered: every field is kept as given (round-trips unchanged)."""


AgentMessage = UserMessage | AssistantMessage | ToolResultMessage | CustomAgentMessage
"""Any message of an agent transcript (pi's ``AgentMessage``)."""

_LLM_ROLE_MODELS: dict[str, type[PiModel]] = {
    "user": UserMessage,
    "assistant": AssistantMessage,
    "toolResult": ToolResultMessage,
}
_custom_roles: dict[str, type[CustomAgentMessage]] = {}


def register_agent_message_role(role: str, model: type[CustomAgentMessage]) -> None:
    """Register ``model`` for messages whose ``role`` is ``role``.

    Raises ``ValueError`` for the three LLM roles (they are fixed) or a model that is not a
    :class:`CustomAgentMessage` subclass. Registering a role again replaces the earlier model.
    """
    if role in _LLM_ROLE_MODELS:
        raise ValueError(f"Role {role!r} is an LLM message role and cannot be re-registered")
    if not (isinstance(model, type) and issubclass(model, CustomAgentMessage)):
        raise ValueError(f"Model for role {role!r} must subclass CustomAgentMessage")
    _custom_roles[role] = model


def unregister_agent_message_role(role: str) -> None:
    """Forget a registered custom role (unknown roles are ignored)."""
    _custom_roles.pop(role, None)


def registered_agent_message_roles() -> dict[str, type[CustomAgentMessage]]:
    """A copy of the custom-role registry."""
    return dict(_custom_roles)


def parse_agent_message(data: Any) -> AgentMessage:
    """A message model from ``data`` (a pi JSON dict or an already-built model, returned as is).

    Raises ``ValueError`` (pydantic's ``ValidationError`` is one) when ``data`` is not a dict with a
    string ``role`` or does not fit the model of its role.
    """
    if isinstance(data, BaseModel):
        return data  # type: ignore[return-value]
    if not isinstance(data, dict):
        raise ValueError(f"An agent message must be an object, got {type(data).__name__}")
    role = data.get("role")
    if not isinstance(role, str):
        raise ValueError("An agent message needs a string 'role'")
    model = _LLM_ROLE_MODELS.get(role) or _custom_roles.get(role) or UnknownAgentMessage
    return model.model_validate(data)  # type: ignore[return-value]


AgentMessageField = SerializeAsAny[Annotated[AgentMessage, PlainValidator(parse_agent_message)]]
"""Pydantic field type for an AgentMessage: accepts models as is (no copy) or parses dicts; dumps the
actual model (custom roles included)."""


def message_role(message: Any) -> str | None:
    """The ``role`` of a message model or dict (None when missing)."""
    if isinstance(message, dict):
        role = message.get("role")
    else:
        role = getattr(message, "role", None)
    return role if isinstance(role, str) else None
