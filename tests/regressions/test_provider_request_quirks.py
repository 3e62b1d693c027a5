"""Small request-shape fixes pi shipped after 0.73.1 for OpenAI-compatible providers.

* pi 0.84.2: DeepSeek detection missed base URLs with uppercase hostnames (``https://API.DeepSeek.com``), so such a
  model got OpenAI's thinking format and no ``reasoning_content`` echo (DeepSeek then answers 400 "The
  reasoning_content in the thinking mode must be passed back", earendil-works/pi#3636).
* pi 0.84.2 / 0.83.0 / 0.79.1: DeepSeek, Z.AI and OpenCode take the output limit as ``max_tokens``; pi 0.73.1 sent
  ``max_completion_tokens``, which they ignore (earendil-works/pi#7174, #5331).
* pi 0.79.0: OpenRouter routing preferences (``compat.openRouterRouting``) were dropped for a custom provider
  whose base URL is a proxy in front of OpenRouter.
* pi 0.79.0: the Responses API ignored ``compat.supportsDeveloperRole: false`` (earendil-works/pi#5456).
* pi 0.80.4: Responses requests with ``max_output_tokens`` below the provider minimum (16) were rejected
  (earendil-works/pi#6265).
"""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_responses
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.providers.openai_completions import build_params
from pi_tui.ai.types import Context, Model, UserMessage

CTX = Context(system_prompt="sys", messages=[UserMessage(content="hi")])


def _completions(provider: str, url: str, **kw: Any) -> Model:
    return Model(id="m", api="openai-completions", provider=provider, base_url=url, **kw)


@pytest.mark.parametrize("url", ["https://API.DeepSeek.com/v1", "https://api.deepseek.COM", "HTTPS://API.DEEPSEEK.COM/"])
def test_deepseek_is_recognised_whatever_the_case_of_the_host(url: str) -> None:
    compat = resolve_completions_compat(_completions("my-deepseek", url, reasoning=True))
    assert compat.thinking_format == "deepseek"
    assert compat.requires_reasoning_content_on_assistant_messages


@pytest.mark.parametrize(("provider", "url"), [
    ("deepseek", "https://api.deepseek.com"),
    ("custom", "https://api.deepseek.com/v1"),
    ("zai", "https://api.z.ai/api/paas/v4"),
    ("custom", "https://api.z.ai/api/coding/paas/v4"),
    ("opencode", "https://opencode.ai/zen/v1"),
])
def test_output_limit_field_for_deepseek_zai_opencode(provider: str, url: str) -> None:
    model = _completions(provider, url)
    body = build_params(model, CTX, StreamOptions(max_tokens=4000), resolve_completions_compat(model), "short")
    assert body.get("max_tokens") == 4000 and "max_completion_tokens" not in body


def test_openai_keeps_max_completion_tokens() -> None:
    model = _completions("openai", "https://api.openai.com/v1")
    body = build_params(model, CTX, StreamOptions(max_tokens=4000), resolve_completions_compat(model), "short")
    assert body.get("max_completion_tokens") == 4000


@pytest.mark.parametrize("url", ["https://openrouter.ai/api/v1", "https://llm-proxy.example.com/openrouter/v1"])
def test_openrouter_routing_is_sent_wherever_the_proxy_lives(url: str) -> None:
    routing = {"only": ["anthropic"], "order": ["anthropic"]}
    model = _completions("my-router", url, compat={"openRouterRouting": routing})
    body = build_params(model, CTX, StreamOptions(), resolve_completions_compat(model), "short")
    assert body.get("provider") == routing


def _responses_body(model: Model, options: StreamOptions) -> dict[str, Any]:
    return openai_responses.build_params(model, CTX, options)


def test_responses_honours_supports_developer_role_false() -> None:
    base = dict(id="gpt-5", api="openai-responses", provider="custom", base_url="https://proxy.example/v1", reasoning=True)
    off = _responses_body(Model(**base, compat={"supportsDeveloperRole": False}), StreamOptions())  # type: ignore[arg-type]
    on = _responses_body(Model(**base), StreamOptions())  # type: ignore[arg-type]
    assert off["input"][0]["role"] == "system"
    assert on["input"][0]["role"] == "developer"


@pytest.mark.parametrize(("asked", "sent"), [(1, 16), (15, 16), (16, 16), (5000, 5000)])
def test_responses_max_output_tokens_never_below_the_minimum(asked: int, sent: int) -> None:
    model = Model(id="gpt-5", api="openai-responses", provider="openai", base_url="https://api.openai.com/v1")
    assert _responses_body(model, StreamOptions(max_tokens=asked))["max_output_tokens"] == sent
