"""Signed thinking or text with no text is replayed, not dropped (pi 0.80.6 Anthropic, pi 0.84.0 Google).

Real reports: since Claude Opus 4.7 the default ``thinking.display`` is ``omitted``, so every thinking block
arrives as ``{"thinking": "", "signature": "..."}`` and must go back unchanged inside a tool-use turn
(eclipse-theia/theia#18044, zendev-sh/goai#142, pipecat-ai/pipecat#5183, BerriAI/litellm#42550: the turn then
breaks the "assistant message must start with a thinking block" rule, or loses its reasoning); a gateway's
``{"thinking": "", "signature": "EsYCC..."}`` dropped on the next request (XiaomiMiMo/MiMo-Code#2117). Gemini puts
a turn's ``thoughtSignature`` on an empty final part, which pi-tui dropped with the part.
"""

from __future__ import annotations

from typing import Any

from pi_tui.ai.providers._anthropic_convert import convert_messages as anthropic_messages
from pi_tui.ai.providers._google_shared import convert_messages as google_contents
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

CLAUDE = Model(id="claude-opus-4-7", api="anthropic-messages", provider="anthropic", reasoning=True)
GEMINI = Model(id="gemini-3-pro-preview", api="google-generative-ai", provider="google", reasoning=True)
SIG = "EsYCCkYIBhgCKkB7uBcF7A5czv1FuhmT1b67AAAA"


def _turn(model: Model, content: list[Any]) -> list[Any]:
    return [
        UserMessage(content="list the files"),
        AssistantMessage(content=content, api=model.api, provider=model.provider, model=model.id,
                         stop_reason="toolUse"),
        ToolResultMessage(tool_call_id="toolu_1", tool_name="ls", content=[TextContent(text="a.py")]),
    ]


def _anthropic_assistant(content: list[Any]) -> list[dict[str, Any]]:
    out = anthropic_messages(_turn(CLAUDE, content), CLAUDE, False, None)
    (assistant,) = [m for m in out if m["role"] == "assistant"]
    blocks: list[dict[str, Any]] = assistant["content"]
    return blocks


def test_anthropic_omitted_thinking_before_tool_use_is_replayed_unchanged() -> None:
    blocks = _anthropic_assistant([ThinkingContent(thinking="", thinking_signature=SIG),
                                   ToolCall(id="toolu_1", name="ls", arguments={})])
    assert blocks[0] == {"type": "thinking", "thinking": "", "signature": SIG}
    assert blocks[1]["type"] == "tool_use"


def test_anthropic_every_empty_signed_block_of_a_turn_is_kept_in_order() -> None:
    blocks = _anthropic_assistant([
        ThinkingContent(thinking="", thinking_signature=SIG + "1"),
        TextContent(text="Let me look."),
        ThinkingContent(thinking="   ", thinking_signature=SIG + "2"),
        ToolCall(id="toolu_1", name="ls", arguments={}),
    ])
    assert [b["type"] for b in blocks] == ["thinking", "text", "thinking", "tool_use"]
    assert [b.get("signature") for b in blocks if b["type"] == "thinking"] == [SIG + "1", SIG + "2"]


def test_anthropic_unsigned_empty_thinking_is_still_dropped() -> None:
    blocks = _anthropic_assistant([ThinkingContent(thinking="", thinking_signature=""),
                                   ToolCall(id="toolu_1", name="ls", arguments={})])
    assert [b["type"] for b in blocks] == ["tool_use"]


def _google_model_parts(content: list[Any]) -> list[dict[str, Any]]:
    contents = google_contents(GEMINI, Context(messages=_turn(GEMINI, content)))
    (model_turn,) = [c for c in contents if c["role"] == "model"]
    parts: list[dict[str, Any]] = model_turn["parts"]
    return parts


def test_google_signed_empty_text_part_is_replayed() -> None:
    parts = _google_model_parts([
        ThinkingContent(thinking="plan", thinking_signature=None),
        TextContent(text="", text_signature=SIG),
        ToolCall(id="toolu_1", name="ls", arguments={}),
    ])
    assert {"text": "", "thoughtSignature": SIG} in parts


def test_google_signed_empty_thinking_part_is_replayed() -> None:
    parts = _google_model_parts([ThinkingContent(thinking="", thinking_signature=SIG),
                                 ToolCall(id="toolu_1", name="ls", arguments={})])
    assert parts[0] == {"thought": True, "text": "", "thoughtSignature": SIG}


def test_google_empty_parts_without_a_usable_signature_are_still_dropped() -> None:
    other = Model(id="gemini-2.5-pro", api="google-generative-ai", provider="google")
    # Another model's signature is not replayable, and an invalid one is not either.
    msgs = _turn(other, [TextContent(text="", text_signature=SIG), ThinkingContent(thinking="", thinking_signature="x"),
                         ToolCall(id="toolu_1", name="ls", arguments={})])
    contents = google_contents(GEMINI, Context(messages=msgs))
    (model_turn,) = [c for c in contents if c["role"] == "model"]
    assert all("functionCall" in p for p in model_turn["parts"])
