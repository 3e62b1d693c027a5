"""Unsigned thinking goes back as thinking where the server wants it (pi 0.77.0 #4464, 0.86.0 #9676).

Some Anthropic-compatible servers stream thinking without a signature (the Vercel AI Gateway for several
upstreams, self-hosted relays). pi 0.73 replays such a block as plain assistant text, so the model reads its
own earlier thinking as something it said (and the gateway loses the reasoning turn). With
``compat.allowEmptySignature`` (on by default for the Vercel AI Gateway) it goes back as a thinking block with
an empty signature; elsewhere the text rule stays (Anthropic itself rejects unsigned thinking).
"""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers._anthropic_convert import build_params
from pi_tui.ai.types import AssistantMessage, Context, Model, TextContent, ThinkingContent, UserMessage


def _sent(provider: str, base_url: str, compat: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    model = Model(id="anthropic/claude-sonnet-4.5", api="anthropic-messages", provider=provider,
                  base_url=base_url, reasoning=True, compat=compat)
    reply = AssistantMessage(content=[ThinkingContent(thinking="Check the file first."), TextContent(text="Done.")],
                             api=model.api, provider=model.provider, model=model.id)
    history = [UserMessage(content="q"), reply, UserMessage(content="next")]
    body = build_params(model, Context(messages=history), False, StreamOptions())
    (assistant,) = [m for m in body["messages"] if m["role"] == "assistant"]
    return assistant["content"]  # type: ignore[no-any-return]


def test_vercel_gateway_gets_unsigned_thinking_as_thinking() -> None:
    assert _sent("vercel-ai-gateway", "https://ai-gateway.vercel.sh")[0] == {
        "type": "thinking", "thinking": "Check the file first.", "signature": ""}


@pytest.mark.parametrize(("provider", "url", "compat"), [
    ("my-relay", "https://relay.example", {"allowEmptySignature": True}),
    ("vercel-ai-gateway", "https://ai-gateway.vercel.sh", None),
])
def test_the_flag_or_the_gateway_default(provider: str, url: str, compat: dict[str, Any] | None) -> None:
    assert _sent(provider, url, compat)[0]["type"] == "thinking"


@pytest.mark.parametrize(("provider", "url", "compat"), [
    ("anthropic", "https://api.anthropic.com", None),
    ("vercel-ai-gateway", "https://ai-gateway.vercel.sh", {"allowEmptySignature": False}),
])
def test_elsewhere_unsigned_thinking_stays_text(provider: str, url: str, compat: dict[str, Any] | None) -> None:
    assert _sent(provider, url, compat)[0] == {"type": "text", "text": "Check the file first."}
