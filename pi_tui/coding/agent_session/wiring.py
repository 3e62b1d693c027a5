"""What the session installs on its Agent: the turn-boundary stop hook and per-request credentials."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from pi_tui.agent import Agent, ShouldStopAfterTurnContext
from pi_tui.agent.types import AgentLoopConfig
from pi_tui.ai.registry import error_stream
from pi_tui.ai.stream import stream_simple
from pi_tui.ai.types import AssistantMessage, Model
from pi_tui.coding.agent_session.settings import ModelAccess, SessionSettings

EMPTY_RESPONSE = "The model returned an empty response (no text and no tool call)."

ALREADY_STREAMING = (
    "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message."
)


class SessionAgent(Agent):
    """The Agent with a ``should_stop_after_turn`` hook (pi 0.84's AgentOptions field; loop config in 0.73)."""

    stop_after_turn: Callable[[ShouldStopAfterTurnContext], bool] | None = None

    def _loop_config(self, skip_initial_steering: bool) -> AgentLoopConfig:
        config = super()._loop_config(skip_initial_steering)
        if self.stop_after_turn is not None:
            config.should_stop_after_turn = self.stop_after_turn
        return config


def is_empty_answer(message: AssistantMessage) -> bool:
    """A normal stop with nothing in it: no text, no thinking, no tool call (a misconfigured server, an
    endpoint that answers 200 with an empty stream). pi shows nothing at all; pi-tui adds a UI-only warning."""
    if message.stop_reason != "stop":
        return False
    for block in message.content:
        if block.type == "toolCall":
            return False
        if (getattr(block, "text", None) or getattr(block, "thinking", None) or "").strip():
            return False
    return True


def api_key_lookup(agent: Agent, models: ModelAccess) -> Callable[[str], str | None]:
    """The Agent's ``get_api_key(provider)``: the key of the active model when it is that provider's."""

    def get_api_key(provider: str) -> str | None:
        model = agent.state.model
        if model is not None and model.provider == provider:
            return models.get_api_key(model)
        return None

    return get_api_key


def credential_stream(
    models: ModelAccess, settings: SessionSettings | None = None
) -> Callable[[Model, Any, Any], Any]:
    """pi's ``streamFn`` with per-request credentials: the key and models.json headers are resolved for every
    call; a resolution error becomes an error stream (never an exception). ``settings``' provider timeout and
    retry count (``retry.provider.timeoutMs``/``maxRetries``, read at each call so /settings applies) fill the
    options that do not set them (pi 0.73 sdk.js)."""

    def stream(model: Model, context: Any, options: Any) -> Any:
        if settings is not None:
            provider_changes: dict[str, Any] = {}
            if getattr(options, "timeout_ms", None) is None and settings.provider_timeout_ms is not None:
                provider_changes["timeout_ms"] = settings.provider_timeout_ms
            if getattr(options, "max_retries", None) is None and settings.provider_max_retries is not None:
                provider_changes["max_retries"] = settings.provider_max_retries
            if provider_changes:
                options = dataclasses.replace(options, **provider_changes)
        resolve = getattr(models, "request_credentials", None)
        if resolve is not None:
            credentials = resolve(model)
            if credentials.error:
                return error_stream(model, credentials.error)
            changes: dict[str, Any] = {}
            if credentials.api_key:
                changes["api_key"] = credentials.api_key
            if credentials.headers:
                changes["headers"] = {**credentials.headers, **(options.headers or {})}
            if changes:
                options = dataclasses.replace(options, **changes)
        return stream_simple(model, context, options)

    return stream
