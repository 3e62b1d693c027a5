"""OpenRouter catalogue entries that sent requests OpenRouter refuses or that lost replayed thinking.

* DeepSeek V4 on OpenRouter (pi 0.77.0): the entry carried DeepSeek's own thinking format, so a request had
  ``thinking: {type: ...}`` and ``reasoning_effort: "max"`` for ``xhigh``, neither of them OpenRouter's;
  OpenRouter's ``reasoning: {effort}`` is sent now, ``xhigh`` as ``"xhigh"``, thinking off as ``"none"``.
* Kimi K2.6 on OpenRouter (pi 0.78.1, #5309; pi 0.78.0, #5159): the next tool turn needs the model's
  ``reasoning_content`` on the assistant message, and the instructions go as ``system`` (never ``developer``).
"""

from __future__ import annotations

from typing import Any

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


def _model(model_id: str) -> Model:
    model = get_model("openrouter", model_id)
    assert model is not None
    return model


def _body(model: Model, level: str | None, context: Context | None = None) -> dict[str, Any]:
    options = StreamOptions(extra={"reasoning_effort": level} if level else {})
    ctx = context or Context(messages=[UserMessage(content="q")])
    return build_params(model, ctx, options, resolve_completions_compat(model), "short")


@pytest.mark.parametrize("model_id", ["deepseek/deepseek-v4-pro", "deepseek/deepseek-v4-flash"])
def test_deepseek_v4_gets_openrouters_reasoning_object(model_id: str) -> None:
    model = _model(model_id)
    assert get_supported_thinking_levels(model) == ["off", "high", "xhigh"]
    body = _body(model, "xhigh")
    assert body["reasoning"] == {"effort": "xhigh"}
    assert "thinking" not in body and "reasoning_effort" not in body
    assert _body(model, "high")["reasoning"] == {"effort": "high"}
    assert _body(model, None)["reasoning"] == {"effort": "none"}


def test_kimi_k2_6_replays_reasoning_content_and_gets_system() -> None:
    model = _model("moonshotai/kimi-k2.6")
    reply = AssistantMessage(
        content=[ThinkingContent(thinking="look first", thinking_signature="reasoning"),
                 ToolCall(id="functions.ls:0", name="ls", arguments={})],
        api=model.api, provider=model.provider, model=model.id, stop_reason="toolUse",
    )
    history = [UserMessage(content="q"), reply,
               ToolResultMessage(tool_call_id="functions.ls:0", tool_name="ls", content=[TextContent(text="a")])]
    ctx = Context(system_prompt="Be brief.", messages=history)
    out = convert_messages(model, ctx, resolve_completions_compat(model))
    assert out[0] == {"role": "system", "content": "Be brief."}
    (assistant,) = [m for m in out if m["role"] == "assistant"]
    assert assistant["reasoning_content"] == "look first"
    plain = reply.model_copy(update={"content": [ToolCall(id="functions.ls:0", name="ls", arguments={})]})
    out = convert_messages(model, Context(messages=[history[0], plain, history[2]]), resolve_completions_compat(model))
    (assistant,) = [m for m in out if m["role"] == "assistant"]
    assert assistant["reasoning_content"] == ""  # a tool turn without thinking still carries the field
