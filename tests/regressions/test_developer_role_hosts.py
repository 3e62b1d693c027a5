"""pi 1.6.0: reasoning models on Groq, OpenRouter, Mistral and Hugging Face were sent the system prompt with the
OpenAI-only ``developer`` role (Groq answers HTTP 400 for Qwen 3); every OpenAI-compatible server but OpenAI gets
``system`` now. OpenAI keeps ``developer``; ``compat.supportsDeveloperRole`` can still turn it on."""

from __future__ import annotations

import pytest

from pi_tui.ai.providers.openai_compat import detect_completions_compat
from pi_tui.ai.types import Model


@pytest.mark.parametrize(
    ("provider", "url", "developer"),
    [
        ("openai", "https://api.openai.com/v1", True),
        ("groq", "https://api.groq.com/openai/v1", False),
        ("openrouter", "https://openrouter.ai/api/v1", False),
        ("mistral", "https://api.mistral.ai/v1", False),
        ("huggingface", "https://router.huggingface.co/v1", False),
        ("my-proxy", "https://api.groq.com/openai/v1", False),
        ("ollama", "http://localhost:11434/v1", False),
        ("vllm", "http://127.0.0.1:8000/v1", False),
        ("my-openai", "https://api.openai.com/v1", True),
    ],
)
def test_developer_role_only_where_it_is_understood(provider: str, url: str, developer: bool) -> None:
    model = Model(id="qwen/qwen3-32b", api="openai-completions", provider=provider, base_url=url, reasoning=True)
    assert detect_completions_compat(model).supports_developer_role is developer
