"""auth.json and key resolution (pi-reference §3.16 "API-key resolution order")."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import pytest

from pi_tui.coding.config.auth import AuthStorage, clear_command_cache, resolve_config_value


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "OPENAI_API_KEY", "MY_KEY_VAR"):
        monkeypatch.delenv(name, raising=False)
    clear_command_cache()


def test_resolve_literal_env_and_command(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_config_value("sk-literal") == "sk-literal"
    monkeypatch.setenv("MY_KEY_VAR", "from-env")
    assert resolve_config_value("MY_KEY_VAR") == "from-env"
    assert resolve_config_value("!printf ' cmd-key \\n'") == "cmd-key"
    assert resolve_config_value("!exit 3") is None
    assert resolve_config_value("!true") is None  # empty output


def test_command_results_are_cached(tmp_path: Path) -> None:
    counter = tmp_path / "count"
    command = f"!echo x >> {counter}; echo key"
    assert resolve_config_value(command) == "key"
    assert resolve_config_value(command) == "key"
    assert counter.read_text().count("x") == 1
    assert resolve_config_value(command, cached=False) == "key"
    assert counter.read_text().count("x") == 2


def test_resolution_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "auth.json"
    path.write_text(json.dumps({"anthropic": {"type": "api_key", "key": "stored-key"}}))
    auth = AuthStorage.create(path)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "env-key")
    monkeypatch.setenv("OPENAI_API_KEY", "openai-env")
    auth.set_fallback_resolver(lambda provider: "fallback-key" if provider == "custom" else None)
    assert auth.get_api_key("anthropic") == "stored-key"
    auth.set_runtime_api_key("anthropic", "cli-key")
    assert auth.get_api_key("anthropic") == "cli-key"
    auth.remove_runtime_api_key("anthropic")
    assert auth.get_api_key("openai") == "openai-env"
    assert auth.get_api_key("custom") == "fallback-key"
    assert auth.get_api_key("custom", include_fallback=False) is None
    assert auth.get_api_key("nobody") is None
    assert auth.has_auth("anthropic") and auth.has_auth("openai") and auth.has_auth("custom")
    assert not auth.has_auth("nobody")
    assert auth.get_auth_status("anthropic") == {"configured": True, "source": "stored"}
    assert auth.get_auth_status("openai") == {
        "configured": False,
        "source": "environment",
        "label": "OPENAI_API_KEY",
    }


def test_stored_key_may_be_env_name_or_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY_VAR", "indirect")
    auth = AuthStorage.in_memory(
        {"a": {"type": "api_key", "key": "MY_KEY_VAR"}, "b": {"type": "api_key", "key": "!echo from-cmd"}}
    )
    assert auth.get_api_key("a") == "indirect"
    assert auth.get_api_key("b") == "from-cmd"


def test_oauth_access_token_used_until_expiry() -> None:
    future = int(time.time() * 1000) + 60_000
    auth = AuthStorage.in_memory(
        {
            "anthropic": {"type": "oauth", "access": "sk-ant-oat-live", "refresh": "r", "expires": future},
            "github-copilot": {"type": "oauth", "access": "old", "refresh": "r", "expires": 1},
        }
    )
    assert auth.get_api_key("anthropic") == "sk-ant-oat-live"
    assert auth.get_api_key("github-copilot") is None


def test_set_and_remove_persist_with_private_mode(tmp_path: Path) -> None:
    path = tmp_path / "dir" / "auth.json"
    auth = AuthStorage.create(path)
    auth.set_api_key("openai", "sk-1")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # another instance adds a provider meanwhile; it is kept
    data = json.loads(path.read_text())
    data["groq"] = {"type": "api_key", "key": "g"}
    path.write_text(json.dumps(data))
    auth.remove("openai")
    assert json.loads(path.read_text()) == {"groq": {"type": "api_key", "key": "g"}}
    assert "sk-1" not in repr(auth)


def test_invalid_auth_file_is_reported_and_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    path.write_text('{"openai": {"type": "api_key", "key": "sk-secret"')
    auth = AuthStorage.create(path)
    assert len(auth.errors) == 1 and "invalid JSON" in auth.errors[0]
    assert "sk-secret" not in auth.errors[0]
    auth.set_api_key("groq", "x")
    assert path.read_text().startswith('{"openai"')
