"""Reasoning goes back to the servers that require it, and only to them (issue 10, class 4).

Real reports: DeepSeek V4 / deepseek-reasoner with tools answer 400 ``The reasoning_content in the thinking
mode must be passed back to the API`` / ``Missing reasoning_content field in the assistant message at message
index 2`` (earendil-works/pi#3636, abhigyanpatwari/GitNexus#43); Cerebras answers 400 ``property
'messages.2.assistant.reasoning_content' is unsupported`` (Kilo-Org/kilocode#10375) and OpenAI's schema rejects
unknown message fields. Servers name the delta field ``reasoning_content`` (DeepSeek, llama.cpp), ``reasoning``
(vLLM >= 0.10, Groq, OpenRouter, Ollama) or ``reasoning_text``; both must become thinking, once.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.providers.openai_completions import convert_messages
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
from tests.ai.helpers import chat_sse, mock_reads


def _model(provider: str, url: str, model_id: str = "m", **kw: Any) -> Model:
    return Model(id=model_id, api="openai-completions", provider=provider, base_url=url, reasoning=True, **kw)


def _history(model: Model, field: str) -> list[Any]:
    assistant = AssistantMessage(
        content=[ThinkingContent(thinking="plan", thinking_signature=field),
                 ToolCall(id="call_1", name="ls", arguments={})],
        api=model.api, provider=model.provider, model=model.id, stop_reason="toolUse",
    )
    return [
        UserMessage(content="go"),
        assistant,
        ToolResultMessage(tool_call_id="call_1", tool_name="ls", content=[TextContent(text="a")]),
    ]


def _assistant_sent(model: Model, field: str = "reasoning_content") -> dict[str, Any]:
    out = convert_messages(model, Context(messages=_history(model, field)), resolve_completions_compat(model))
    (assistant,) = [m for m in out if m["role"] == "assistant"]
    return assistant


@pytest.mark.parametrize(
    ("provider", "url"),
    [
        ("openai", "https://api.openai.com/v1"),
        ("cerebras", "https://api.cerebras.ai/v1"),
        ("groq", "https://api.groq.com/openai/v1"),
        ("xai", "https://api.x.ai/v1"),
        ("custom", "https://llm.example.com/v1"),
    ],
)
@pytest.mark.parametrize("field", ["reasoning_content", "reasoning", "reasoning_text"])
def test_plain_and_strict_endpoints_never_get_reasoning_back(provider: str, url: str, field: str) -> None:
    sent = _assistant_sent(_model(provider, url), field)
    assert not {"reasoning_content", "reasoning", "reasoning_text"} & set(sent), sent
    assert sent["tool_calls"][0]["id"] == "call_1"


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_deepseek_gets_reasoning_content_back_on_tool_turns(field: str) -> None:
    sent = _assistant_sent(_model("deepseek", "https://api.deepseek.com", "deepseek-reasoner"), field)
    assert sent["reasoning_content"] == "plan"
    assert "reasoning" not in sent


@pytest.mark.parametrize(
    ("provider", "url", "field"),
    [
        ("moonshotai", "https://api.moonshot.ai/v1", "reasoning_content"),
        ("zai", "https://api.z.ai/api/paas/v4", "reasoning_content"),
        ("openrouter", "https://openrouter.ai/api/v1", "reasoning"),
    ],
)
def test_servers_that_keep_reasoning_get_it_under_their_field(provider: str, url: str, field: str) -> None:
    assert _assistant_sent(_model(provider, url), field)[field] == "plan"


def test_compat_flag_overrides_detection_both_ways() -> None:
    on = _model("vllm", "http://127.0.0.1:8000/v1", compat={"echoReasoning": True})
    assert _assistant_sent(on, "reasoning")["reasoning"] == "plan"
    off = _model("deepseek", "https://api.deepseek.com", compat={"echoReasoning": False})
    assert _assistant_sent(off)["reasoning_content"] == ""  # DeepSeek's required (empty) field stays
    qwen = _model("local", "http://127.0.0.1:8080/v1", compat={"thinkingFormat": "qwen-chat-template"})
    assert _assistant_sent(qwen)["reasoning_content"] == "plan"


@pytest.mark.anyio
@pytest.mark.parametrize("field", ["reasoning_content", "reasoning", "reasoning_text"])
async def test_each_reasoning_delta_field_becomes_one_thinking_block(
    monkeypatch: pytest.MonkeyPatch, field: str
) -> None:
    model = _model("deepseek", "https://api.deepseek.com", "deepseek-reasoner")
    chunks = [
        {"choices": [{"index": 0, "delta": {field: "a"}}]},
        # chutes.ai & co. send the same text under two fields: counted once
        {"choices": [{"index": 0, "delta": {field: "b", "reasoning": "b"} if field != "reasoning" else {field: "b"}}]},
        {"choices": [{"index": 0, "delta": {"content": "done"}, "finish_reason": "stop"}]},
    ]
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [chat_sse(*chunks)], requests=requests)
    s = openai_completions.stream(model, Context(messages=[UserMessage(content="q")]), StreamOptions(api_key="k"))
    msg = await s.result()
    thinking = [b for b in msg.content if b.type == "thinking"]
    assert [t.thinking for t in thinking] == ["ab"]
    assert thinking[0].thinking_signature == field
    # the next request to DeepSeek carries it back as reasoning_content
    mock_reads(monkeypatch, [chat_sse(chunks[-1])], requests=requests)
    history = [UserMessage(content="q"), msg, UserMessage(content="more")]
    await openai_completions.stream(model, Context(messages=history), StreamOptions(api_key="k")).result()
    body = json.loads(requests[-1].content)
    assert body["messages"][1]["reasoning_content"] == "ab"
