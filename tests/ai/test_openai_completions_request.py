"""openai-completions request side: compat detection, body, messages, headers, keys, errors (§1.9, §7.1)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import SimpleStreamOptions, StreamOptions
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.providers.openai_completions import build_params, convert_messages, map_finish_reason
from pi_tui.ai.stream import stream_simple
from pi_tui.ai.types import (
    AssistantMessage,
    Context,
    ImageContent,
    Model,
    TextContent,
    ThinkingContent,
    Tool,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)

from .helpers import chat_sse, mock_reads

DONE = chat_sse({"choices": [{"index": 0, "delta": {"content": "ok"}, "finish_reason": "stop"}]})


def _model(**kw: Any) -> Model:
    base = {
        "id": "gpt-x",
        "api": "openai-completions",
        "provider": "openai",
        "base_url": "https://api.openai.com/v1",
    }
    base.update(kw)
    return Model(**base)


@pytest.mark.parametrize(
    ("provider", "url", "store", "dev", "effort", "field", "fmt", "strict"),
    [
        ("openai", "https://api.openai.com/v1", True, True, True, "max_completion_tokens", "openai", True),
        ("xai", "https://api.x.ai/v1", False, False, False, "max_completion_tokens", "openai", True),
        ("custom", "https://api.deepseek.com", False, False, True, "max_tokens", "deepseek", True),  # pi 0.84.2
        ("zai", "https://api.z.ai/api/paas/v4", False, False, False, "max_tokens", "zai", True),  # pi 0.83.0
        ("moonshotai", "https://api.moonshot.ai/v1", False, False, False, "max_tokens", "openai", False),
        (  # no "developer" role on OpenRouter or Groq (pi 1.6.0; tests/regressions/test_developer_role_hosts.py)
            "openrouter",
            "https://openrouter.ai/api/v1",
            True,
            False,
            True,
            "max_completion_tokens",
            "openrouter",
            True,
        ),
        ("groq", "https://api.groq.com/openai/v1", True, False, True, "max_completion_tokens", "openai", True),
        ("x", "https://llm.chutes.ai/v1", False, False, True, "max_tokens", "openai", True),
    ],
)
def test_compat_auto_detection(
    provider: str, url: str, store: bool, dev: bool, effort: bool, field: str, fmt: str, strict: bool
) -> None:
    c = resolve_completions_compat(_model(provider=provider, base_url=url))
    assert (c.supports_store, c.supports_developer_role, c.supports_reasoning_effort) == (store, dev, effort)
    assert (c.max_tokens_field, c.thinking_format, c.supports_strict_mode) == (field, fmt, strict)


def test_explicit_compat_wins_over_detection() -> None:
    m = _model(
        provider="xai",
        base_url="https://api.x.ai/v1",
        compat={"supportsStore": True, "thinkingFormat": "qwen"},
    )
    c = resolve_completions_compat(m)
    assert c.supports_store is True and c.thinking_format == "qwen"
    assert c.supports_developer_role is False  # still detected


def test_body_for_openai_reasoning_model_with_tools() -> None:
    m = _model(reasoning=True)
    ctx = Context(
        system_prompt="be brief",
        messages=[UserMessage(content="hi")],
        tools=[Tool(name="ls", description="list", parameters={"type": "object", "properties": {}})],
    )
    opts = StreamOptions(max_tokens=100, temperature=0.2, session_id="s1", extra={"reasoning_effort": "high"})
    body = build_params(m, ctx, opts, resolve_completions_compat(m), "short")
    assert body["messages"][0] == {"role": "developer", "content": "be brief"}
    assert body["stream"] is True and body["store"] is False
    assert body["stream_options"] == {"include_usage": True}
    assert body["max_completion_tokens"] == 100 and body["temperature"] == 0.2
    assert body["reasoning_effort"] == "high"
    assert body["prompt_cache_key"] == "s1"
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "ls",
                "description": "list",
                "parameters": {"type": "object", "properties": {}},
                "strict": False,
            },
        }
    ]


@pytest.mark.parametrize(
    ("provider", "url", "effort", "expected"),
    [
        (
            "deepseek",
            "https://api.deepseek.com",
            "high",
            {"thinking": {"type": "enabled"}, "reasoning_effort": "high"},
        ),
        ("deepseek", "https://api.deepseek.com", None, {"thinking": {"type": "disabled"}}),
        ("zai", "https://api.z.ai/v4", "low", {"thinking": {"type": "enabled", "clear_thinking": False}}),
        ("zai", "https://api.z.ai/v4", None, {"thinking": {"type": "disabled"}}),
        ("openrouter", "https://openrouter.ai/api/v1", None, {"reasoning": {"effort": "none"}}),
        ("openrouter", "https://openrouter.ai/api/v1", "medium", {"reasoning": {"effort": "medium"}}),
    ],
)
def test_reasoning_parameter_per_thinking_format(
    provider: str, url: str, effort: str | None, expected: dict[str, Any]
) -> None:
    m = _model(provider=provider, base_url=url, reasoning=True)
    extra = {"reasoning_effort": effort} if effort else {}
    body = build_params(
        m,
        Context(messages=[UserMessage(content="x")]),
        StreamOptions(extra=extra),
        resolve_completions_compat(m),
        "short",
    )
    for key, value in expected.items():
        assert body[key] == value
    assert "reasoning_effort" in body if "reasoning_effort" in expected else "reasoning_effort" not in body


def test_tools_empty_list_when_history_has_tool_calls() -> None:
    call = ToolCall(id="c1", name="ls", arguments={})
    msgs = [
        UserMessage(content="x"),
        AssistantMessage(
            content=[call], api="openai-completions", provider="openai", model="gpt-x", stop_reason="toolUse"
        ),
        ToolResultMessage(tool_call_id="c1", tool_name="ls", content=[TextContent(text="a")]),
    ]
    m = _model()
    body = build_params(m, Context(messages=msgs), None, resolve_completions_compat(m), "short")
    assert body["tools"] == []


def test_message_conversion_replays_thinking_tool_calls_and_images() -> None:
    m = _model(
        input=["text", "image"],
        compat={"requiresToolResultName": True, "requiresAssistantAfterToolResult": True},
    )
    img = ImageContent(data="QUJD", mime_type="image/png")
    assistant = AssistantMessage(
        content=[
            ThinkingContent(thinking="think", thinking_signature="reasoning_content"),
            TextContent(text="  "),
            TextContent(text="answer"),
            ToolCall(id="c1|item", name="read", arguments={"p": 1}),
        ],
        api="openai-completions",
        provider="openai",
        model="gpt-x",
        stop_reason="toolUse",
    )
    msgs = [
        UserMessage(content=[TextContent(text="look"), img]),
        assistant,
        ToolResultMessage(tool_call_id="c1|item", tool_name="read", content=[img]),
        UserMessage(content="next"),
    ]
    out = convert_messages(m, Context(messages=msgs), resolve_completions_compat(m))
    assert out[0] == {
        "role": "user",
        "content": [
            {"type": "text", "text": "look"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,QUJD"}},
        ],
    }
    # A plain OpenAI endpoint never gets reasoning back (DIFFERENCES.md P2; pi 0.73.1 sent reasoning_content).
    assert out[1]["content"] == "answer" and "reasoning_content" not in out[1]
    assert out[1]["tool_calls"] == [
        {"id": "c1|item", "type": "function", "function": {"name": "read", "arguments": '{"p":1}'}}
    ]
    assert out[2] == {
        "role": "tool",
        "content": "(see attached image)",
        "tool_call_id": "c1|item",
        "name": "read",
    }
    assert out[3] == {"role": "assistant", "content": "I have processed the tool results."}
    assert out[4]["role"] == "user" and out[4]["content"][0]["text"] == "Attached image(s) from tool result:"
    assert out[5] == {"role": "user", "content": "next"}


def test_finish_reason_mapping() -> None:
    assert map_finish_reason("stop") == ("stop", None)
    assert map_finish_reason("length") == ("length", None)
    assert map_finish_reason("function_call") == ("toolUse", None)
    assert map_finish_reason("content_filter") == ("error", "Provider finish_reason: content_filter")


async def _run(
    monkeypatch: pytest.MonkeyPatch, body: bytes, model: Model, options: Any
) -> tuple[list[Any], AssistantMessage]:
    mock_reads(monkeypatch, [body])
    s = stream_simple(model, Context(messages=[UserMessage(content="q")]), options)
    events = [e async for e in s]
    return events, await s.result()


@pytest.mark.anyio
async def test_error_object_inside_http_200_stream_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    body = chat_sse(
        {"choices": [{"index": 0, "delta": {"content": "par"}, "finish_reason": None}]},
        {"error": {"message": "upstream overloaded", "code": 502, "metadata": {"raw": "provider said no"}}},
    )
    events, result = await _run(monkeypatch, body, _model(), SimpleStreamOptions(api_key="k"))
    assert result.stop_reason == "error"
    assert result.error_message == "upstream overloaded\nprovider said no"
    assert result.content[0].text == "par"
    assert events[-1].type == "error"


@pytest.mark.anyio
async def test_content_filter_finish_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    body = chat_sse({"choices": [{"index": 0, "delta": {}, "finish_reason": "content_filter"}]})
    _, result = await _run(monkeypatch, body, _model(), SimpleStreamOptions(api_key="k"))
    assert result.stop_reason == "error"
    assert result.error_message == "Provider finish_reason: content_filter"


@pytest.mark.anyio
async def test_no_api_key_is_an_error_event(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    events, result = await _run(
        monkeypatch, DONE, _model(provider="groq", base_url="https://api.groq.com/openai/v1"), None
    )
    assert [e.type for e in events] == ["error"]
    assert result.error_message == "No API key for provider: groq"


@pytest.mark.anyio
async def test_env_key_and_headers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROQ_API_KEY", "gk")
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [DONE], requests=requests)
    m = _model(provider="groq", base_url="https://api.groq.com/openai/v1", headers={"X-Model": "1"})
    opts = SimpleStreamOptions(headers={"X-Opt": "2"})
    result = await stream_simple(m, Context(messages=[UserMessage(content="q")]), opts).result()
    assert result.stop_reason == "stop"
    req = requests[0]
    assert str(req.url) == "https://api.groq.com/openai/v1/chat/completions"
    assert req.headers["authorization"] == "Bearer gk"
    assert req.headers["x-model"] == "1" and req.headers["x-opt"] == "2"
    sent = json.loads(req.content)
    assert sent["max_completion_tokens"] == 16384  # min(model.max_tokens, 32000)


@pytest.mark.anyio
async def test_local_server_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [DONE], requests=requests)
    m = _model(provider="ollama", base_url="http://localhost:11434/v1")
    result = await stream_simple(m, Context(messages=[UserMessage(content="q")]), None).result()
    assert result.stop_reason == "stop"
    assert "authorization" not in requests[0].headers


@pytest.mark.anyio
async def test_stream_simple_maps_and_clamps_reasoning(monkeypatch: pytest.MonkeyPatch) -> None:
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [DONE], requests=requests)
    m = _model(reasoning=True, thinking_level_map={"xhigh": "max"})
    await stream_simple(
        m, Context(messages=[UserMessage(content="q")]), SimpleStreamOptions(api_key="k", reasoning="xhigh")
    ).result()
    assert json.loads(requests[0].content)["reasoning_effort"] == "max"
    await stream_simple(
        m, Context(messages=[UserMessage(content="q")]), SimpleStreamOptions(api_key="k")
    ).result()
    assert "reasoning_effort" not in json.loads(requests[1].content)


@pytest.mark.anyio
async def test_usage_cache_fields_and_cost(monkeypatch: pytest.MonkeyPatch) -> None:
    usage = {
        "prompt_tokens": 100,
        "completion_tokens": 10,
        "prompt_tokens_details": {"cached_tokens": 60, "cache_write_tokens": 20},
    }
    body = chat_sse({"id": "x", "model": "gpt-x-2025", "choices": [], "usage": usage})
    m = _model(cost={"input": 1.0, "output": 2.0, "cacheRead": 0.5, "cacheWrite": 1.5})
    _, result = await _run(monkeypatch, body, m, SimpleStreamOptions(api_key="k"))
    u = result.usage
    # cached_tokens are reads as reported (pi 0.74.1; pi 0.73 subtracted the writes: DIFFERENCES P16)
    assert (u.input, u.output, u.cache_read, u.cache_write, u.total_tokens) == (20, 10, 60, 20, 110)
    assert u.cost.total == pytest.approx((20 * 1 + 10 * 2 + 60 * 0.5 + 20 * 1.5) / 1e6)
    assert result.response_model == "gpt-x-2025"


@pytest.mark.anyio
async def test_non_streamed_json_answer_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = {
        "id": "cmpl",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "whole",
                    "tool_calls": [
                        {"id": "t1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"prompt_tokens": 3, "completion_tokens": 2},
    }
    mock_reads(monkeypatch, [json.dumps(answer).encode()], headers={"content-type": "application/json"})
    result = await stream_simple(
        _model(), Context(messages=[UserMessage(content="q")]), SimpleStreamOptions(api_key="k")
    ).result()
    assert [b.type for b in result.content] == ["text", "toolCall"]
    assert result.content[0].text == "whole" and result.content[1].id == "t1"
    assert result.stop_reason == "toolUse" and result.usage.output == 2


@pytest.mark.anyio
async def test_json_error_body_with_status_200_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    mock_reads(
        monkeypatch,
        [b'{"error": {"message": "model not loaded"}}'],
        headers={"content-type": "application/json"},
    )
    result = await stream_simple(
        _model(), Context(messages=[UserMessage(content="q")]), SimpleStreamOptions(api_key="k")
    ).result()
    assert result.stop_reason == "error"
    assert result.error_message == "model not loaded"
