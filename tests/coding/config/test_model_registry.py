"""ModelRegistry: catalogue + models.json, availability and per-request keys (pi-reference §3.16, §3.2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.ai.models import get_models, get_providers
from pi_tui.coding.config.auth import AuthStorage, clear_command_cache
from pi_tui.coding.config.model_registry import ModelRegistry
from pi_tui.coding.config.models_json import is_loopback_url

MOCK_PROVIDER = {
    "baseUrl": "http://127.0.0.1:8080/v1",
    "api": "openai-completions",
    "apiKey": "test-key",
    "models": [{"id": "mock-model", "name": "Mock Model", "reasoning": False, "input": ["text"]}],
}


def _registry(tmp_path: Path, config: object | str, auth: AuthStorage | None = None) -> ModelRegistry:
    path = tmp_path / "models.json"
    path.write_text(config if isinstance(config, str) else json.dumps(config))
    clear_command_cache()
    return ModelRegistry(auth or AuthStorage.in_memory(), path)


def test_builtin_catalogue_without_models_json(tmp_path: Path) -> None:
    registry = ModelRegistry(AuthStorage.in_memory(), tmp_path / "missing.json")
    assert registry.error is None
    assert len(registry.get_all()) == sum(len(get_models(p)) for p in get_providers())
    assert registry.get_available() == []
    assert registry.find("anthropic", "claude-opus-4-7") is not None


def test_pi_trace_models_json_defines_an_available_model(tmp_path: Path) -> None:
    registry = _registry(tmp_path, {"providers": {"mock": MOCK_PROVIDER}})
    model = registry.find("mock", "mock-model")
    assert model is not None
    assert (model.api, model.base_url, model.name) == (
        "openai-completions",
        "http://127.0.0.1:8080/v1",
        "Mock Model",
    )
    assert (model.context_window, model.max_tokens, model.reasoning, model.input) == (
        128000,
        16384,
        False,
        ["text"],
    )
    assert model.cost.input == 0 and model.cost.cache_write == 0
    assert [m.id for m in registry.get_available()] == ["mock-model"]
    auth = registry.get_api_key_and_headers(model)
    assert auth.ok and auth.api_key == "test-key" and auth.headers is None
    assert "test-key" not in repr(auth)


def test_key_priority_cli_auth_env_models_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = {"providers": {"groq": {"apiKey": "json-key", "baseUrl": "https://example.test/v1"}}}
    auth = AuthStorage.in_memory({})
    registry = _registry(tmp_path, config, auth)
    groq = next(m for m in registry.get_all() if m.provider == "groq")
    assert groq.base_url == "https://example.test/v1"  # provider-level baseUrl override
    assert registry.get_api_key_and_headers(groq).api_key == "json-key"
    monkeypatch.setenv("GROQ_API_KEY", "env-key")
    assert registry.get_api_key_and_headers(groq).api_key == "env-key"
    auth.set("groq", {"type": "api_key", "key": "stored-key"})
    assert registry.get_api_key_and_headers(groq).api_key == "stored-key"
    assert registry.get_api_key_and_headers(groq, cli_api_key="cli-key").api_key == "cli-key"
    assert registry.get_api_key_for_provider("groq") == "stored-key"


def test_localhost_provider_needs_no_key(tmp_path: Path) -> None:
    config = {
        "providers": {
            "ollama": {
                "baseUrl": "http://localhost:11434/v1",
                "api": "openai-completions",
                "compat": {"supportsDeveloperRole": False},
                "models": [
                    {"id": "qwen3:8b", "contextWindow": 32768, "compat": {"supportsStrictMode": False}}
                ],
            }
        }
    }
    registry = _registry(tmp_path, config)
    assert registry.error is None
    model = registry.find("ollama", "qwen3:8b")
    assert model is not None and model.context_window == 32768
    assert model.compat == {"supportsDeveloperRole": False, "supportsStrictMode": False}
    assert registry.get_available() == [model]
    result = registry.get_api_key_and_headers(model)
    assert result.ok and result.api_key is None
    assert registry.get_provider_auth_status("ollama") == {"configured": True, "source": "local_server"}


def test_remote_custom_provider_requires_api_key(tmp_path: Path) -> None:
    config = {
        "providers": {
            "remote": {
                "baseUrl": "https://llm.example.com/v1",
                "api": "openai-completions",
                "models": [{"id": "m"}],
            }
        }
    }
    registry = _registry(tmp_path, config)
    assert registry.error is not None
    assert 'Provider remote: "apiKey" is required when defining custom models.' in registry.error
    assert registry.find("remote", "m") is None
    assert registry.find("anthropic", "claude-opus-4-7") is not None  # built-ins kept


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ("{not json", "Failed to parse models.json"),
        ({"providers": {"x": {"models": [{"name": "no id"}]}}}, "providers.x.models.0.id"),
        (
            {"providers": {"x": {"baseUrl": "http://localhost", "models": [{"id": "m"}]}}},
            'no "api" specified',
        ),
        ({"providers": {"x": {}}}, 'must specify "baseUrl"'),
        ({"providers": {"x": {"bogus": 1, "baseUrl": "http://a"}}}, "providers.x.bogus: unknown property"),
        (
            {
                "providers": {
                    "x": {"baseUrl": "http://localhost", "api": "a", "models": [{"id": "m", "maxTokens": 0}]}
                }
            },
            "invalid maxTokens",
        ),
    ],
)
def test_invalid_models_json_reports_clear_errors(tmp_path: Path, config: object, expected: str) -> None:
    registry = _registry(tmp_path, config)
    assert registry.error is not None and expected in registry.error
    assert str(tmp_path / "models.json") in registry.error


def test_jsonc_comments_and_trailing_commas(tmp_path: Path) -> None:
    text = """{
      // local server
      "providers": {"lm": {"baseUrl": "http://127.0.0.1:1234/v1", /* block */ "api": "openai-completions",
        "models": [{"id": "a//b", "name": "has // inside"},],},},
    }"""
    registry = _registry(tmp_path, text)
    assert registry.error is None
    model = registry.find("lm", "a//b")
    assert model is not None and model.name == "has // inside"


def test_model_overrides_merge_into_builtins(tmp_path: Path) -> None:
    config = {
        "providers": {
            "anthropic": {
                "modelOverrides": {
                    "claude-opus-4-7": {
                        "name": "Opus (proxied)",
                        "cost": {"input": 1.5},
                        "headers": {"X-Team": "core"},
                    }
                }
            }
        }
    }
    registry = _registry(
        tmp_path, config, AuthStorage.in_memory({"anthropic": {"type": "api_key", "key": "k"}})
    )
    original = next(m for m in get_models("anthropic") if m.id == "claude-opus-4-7")
    model = registry.find("anthropic", "claude-opus-4-7")
    assert model is not None and model.name == "Opus (proxied)"
    assert model.cost.input == 1.5 and model.cost.output == original.cost.output
    headers = registry.get_api_key_and_headers(model).headers
    assert headers is not None and headers["X-Team"] == "core"


def test_custom_model_replaces_builtin_with_same_id(tmp_path: Path) -> None:
    config = {"providers": {"anthropic": {"models": [{"id": "claude-opus-4-7", "contextWindow": 5000}]}}}
    registry = _registry(tmp_path, config)
    matches = [m for m in registry.get_all() if m.provider == "anthropic" and m.id == "claude-opus-4-7"]
    assert len(matches) == 1 and matches[0].context_window == 5000
    assert matches[0].api == get_models("anthropic")[0].api  # api inherited from the built-in provider


def test_headers_auth_header_and_command_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY_VAR", "env-header")
    config = {
        "providers": {
            "corp": {
                "baseUrl": "https://corp.example/v1",
                "api": "openai-completions",
                "apiKey": "!echo cmd-key",
                "authHeader": True,
                "headers": {"X-Env": "MY_KEY_VAR", "X-Lit": "literal"},
                "models": [{"id": "m", "headers": {"X-Model": "1"}}],
            },
            "broken": {
                "baseUrl": "https://b.example",
                "api": "openai-completions",
                "apiKey": "!exit 1",
                "models": [{"id": "m"}],
            },
        }
    }
    registry = _registry(tmp_path, config)
    corp = registry.find("corp", "m")
    assert corp is not None
    result = registry.get_api_key_and_headers(corp)
    assert result.ok and result.api_key == "cmd-key"
    assert result.headers == {
        "X-Env": "env-header",
        "X-Lit": "literal",
        "X-Model": "1",
        "Authorization": "Bearer cmd-key",
    }
    assert registry.get_provider_auth_status("corp") == {"configured": True, "source": "models_json_command"}
    broken = registry.find("broken", "m")
    assert broken is not None
    failed = registry.get_api_key_and_headers(broken)
    assert (
        not failed.ok
        and failed.error == 'Failed to resolve API key for provider "broken" from shell command: exit 1 (exit 1)'
    )


def test_loopback_detection() -> None:
    assert is_loopback_url("http://localhost:11434/v1")
    assert is_loopback_url("http://127.0.0.1")
    assert is_loopback_url("https://[::1]:8080/")
    assert not is_loopback_url("http://localhost.evil.com/v1")
    assert not is_loopback_url("https://api.openai.com/v1")
    assert not is_loopback_url(None)


def test_builtin_provider_pointed_at_localhost_needs_no_key(tmp_path: Path) -> None:
    registry = _registry(tmp_path, {"providers": {"openai": {"baseUrl": "http://127.0.0.1:4000/v1"}}})
    available = registry.get_available()
    assert available and all(
        m.provider == "openai" and m.base_url == "http://127.0.0.1:4000/v1" for m in available
    )


@pytest.mark.parametrize(("command", "reason"), [
    ("!echo oops >&2; exit 3", "exit 3: oops"),
    ("!true", "it printed nothing"),
    ("!sleep 5; echo late", "timed out after 0.5 s"),
])
def test_a_failing_auth_json_key_command_refuses_the_request_and_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, reason: str) -> None:
    """tester2 #12: an auth.json ``!command`` that failed or hung became an empty key; the request went out and
    the only message was the server's 401. The request is now refused, naming the command's failure."""
    import pi_tui.coding.config.auth as auth_module

    monkeypatch.setattr(auth_module, "COMMAND_TIMEOUT_S", 0.5)
    auth = AuthStorage.in_memory({"mock2": {"type": "api_key", "key": command}})
    provider = {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "models": [{"id": "m2"}]}
    registry = _registry(tmp_path, {"providers": {"mock2": provider}}, auth=auth)
    model = registry.find("mock2", "m2")
    assert model is not None
    result = registry.get_api_key_and_headers(model)
    assert not result.ok
    assert result.error == f'The API key command for "mock2" in auth.json failed ({reason})'


def test_a_keyless_local_provider_still_needs_no_key(tmp_path: Path) -> None:
    provider = {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "models": [{"id": "m2"}]}
    registry = _registry(tmp_path, {"providers": {"mock2": provider}})
    model = registry.find("mock2", "m2")
    assert model is not None and registry.get_api_key_and_headers(model).ok
