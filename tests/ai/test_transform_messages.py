"""transform_messages (pi-reference §1.15, §4.2 transform-messages-copilot-openai-to-anthropic.test.ts).

``data/transform_cases.json`` holds inputs and the output of the real pi-ai 0.73.1 ``transformMessages`` with
the Anthropic id normaliser (``data/gen_transform_cases.mjs``); synthetic results' timestamps are set to 0.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.transform_messages import (
    normalize_id_anthropic,
    normalize_id_google,
    normalize_id_openai_completions,
    transform_messages,
)
from pi_tui.ai.types import AssistantMessage, Model, TextContent, ToolCall, ToolResultMessage, UserMessage

CASES = json.loads((Path(__file__).parent / "data" / "transform_cases.json").read_text(encoding="utf-8"))


def _normalised(messages: list[Any]) -> list[dict[str, Any]]:
    out = []
    for message in messages:
        data = message.to_json_dict()
        content = data.get("content")
        if data["role"] == "toolResult" and content and content[0].get("text") == "No result provided":
            data["timestamp"] = 0
        out.append(data)
    return out


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_pi(case: dict[str, Any]) -> None:
    model = Model.model_validate(case["model"])
    before = copy.deepcopy(case["messages"])
    result = transform_messages(case["messages"], model, normalize_id_anthropic)
    assert _normalised(result) == case["expected"]
    assert case["messages"] == before


SONNET = Model(id="claude-sonnet-4-5", api="anthropic-messages", provider="github-copilot", reasoning=True)


def _gpt(content: list[Any], **extra: Any) -> AssistantMessage:
    return AssistantMessage(
        content=content,
        api="openai-responses",
        provider="github-copilot",
        model="gpt-5",
        stop_reason="toolUse",
        **extra,
    )


def test_thinking_becomes_plain_text_without_tags() -> None:
    from pi_tui.ai.types import ThinkingContent

    msg = _gpt([ThinkingContent(thinking="Let me think", thinking_signature="sig")], timestamp=1)
    out_list: list[Any] = transform_messages([msg], SONNET)
    out = out_list[0]
    assert out.content == [TextContent(text="Let me think")]


def test_input_pydantic_messages_not_mutated() -> None:
    call = ToolCall(id="call|x+y", name="read", arguments={"p": 1}, thought_signature="sig")
    msg = _gpt([call], timestamp=1)
    result = ToolResultMessage(tool_call_id="call|x+y", tool_name="read", content=[TextContent(text="ok")])
    out: list[Any] = transform_messages([msg, result], SONNET, normalize_id_anthropic)
    assert out[0].content[0].id == "call_x_y"
    assert out[0].content[0].thought_signature is None
    assert out[1].tool_call_id == "call_x_y"
    assert call.id == "call|x+y" and call.thought_signature == "sig"
    assert result.tool_call_id == "call|x+y"
    out[0].content[0].arguments["p"] = 2
    assert call.arguments == {"p": 1}


def test_empty_tool_call_id_gets_one_made_up_id_shared_with_its_result() -> None:
    # cases/README.md case 18: no outgoing message may carry an empty tool-call id.
    msg = AssistantMessage(
        content=[ToolCall(id="", name="read", arguments={}), ToolCall(id="call_2", name="ls", arguments={})],
        api="anthropic-messages",
        provider="github-copilot",
        model="claude-sonnet-4-5",
        stop_reason="toolUse",
        timestamp=5,
    )
    results = [
        ToolResultMessage(tool_call_id="", tool_name="read", content=[TextContent(text="r")]),
        ToolResultMessage(tool_call_id="call_2", tool_name="ls", content=[TextContent(text="l")]),
    ]
    first: list[Any] = transform_messages([UserMessage(content="hi"), msg, *results], SONNET)
    made_up = first[1].content[0].id
    assert made_up and made_up.startswith("call_")
    assert [m.tool_call_id for m in first[2:]] == [made_up, "call_2"]
    # Deterministic: the same history gives the same id (prompt caching).
    again: list[Any] = transform_messages([UserMessage(content="hi"), msg, *results], SONNET)
    assert again[1].content[0].id == made_up
    assert isinstance(msg.content[0], ToolCall) and msg.content[0].id == ""


def test_empty_id_orphan_gets_synthetic_result_with_made_up_id() -> None:
    msg = _gpt([ToolCall(id="", name="read", arguments={})], timestamp=7)
    out: list[Any] = transform_messages([msg], SONNET, normalize_id_anthropic)
    call_id = out[0].content[0].id
    assert call_id
    assert out[1].tool_call_id == call_id
    assert out[1].is_error is True
    assert out[1].content == [TextContent(text="No result provided")]


def test_normalisers() -> None:
    openai = Model(id="gpt-4.1", api="openai-completions", provider="openai")
    groq = Model(id="x", api="openai-completions", provider="groq")
    msg = AssistantMessage()
    long_id = "call_" + "a" * 60
    assert normalize_id_openai_completions("call_1|fc_+/=", groq, msg) == "call_1"
    assert normalize_id_openai_completions("ab+c|zz", groq, msg) == "ab_c"
    assert normalize_id_openai_completions(long_id, openai, msg) == long_id[:40]
    assert normalize_id_openai_completions(long_id, groq, msg) == long_id
    assert normalize_id_anthropic("a.b:c" + "x" * 70, SONNET, msg) == ("a_b_c" + "x" * 70)[:64]
    gemini = Model(id="gemini-2.5-pro", api="google-generative-ai", provider="google")
    claude_on_google = Model(id="claude-sonnet-4-5", api="google-generative-ai", provider="google-vertex")
    assert normalize_id_google("a.b", gemini, msg) == "a.b"
    assert normalize_id_google("a.b", claude_on_google, msg) == "a_b"


def test_normaliser_not_applied_for_same_model() -> None:
    msg = AssistantMessage(
        content=[ToolCall(id="a|b", name="read")],
        api="anthropic-messages",
        provider="github-copilot",
        model="claude-sonnet-4-5",
        stop_reason="toolUse",
    )
    out: list[Any] = transform_messages([msg], SONNET, normalize_id_anthropic)
    assert out[0].content[0].id == "a|b"
    assert out[1].tool_call_id == "a|b"


def test_output_containers_are_not_shared_with_input() -> None:
    user = UserMessage(content=[TextContent(text="hi")])
    msg = _gpt([TextContent(text="t")], timestamp=1)
    out: list[Any] = transform_messages([user, msg], SONNET)
    out[0].content.append(TextContent(text="extra"))
    out[0].content[0].text = "changed"
    out[1].usage.input = 99
    out[1].content.append(TextContent(text="x"))
    assert user.content == [TextContent(text="hi")]
    assert msg.usage.input == 0 and len(msg.content) == 1
