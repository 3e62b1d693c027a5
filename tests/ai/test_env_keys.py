"""Env-var API keys (pi-reference §1.13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.env_keys import AUTHENTICATED, ENV_API_KEYS, find_env_keys, get_env_api_key


def test_first_set_variable_wins() -> None:
    env = {"ANTHROPIC_API_KEY": "sk-api", "ANTHROPIC_OAUTH_TOKEN": "sk-ant-oat-1"}
    assert get_env_api_key("anthropic", env) == "sk-ant-oat-1"
    assert find_env_keys("anthropic", env) == ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"]
    assert get_env_api_key("anthropic", {"ANTHROPIC_API_KEY": "sk-api"}) == "sk-api"
    assert get_env_api_key("github-copilot", {"GITHUB_TOKEN": "g", "GH_TOKEN": "h"}) == "h"


def test_empty_values_are_not_set() -> None:
    assert get_env_api_key("openai", {"OPENAI_API_KEY": ""}) is None
    assert find_env_keys("openai", {"OPENAI_API_KEY": ""}) == []


@pytest.mark.parametrize(
    ("provider", "var"),
    [
        ("openai", "OPENAI_API_KEY"),
        ("google", "GEMINI_API_KEY"),
        ("deepseek", "DEEPSEEK_API_KEY"),
        ("groq", "GROQ_API_KEY"),
        ("cerebras", "CEREBRAS_API_KEY"),
        ("xai", "XAI_API_KEY"),
        ("openrouter", "OPENROUTER_API_KEY"),
        ("vercel-ai-gateway", "AI_GATEWAY_API_KEY"),
        ("zai", "ZAI_API_KEY"),
        ("mistral", "MISTRAL_API_KEY"),
        ("minimax-cn", "MINIMAX_CN_API_KEY"),
        ("moonshotai", "MOONSHOT_API_KEY"),
        ("moonshotai-cn", "MOONSHOT_API_KEY"),
        ("huggingface", "HF_TOKEN"),
        ("opencode-go", "OPENCODE_API_KEY"),
        ("kimi-coding", "KIMI_API_KEY"),
        ("xiaomi-token-plan-sgp", "XIAOMI_TOKEN_PLAN_SGP_API_KEY"),
    ],
)
def test_table(provider: str, var: str) -> None:
    assert ENV_API_KEYS[provider] == (var,)
    assert get_env_api_key(provider, {var: "k"}) == "k"


def test_oauth_only_and_unknown_providers_have_no_env_key() -> None:
    env = {"OPENAI_API_KEY": "k"}
    assert get_env_api_key("openai-codex", env) is None
    assert get_env_api_key("nope", env) is None
    assert find_env_keys("nope", env) == []


def test_bedrock_ambient_credentials() -> None:
    assert get_env_api_key("amazon-bedrock", {"AWS_PROFILE": "dev"}) == AUTHENTICATED
    assert get_env_api_key("amazon-bedrock", {"AWS_ACCESS_KEY_ID": "a"}) is None
    assert (
        get_env_api_key("amazon-bedrock", {"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "s"})
        == AUTHENTICATED
    )
    assert get_env_api_key("amazon-bedrock", {"AWS_WEB_IDENTITY_TOKEN_FILE": "/t"}) == AUTHENTICATED
    assert find_env_keys("amazon-bedrock", {"AWS_PROFILE": "dev"}) == []


def test_vertex_key_or_adc(tmp_path: Path) -> None:
    assert get_env_api_key("google-vertex", {"GOOGLE_CLOUD_API_KEY": "v"}) == "v"
    creds = tmp_path / "adc.json"
    creds.write_text("{}")
    env = {
        "GOOGLE_APPLICATION_CREDENTIALS": str(creds),
        "GOOGLE_CLOUD_PROJECT": "p",
        "GOOGLE_CLOUD_LOCATION": "l",
    }
    assert get_env_api_key("google-vertex", env) == AUTHENTICATED
    assert get_env_api_key("google-vertex", {**env, "GOOGLE_CLOUD_LOCATION": ""}) is None
    missing = {**env, "GOOGLE_APPLICATION_CREDENTIALS": str(tmp_path / "missing.json")}
    assert get_env_api_key("google-vertex", missing) is None


def test_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GROQ_API_KEY", "gsk-test")
    assert get_env_api_key("groq") == "gsk-test"
    monkeypatch.delenv("GROQ_API_KEY")
    assert get_env_api_key("groq") is None
