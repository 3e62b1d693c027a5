"""``--provider``/``--model`` resolution fixes pi shipped after 0.73.1 (tests/conformance/PI_FIXES.md).

* pi 1.5.0 (pi #11394): ``--model <provider>/<id>`` failed for provider ids that contain ``/`` (URL-derived
  llama.cpp providers). pi-tui split the pattern at the first ``/``, so a custom id or a partial id on such a
  provider was "not found".
* pi 0.79.2 (pi #5643): a custom model whose id begins with a built-in provider's name (``openai/gpt-4o`` served
  by a proxy with a key) lost to that built-in provider's own model, which had no key.
* pi 1.0.0 (pi #10236): ``--provider`` without ``--model`` was ignored and the default model of another provider
  ran; pi-tui already picks that provider's default (checked here through the session factory's rule).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pi_tui.coding.agent_session.factory import SessionSetupError, _resolve_model
from pi_tui.coding.config.model_resolver import resolve_cli_model
from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.model_access import RegistryModelAccess

SLASHED = "llama.cpp/127.0.0.1:8080"


@pytest.fixture(autouse=True)
def _no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_TOKEN")) or name.startswith("PI_"):
            monkeypatch.delenv(name, raising=False)


def _access(tmp_path: Path, providers: dict[str, object]) -> RegistryModelAccess:
    (tmp_path / "models.json").write_text(json.dumps({"providers": providers}), encoding="utf-8")
    return RegistryModelAccess.create(tmp_path)


def _provider(base_url: str, *ids: str, key: str | None = "k") -> dict[str, object]:
    out: dict[str, object] = {"baseUrl": base_url, "api": "openai-completions",
                              "models": [{"id": i, "reasoning": True} for i in ids]}
    if key:
        out["apiKey"] = key
    return out


def test_a_provider_id_with_slashes_resolves_exact_partial_custom_and_level(tmp_path: Path) -> None:
    access = _access(tmp_path, {
        SLASHED: _provider("http://127.0.0.1:8080/v1", "qwen3-8b", "gemma-3-4b"),
        "llama.cpp": _provider("http://127.0.0.1:8081/v1", "qwen3-8b"),
    })
    models = access.all_models()
    exact = resolve_cli_model(None, f"{SLASHED}/qwen3-8b", models)
    assert exact.model is not None and (exact.model.provider, exact.model.id) == (SLASHED, "qwen3-8b")
    level = resolve_cli_model(None, f"{SLASHED}/gemma-3-4b:high", models)
    assert level.model is not None and (level.model.provider, level.model.id, level.thinking_level) == (
        SLASHED, "gemma-3-4b", "high")
    # a partial id searches only that provider (before: split at the first "/", "not found")
    partial = resolve_cli_model(None, f"{SLASHED}/gemma", models)
    assert partial.model is not None and (partial.model.provider, partial.model.id) == (SLASHED, "gemma-3-4b")
    # an unknown id on that provider is a custom id based on it, with pi's warning
    custom = resolve_cli_model(None, f"{SLASHED}/new-model", models)
    assert custom.error is None and custom.model is not None
    assert (custom.model.provider, custom.model.id) == (SLASHED, "new-model")
    assert custom.model.base_url == "http://127.0.0.1:8080/v1"
    assert custom.warning == f'Model "new-model" not found for provider "{SLASHED}". Using custom model id.'
    # the shorter provider id is still reachable
    short = resolve_cli_model(None, "llama.cpp/qwen3-8b", models)
    assert short.model is not None and (short.model.provider, short.model.id) == ("llama.cpp", "qwen3-8b")


def test_an_authenticated_custom_id_wins_over_a_keyless_built_in_provider_prefix(tmp_path: Path) -> None:
    access = _access(tmp_path, {"proxy": _provider("https://proxy.example/v1", "openai/gpt-4o")})
    assert any(m.provider == "openai" and m.id == "gpt-4o" for m in access.all_models())  # built-in, no key
    model, level, _warning = access.resolve_pattern(None, "openai/gpt-4o")
    assert model is not None and (model.provider, model.id, level) == ("proxy", "openai/gpt-4o", None)
    model, level, _warning = access.resolve_pattern(None, "openai/gpt-4o:low")
    assert model is not None and (model.provider, level) == ("proxy", "low")
    # with a key for the built-in provider, its own model is kept (pi 0.73's rule)
    access.set_runtime_api_key("openai", "sk-test")
    model, _level, _warning = access.resolve_pattern(None, "openai/gpt-4o")
    assert model is not None and model.provider == "openai"


def test_provider_without_model_uses_that_providers_default_or_fails(tmp_path: Path) -> None:
    access = _access(tmp_path, {
        "first": _provider("http://127.0.0.1:9001/v1", "a-1"),
        "second": _provider("http://127.0.0.1:9002/v1", "b-1", "b-2"),
    })
    settings = SettingsManager.in_memory()
    warnings: list[str] = []
    model, _level = _resolve_model(access, "second", None, None, settings, warnings)
    assert model is not None and model.provider == "second"
    with pytest.raises(SessionSetupError, match='Unknown provider "nope"'):
        _resolve_model(access, "nope", None, None, settings, warnings)
