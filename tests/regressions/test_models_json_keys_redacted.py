"""tester3 #10: a key written in models.json (literally, or as the name of an environment variable) is redacted from
what is saved and exported as soon as the file is read, before any request used it: ``!grep apiKey models.json``
put the key verbatim into the session file and the /export page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.ai.secret_redaction import REDACTED, clear_secrets, redact_text
from pi_tui.coding.config.models_json import load_models_json
from pi_tui.coding.messages import BashExecutionMessage
from pi_tui.coding.session.session_manager import SessionManager

LITERAL = "sk-secret-test-123456"
ENV_VALUE = "sk-envsecret-abcdef1234567890"
HEADER = "hdr-secret-987654321xyz"


@pytest.fixture(autouse=True)
def _fresh() -> object:
    clear_secrets()
    yield
    clear_secrets()


def _models_json(tmp_path: Path) -> Path:
    path = tmp_path / "models.json"
    path.write_text(json.dumps({"providers": {
        "script": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "apiKey": LITERAL,
                   "headers": {"X-Token": HEADER}, "models": [{"id": "m"}]},
        "envkey": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "apiKey": "T3_SCRIPT_KEY",
                   "models": [{"id": "m2"}]},
        "local": {"baseUrl": "http://127.0.0.1:11434/v1", "api": "openai-completions", "apiKey": "ollama",
                  "models": [{"id": "q"}]},
    }}))
    return path


def test_keys_named_in_models_json_are_redacted_once_the_file_is_read(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("T3_SCRIPT_KEY", ENV_VALUE)
    loaded = load_models_json(_models_json(tmp_path), set())
    assert loaded.error is None
    text = f'"apiKey": "{LITERAL}" key={ENV_VALUE} X-Token: {HEADER} ollama'
    assert redact_text(text) == f'"apiKey": "{REDACTED}" key={REDACTED} X-Token: {REDACTED} ollama'


def test_a_bash_run_quoting_the_key_is_saved_redacted(tmp_path: Path) -> None:
    load_models_json(_models_json(tmp_path), set())
    manager = SessionManager.create(str(tmp_path), tmp_path / "sessions")
    manager.append_message(BashExecutionMessage(command="grep apiKey models.json",
                                                output=f'"apiKey": "{LITERAL}",\n', exit_code=0))
    path = manager.get_session_file()
    assert path is not None
    saved = Path(path).read_text()
    assert LITERAL not in saved and REDACTED in saved
