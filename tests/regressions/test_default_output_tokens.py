"""The default output request fits what the context window leaves (pi 0.75.0, 0.75.4, 0.80.3, 1.1.0, 1.5.1).

Real reports: vLLM answers 400 "This model's maximum context length is 131072 tokens. However, you requested
65535 output tokens and your prompt contains at least 62466 input tokens" (vllm-project/vllm#42474); pi's
sessions wedged on vLLM with ``contextWindow: 131072, maxTokens: 65536`` once the prompt passed the break-even
(earendil-works/pi#4675); local models whose output limit is their whole window were rejected on the first long
prompt (pi#4614); OpenRouter's tokenizer counts several percent more than the provider's (pi#10497).
pi 0.73.1 asked for ``min(model.max_tokens, 32000)`` whatever the prompt.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.output_budget import default_max_tokens, estimate_input_tokens
from pi_tui.ai.providers import anthropic, google, openai_completions, openai_responses
from pi_tui.ai.types import AssistantMessage, Context, Model, TextContent, Usage, UserMessage
from tests.ai.helpers import mock_reads

WINDOW = 131072


def _long_prompt(tokens: int) -> Context:
    return Context(system_prompt="You are a helper.", messages=[UserMessage(content="x" * int(tokens * 3.5))])


def _sent_max_tokens(body: dict[str, Any]) -> int | None:
    for key in ("max_tokens", "max_completion_tokens", "max_output_tokens"):
        if key in body:
            return int(body[key])
    generation = body.get("generationConfig") or {}
    value = generation.get("maxOutputTokens")
    return int(value) if value is not None else None


async def _request_body(monkeypatch: pytest.MonkeyPatch, module: Any, model: Model, context: Context,
                        options: SimpleStreamOptions) -> dict[str, Any]:
    requests: list[httpx.Request] = []
    mock_reads(monkeypatch, [b""], status=500, requests=requests)
    stream = module.stream_simple(model, context, options)
    async for _ in stream:
        pass
    assert requests, "no request was sent"
    body: dict[str, Any] = json.loads(requests[0].content)
    return body


PROVIDERS = [
    (openai_completions, "openai-completions", "vllm", "http://127.0.0.1:8000/v1"),
    (openai_responses, "openai-responses", "openai", "https://api.openai.com/v1"),
    (anthropic, "anthropic-messages", "anthropic", "https://api.anthropic.com"),
    (google, "google-generative-ai", "google", "https://generativelanguage.googleapis.com/v1beta"),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("module", "api", "provider", "url"), PROVIDERS)
async def test_output_limit_equal_to_window_leaves_room_for_the_prompt(
    monkeypatch: pytest.MonkeyPatch, module: Any, api: str, provider: str, url: str
) -> None:
    model = Model(id="local", api=api, provider=provider, base_url=url, context_window=WINDOW, max_tokens=WINDOW)
    context = _long_prompt(110_000)
    body = await _request_body(monkeypatch, module, model, context, SimpleStreamOptions(api_key="k"))
    sent = _sent_max_tokens(body)
    assert sent is not None
    estimate = estimate_input_tokens(context)
    assert estimate >= 110_000
    assert sent + estimate * 1.15 <= WINDOW
    assert sent >= 1024


@pytest.mark.anyio
@pytest.mark.parametrize(("module", "api", "provider", "url"), PROVIDERS)
async def test_short_prompt_keeps_the_usual_default(
    monkeypatch: pytest.MonkeyPatch, module: Any, api: str, provider: str, url: str
) -> None:
    model = Model(id="local", api=api, provider=provider, base_url=url, context_window=WINDOW, max_tokens=WINDOW)
    body = await _request_body(monkeypatch, module, model, _long_prompt(100), SimpleStreamOptions(api_key="k"))
    assert _sent_max_tokens(body) == 32000


@pytest.mark.anyio
async def test_vllm_half_window_output_limit_past_the_break_even(monkeypatch: pytest.MonkeyPatch) -> None:
    # pi#4675: contextWindow 131072, maxTokens 65536; a prompt of 100k tokens left 31k, pi asked for 32k/65k.
    model = Model(id="qwen", api="openai-completions", provider="vllm", base_url="http://127.0.0.1:8000/v1",
                  context_window=WINDOW, max_tokens=65536)
    context = _long_prompt(100_000)
    body = await _request_body(monkeypatch, openai_completions, model, context, SimpleStreamOptions(api_key="k"))
    sent = _sent_max_tokens(body)
    assert sent is not None and sent + 100_000 < WINDOW


@pytest.mark.anyio
async def test_explicit_max_tokens_is_sent_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    model = Model(id="qwen", api="openai-completions", provider="vllm", base_url="http://127.0.0.1:8000/v1",
                  context_window=WINDOW, max_tokens=WINDOW)
    body = await _request_body(monkeypatch, openai_completions, model, _long_prompt(110_000),
                               SimpleStreamOptions(api_key="k", max_tokens=50_000))
    assert _sent_max_tokens(body) == 50_000


@pytest.mark.anyio
async def test_anthropic_thinking_budget_stays_inside_the_window(monkeypatch: pytest.MonkeyPatch) -> None:
    model = Model(id="claude-sonnet-4-0", api="anthropic-messages", provider="anthropic",
                  base_url="https://api.anthropic.com", reasoning=True, context_window=200_000, max_tokens=64_000)
    context = _long_prompt(150_000)
    body = await _request_body(monkeypatch, anthropic, model, context,
                               SimpleStreamOptions(api_key="k", reasoning="high"))
    estimate = estimate_input_tokens(context)
    assert body["max_tokens"] + estimate * 1.15 <= 200_000
    assert body["thinking"]["budget_tokens"] < body["max_tokens"]


def test_reported_usage_is_the_input_estimate_up_to_that_reply() -> None:
    # The provider's own count (here 100k) wins over characters; later messages are added by characters.
    model = Model(id="m", api="openai-completions", provider="vllm", context_window=WINDOW, max_tokens=WINDOW)
    reply = AssistantMessage(content=[TextContent(text="ok")], usage=Usage(input=99_990, output=10))
    context = Context(messages=[UserMessage(content="short"), reply, UserMessage(content="y" * 3500)])
    assert estimate_input_tokens(context) == 100_000 + 1000
    assert default_max_tokens(model, context) == WINDOW - 116_150


def test_errored_reply_usage_is_not_trusted() -> None:
    reply = AssistantMessage(content=[], usage=Usage(input=999_999), stop_reason="error")
    context = Context(messages=[UserMessage(content="z" * 35), reply])
    assert estimate_input_tokens(context) == 10


def test_full_window_still_requests_a_minimum() -> None:
    model = Model(id="m", api="openai-completions", provider="vllm", context_window=8192, max_tokens=8192)
    assert default_max_tokens(model, _long_prompt(9000)) == 1024
    assert default_max_tokens(Model(id="m", api="x", provider="p", max_tokens=0), None) is None
