"""Mistral's reasoning models follow the thinking level (pi 0.86.0 #8700, 0.99.0 #9678, #9674).

``mistral-medium-2604``, ``mistral-medium-latest`` and ``magistral-medium-latest`` are reasoning models, but
pi-tui sent them no reasoning control at all (pi 0.73 sent the ``prompt_mode`` Mistral ignores), so choosing
``off`` or ``high`` changed nothing. They take ``reasoning_effort`` ``"none"`` or ``"high"`` (pi 1.6.0's
catalogue): the level list is off/high and each is sent. The models already on ``reasoning_effort`` keep their
levels. Thinking is never sent back to Mistral, so the "at most one leading ThinkChunk" 400 that empty deltas
caused in pi (#9674) cannot arise: pinned.
"""

from __future__ import annotations

import pytest

from pi_tui.ai.models import get_model, get_supported_thinking_levels
from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers._openai_completions_convert import build_params, convert_messages
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.types import (
    AssistantMessage,
    Context,
    Model,
    TextContent,
    ThinkingContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

CTX = Context(messages=[UserMessage(content="q")])


def _model(model_id: str) -> Model:
    model = get_model("mistral", model_id)
    assert model is not None
    return model


def _effort(model: Model, level: str | None) -> object:
    options = StreamOptions(extra={"reasoning_effort": level} if level else {})
    return build_params(model, CTX, options, resolve_completions_compat(model), "short").get("reasoning_effort")


@pytest.mark.parametrize("model_id", ["mistral-medium-2604", "mistral-medium-latest", "magistral-medium-latest"])
def test_medium_reasoning_models_send_none_or_high(model_id: str) -> None:
    model = _model(model_id)
    assert get_supported_thinking_levels(model) == ["off", "high"]
    assert _effort(model, "high") == "high"
    assert _effort(model, None) == "none"


@pytest.mark.parametrize("model_id", ["mistral-small-latest", "mistral-medium-3.5"])
def test_models_already_on_reasoning_effort_keep_their_levels(model_id: str) -> None:
    model = _model(model_id)
    assert get_supported_thinking_levels(model) == ["off", "minimal", "low", "medium", "high"]
    assert _effort(model, "low") == "high"
    assert _effort(model, None) is None


def test_thinking_is_never_replayed_to_mistral() -> None:
    model = _model("mistral-medium-latest")
    reply = AssistantMessage(
        content=[ThinkingContent(thinking="", thinking_signature="reasoning_content"),
                 ThinkingContent(thinking="plan", thinking_signature="reasoning_content"),
                 TextContent(text=""), ToolCall(id="abc123XYZ", name="ls", arguments={})],
        api=model.api, provider=model.provider, model=model.id, stop_reason="toolUse",
    )
    history = [UserMessage(content="q"), reply,
               ToolResultMessage(tool_call_id="abc123XYZ", tool_name="ls", content=[TextContent(text="a")])]
    out = convert_messages(model, Context(messages=history), resolve_completions_compat(model))
    (assistant,) = [m for m in out if m["role"] == "assistant"]
    assert set(assistant) == {"role", "content", "tool_calls"}
    assert assistant["content"] is None
