"""API-key and header values in models.json / auth.json: pi 1.x's explicit ``$NAME`` syntax (pi 0.77.0, 0.79.4).

pi 0.77.0 made plain key and header strings literals and added ``$NAME`` / ``${NAME}`` interpolation with
``$$`` and ``$!`` escapes; pi 0.79.4 removed the last legacy case (plain uppercase values read as variable
names). pi-tui ports pi 0.73, whose docs (docs/models.md "Value Resolution") tell users to write a bare variable
name, so that rule stays (DIFFERENCES PF13); the explicit syntax is accepted as well, so a models.json written
for a current pi works. Before, ``"Bearer ${TOKEN}"`` was sent as those characters.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.coding.config.auth import resolve_config_value
from pi_tui.coding.model_access import RegistryModelAccess

ENV = {"TOKEN": "t-123", "MY_KEY": "k-456", "EMPTY": ""}


@pytest.mark.parametrize(
    ("raw", "resolved"),
    [
        ("$TOKEN", "t-123"),
        ("${TOKEN}", "t-123"),
        ("Bearer ${TOKEN}", "Bearer t-123"),
        ("$MY_KEY-suffix", "k-456-suffix"),
        ("${MY_KEY}_x", "k-456_x"),
        ("cost$$5", "cost$5"),
        ("$!not-a-command", "!not-a-command"),
        ("$EMPTY", ""),
        ("a$ b", "a$ b"),  # a "$" that starts no reference stays
        ("$UNSET_VARIABLE", None),
        ("x-${UNSET_VARIABLE}", None),
        ("MY_KEY", "k-456"),  # pi 0.73's bare name, kept
        ("PLAIN_UPPERCASE_LITERAL", "PLAIN_UPPERCASE_LITERAL"),
        ("sk-literal", "sk-literal"),
    ],
)
def test_value_resolution(raw: str, resolved: str | None) -> None:
    assert resolve_config_value(raw, env=ENV) == resolved


def test_models_json_keys_and_headers_use_the_explicit_syntax(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIFIX_TOKEN", "secret-token")
    monkeypatch.delenv("PIFIX_MISSING", raising=False)
    providers = {
        "good": {"baseUrl": "https://a.example/v1", "api": "openai-completions", "apiKey": "${PIFIX_TOKEN}",
                 "headers": {"x-auth": "Bearer $PIFIX_TOKEN", "x-literal": "$$PIFIX_TOKEN"},
                 "models": [{"id": "m"}]},
        "bad": {"baseUrl": "https://b.example/v1", "api": "openai-completions", "apiKey": "$PIFIX_MISSING",
                "models": [{"id": "m"}]},
    }
    (tmp_path / "models.json").write_text(json.dumps({"providers": providers}), encoding="utf-8")
    access = RegistryModelAccess.create(tmp_path)
    good = access.find("good", "m")
    bad = access.find("bad", "m")
    assert good is not None and bad is not None
    creds = access.request_credentials(good)
    assert creds.error is None and creds.api_key == "secret-token"
    assert creds.headers == {"x-auth": "Bearer secret-token", "x-literal": "$PIFIX_TOKEN"}
    failed = access.request_credentials(bad)
    assert failed.api_key is None and failed.error is not None
    assert "environment variable" in failed.error and "shell command" not in failed.error
