"""Thinking ``off`` on OpenRouter models that always reason (pi 0.84.4, earendil-works/pi#8614).

Real reports: OpenRouter answers 400 "Reasoning is mandatory for this endpoint and cannot be disabled" for
DeepSeek R1 with thinking disabled (vellum-ai/vellum-assistant#32428); its ``/models`` lists ``deepseek/deepseek-r1``
and ``openai/gpt-5`` as ``reasoning.mandatory`` (dendrux/dendrux#44). pi 0.73.1 sent ``reasoning: {effort:
"none"}`` to every OpenRouter reasoning model at ``off``, so those models failed on every request.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pi_tui.ai.options import SimpleStreamOptions
from pi_tui.ai.providers import openai_completions
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.providers.openai_completions import build_params
from pi_tui.ai.types import Context, Model, UserMessage
from tests.ai.helpers import ByteChunks, chat_sse, install_handler

URL = "https://openrouter.ai/api/v1"


def _model(model_id: str, **kw: Any) -> Model:
    return Model(id=model_id, api="openai-completions", provider="openrouter", base_url=URL, reasoning=True, **kw)


def _reasoning_sent(model: Model) -> Any:
    ctx = Context(messages=[UserMessage(content="hi")])
    return build_params(model, ctx, None, resolve_completions_compat(model), "short").get("reasoning", "absent")


@pytest.mark.parametrize("model_id", [
    "deepseek/deepseek-r1", "deepseek/deepseek-r1-0528", "openai/o3", "openai/o4-mini-high", "openai/gpt-5",
    "openai/gpt-5-mini", "openai/gpt-oss-120b:free", "qwen/qwen3-235b-a22b-thinking-2507",
    "google/gemini-2.5-pro", "moonshotai/kimi-k2-thinking", "x-ai/grok-3-mini", "~openai/gpt-5-pro",
])
def test_always_reasoning_models_get_no_reasoning_field_at_off(model_id: str) -> None:
    assert _reasoning_sent(_model(model_id)) == "absent"


@pytest.mark.parametrize("model_id", ["qwen/qwen3-32b", "openai/gpt-5.1", "z-ai/glm-4.6", "anthropic/claude-sonnet-4.5"])
def test_switchable_models_still_get_effort_none(model_id: str) -> None:
    assert _reasoning_sent(_model(model_id)) == {"effort": "none"}


def test_compat_flag_and_level_map_decide_first() -> None:
    assert _reasoning_sent(_model("qwen/qwen3-32b", compat={"reasoningMandatory": True})) == "absent"
    assert _reasoning_sent(_model("deepseek/deepseek-r1", compat={"reasoningMandatory": False})) == {"effort": "none"}
    assert _reasoning_sent(_model("vendor/new", thinking_level_map={"off": None})) == "absent"
    assert _reasoning_sent(_model("vendor/new", thinking_level_map={"off": "minimal"})) == {"effort": "minimal"}


@pytest.mark.anyio
async def test_a_model_the_list_misses_is_asked_again_without_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    bodies: list[dict[str, Any]] = []
    refusal = {"error": {"message": "Reasoning is mandatory for this endpoint and cannot be disabled.", "code": 400}}

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        bodies.append(body)
        if "reasoning" in body:
            return httpx.Response(400, json=refusal)
        chunks = [{"choices": [{"index": 0, "delta": {"content": "hello"}, "finish_reason": "stop"}]}]
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, stream=ByteChunks([chat_sse(*chunks)]))

    install_handler(monkeypatch, handler)
    stream = openai_completions.stream_simple(_model("newlab/always-thinks"), Context(messages=[UserMessage(content="hi")]),
                                              SimpleStreamOptions(api_key="k"))
    async for _ in stream:
        pass
    message = await stream.result()
    assert message.stop_reason == "stop", message.error_message
    assert [b.text for b in message.content if b.type == "text"] == ["hello"]
    assert [("reasoning" in b) for b in bodies] == [True, False]


@pytest.mark.anyio
async def test_other_400s_are_not_resent(monkeypatch: pytest.MonkeyPatch) -> None:
    bodies: list[Any] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(request.content)
        return httpx.Response(400, json={"error": {"message": "Invalid model id"}})

    install_handler(monkeypatch, handler)
    stream = openai_completions.stream_simple(_model("newlab/x"), Context(messages=[UserMessage(content="hi")]),
                                              SimpleStreamOptions(api_key="k"))
    async for _ in stream:
        pass
    message = await stream.result()
    assert message.stop_reason == "error" and "Invalid model id" in (message.error_message or "")
    assert len(bodies) == 1
