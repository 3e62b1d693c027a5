"""Kept importable: SessionSettings and ModelAccess live in :mod:`pi_tui.coding.agent_session.settings`."""

from pi_tui.coding.agent_session.settings import ModelAccess, SessionSettings, login_help, no_model_message

__all__ = ["ModelAccess", "SessionSettings", "login_help", "no_model_message"]
