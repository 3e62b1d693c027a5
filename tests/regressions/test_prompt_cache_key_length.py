"""OpenAI prompt cache keys stay within 64 characters (pi 0.75.4, earendil-works/pi#4720).

The API answers HTTP 400 ``Invalid 'prompt_cache_key': string too long`` above 64 characters. pi-tui sends the
session id, a 36-character UUID for its own sessions, but SDK callers, RPC/ACP clients and extensions pass
their own ids (a path, a UUID with a prefix, a hash): both Responses and Chat Completions cut the key.
"""

from __future__ import annotations

import pytest

from pi_tui.ai.options import StreamOptions
from pi_tui.ai.providers import openai_responses
from pi_tui.ai.providers._openai_completions_convert import build_params
from pi_tui.ai.providers.openai_compat import resolve_completions_compat
from pi_tui.ai.types import Context, Model, UserMessage

CTX = Context(messages=[UserMessage(content="q")])
LONG = "acp-session-" + "7f3c9e2a-" * 10  # 102 characters
UUID = "0b9d6c4e-7b55-4f0a-9b3e-5d1f4e2c8a11"


@pytest.mark.parametrize(("session", "expected"), [(LONG, LONG[:64]), (UUID, UUID), ("é" * 70, "é" * 64)])
def test_responses_key_is_at_most_64_characters(session: str, expected: str) -> None:
    model = Model(id="gpt-5.4", api="openai-responses", provider="openai", base_url="https://api.openai.com/v1")
    body = openai_responses.build_params(model, CTX, StreamOptions(session_id=session))
    assert body["prompt_cache_key"] == expected


@pytest.mark.parametrize(("session", "expected"), [(LONG, LONG[:64]), (UUID, UUID)])
def test_chat_completions_key_is_at_most_64_characters(session: str, expected: str) -> None:
    model = Model(id="gpt-4.1", api="openai-completions", provider="openai", base_url="https://api.openai.com/v1")
    body = build_params(model, CTX, StreamOptions(session_id=session), resolve_completions_compat(model), "short")
    assert body["prompt_cache_key"] == expected
