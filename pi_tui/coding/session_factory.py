"""Kept importable: the session factory lives in :mod:`pi_tui.coding.agent_session.factory`."""

from pi_tui.coding.agent_session.factory import (
    DEFAULT_TOOL_NAMES,
    MAX_LISTED_MATCHES,
    SessionSetupError,
    create_agent_session,
    list_available_models,
)

__all__ = [
    "DEFAULT_TOOL_NAMES",
    "MAX_LISTED_MATCHES",
    "SessionSetupError",
    "create_agent_session",
    "list_available_models",
]
