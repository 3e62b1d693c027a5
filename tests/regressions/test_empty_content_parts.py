"""Blank parts never reach a request (pi 0.87.1 image-only prompts, pi 1.4.0 whitespace tool output, pi 0.80.4).

Real reports: an image pasted with no text sends an empty text part: Anthropic answers 400 "text content blocks
must be non-empty" on every retry (anthropics/claude-code#50010, #55645, #62150), some OpenAI-compatible servers
reject the empty part (earendil-works/pi#9797); a bash tool that printed only ``\\r\\n`` made Chat Completions,
Responses and Gemini requests 400 (pi#8720). (The opposite dialect, a server that needs *some* text beside an
image, Gitlawb/openclaude#1410, is not handled: pi drops the part, and pi-tui follows pi.)
"""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.providers._anthropic_convert import convert_messages as anthropic_messages
from pi_tui.ai.providers._google_shared import convert_messages as google_contents
from pi_tui.ai.providers._responses_shared import convert_responses_messages
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.providers.openai_completions import convert_messages as completions_messages
from pi_tui.ai.types import (
    AssistantMessage,
    Context,
    ImageContent,
    Model,
    TextContent,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

IMG = ImageContent(data="iVBORw0KGgo=", mime_type="image/png")
VISION = ["text", "image"]


def _completions(messages: list[Any]) -> list[dict[str, Any]]:
    model = Model(id="qwen-vl", api="openai-completions", provider="vllm", base_url="http://127.0.0.1:8000/v1",
                  input=VISION)
    return completions_messages(model, Context(messages=messages), resolve_completions_compat(model))


def _responses(messages: list[Any]) -> list[dict[str, Any]]:
    model = Model(id="gpt-5", api="openai-responses", provider="openai", input=VISION)
    return convert_responses_messages(model, Context(messages=messages))


def _google(messages: list[Any]) -> list[dict[str, Any]]:
    model = Model(id="gemini-2.5-pro", api="google-generative-ai", provider="google", input=VISION)
    return google_contents(model, Context(messages=messages))


def _anthropic(messages: list[Any]) -> list[dict[str, Any]]:
    model = Model(id="claude-sonnet-4-5", api="anthropic-messages", provider="anthropic", input=VISION)
    return anthropic_messages(messages, model, False, None)


def _user_parts(out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    (user,) = [m for m in out if m.get("role") == "user"]
    parts: list[dict[str, Any]] = user.get("content") or user.get("parts") or []
    return parts


@pytest.mark.parametrize("convert", [_completions, _responses, _google, _anthropic])
@pytest.mark.parametrize("blank", ["", "  ", "\n"])
def test_image_only_prompt_sends_no_blank_text_part(convert: Any, blank: str) -> None:
    parts = _user_parts(convert([UserMessage(content=[TextContent(text=blank), IMG])]))
    assert len(parts) == 1
    assert "text" not in parts[0] or parts[0]["text"].strip()


@pytest.mark.parametrize("convert", [_completions, _responses, _google, _anthropic])
def test_text_beside_an_image_is_kept(convert: Any) -> None:
    parts = _user_parts(convert([UserMessage(content=[TextContent(text="what is this?"), IMG])]))
    assert len(parts) == 2


def _tool_turn(result: list[Any]) -> list[Any]:
    return [
        UserMessage(content="run it"),
        AssistantMessage(content=[ToolCall(id="call_1", name="bash", arguments={"command": "echo"})],
                         api="x", provider="x", model="x", stop_reason="toolUse"),
        ToolResultMessage(tool_call_id="call_1", tool_name="bash", content=result),
    ]


def _result_text(convert: Any, result: list[Any]) -> str:
    out = convert(_tool_turn(result))
    for item in out:
        if item.get("role") == "tool":
            return str(item["content"])
        if item.get("type") == "function_call_output":
            return str(item["output"])
        for part in item.get("parts") or []:
            if "functionResponse" in part:
                return str(part["functionResponse"]["response"]["output"])
    raise AssertionError(out)


@pytest.mark.parametrize("convert", [_completions, _responses, _google])
@pytest.mark.parametrize("text", ["", "\r\n", "   \n\t"])
def test_blank_tool_output_is_sent_as_no_tool_output(convert: Any, text: str) -> None:
    assert _result_text(convert, [TextContent(text=text)]) == "(no tool output)"


@pytest.mark.parametrize("convert", [_completions, _google])
def test_blank_tool_output_with_an_image_says_see_attached_image(convert: Any) -> None:
    assert _result_text(convert, [TextContent(text="\r\n"), IMG]) == "(see attached image)"


def test_responses_blank_text_beside_a_tool_image_is_dropped() -> None:
    out = _responses(_tool_turn([TextContent(text="\r\n"), IMG]))
    (item,) = [i for i in out if i.get("type") == "function_call_output"]
    assert [p["type"] for p in item["output"]] == ["input_image"]
