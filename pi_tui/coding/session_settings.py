"""Kept importable: SessionSettings and ModelAccess live in :mod:`pi_tui.coding.agent_session.settings`."""

from pi_tui.coding.agent_session.settings import LOGIN_HELP, NO_MODEL_MESSAGE, ModelAccess, SessionSettings

__all__ = ["LOGIN_HELP", "NO_MODEL_MESSAGE", "ModelAccess", "SessionSettings"]
