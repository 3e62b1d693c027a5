"""API keys never reach session files, exports or JSON output, even inside message text (found by H11:
a server answering 401 "Incorrect API key provided: sk-…" put the key in the session file, the HTML/MD
export and the TUI's error line; ``!echo $OPENAI_API_KEY`` or a tool running ``env`` did the same)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.ai.secret_redaction import (
    REDACTED,
    clear_secrets,
    looks_like_secret,
    redact_text,
    register_env_secrets,
    register_secret,
)
from pi_tui.coding.config.auth import AuthStorage
from pi_tui.coding.export import export_html, export_markdown
from pi_tui.coding.modes.json_mode import JsonLineWriter
from pi_tui.coding.session.session_file import encode_line

from ..coding.session_core.helpers import EchoTool, SleepRecorder, make_session

KEY = "sk-test-SECRET123abcdef"


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def _fresh_registry() -> Iterator[None]:
    clear_secrets()
    yield
    clear_secrets()


def test_only_key_like_values_are_registered() -> None:
    for placeholder in (
        "none",
        "ollama",
        "lm-studio",
        "sk-no-key-required",
        "EMPTY",
        "",
        "a b c d e f g h 1 2 3",
    ):
        assert not looks_like_secret(placeholder)
        register_secret(placeholder)
    assert (
        redact_text("none ollama lm-studio sk-no-key-required") == "none ollama lm-studio sk-no-key-required"
    )
    register_secret(f"Bearer {KEY}")
    assert redact_text(f"key={KEY}!") == f"key={REDACTED}!"


def test_env_keys_and_auth_file_keys_are_registered(tmp_path: Path) -> None:
    register_env_secrets({"OPENAI_API_KEY": KEY, "HOME": "/root/some/long/path/123"})
    assert redact_text(f"OPENAI_API_KEY={KEY}") == f"OPENAI_API_KEY={REDACTED}"
    assert redact_text("/root/some/long/path/123") == "/root/some/long/path/123"  # not a key variable
    path = tmp_path / "auth.json"
    path.write_text(json.dumps({"anthropic": {"type": "api_key", "key": "sk-ant-0123456789abcdef"}}))
    AuthStorage(path)
    assert "sk-ant-0123456789abcdef" not in redact_text("x sk-ant-0123456789abcdef y")


def test_writers_redact(tmp_path: Path) -> None:
    register_secret(KEY)
    line = encode_line({"message": {"errorMessage": f"401 Incorrect API key provided: {KEY}"}})
    assert KEY.encode() not in line and REDACTED.encode() in line
    stream = io.BytesIO()
    JsonLineWriter(stream).write({"type": "x", "text": f"token {KEY}"})
    assert KEY.encode() not in stream.getvalue()


@pytest.mark.anyio
async def test_session_file_export_and_error_line_never_hold_the_key(
    tmp_path: Path, faux: FauxProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    register_env_secrets()
    faux.set_responses(
        [
            faux_assistant_message(
                [faux_tool_call("echo", {"text": f"OPENAI_API_KEY={KEY}"})], stop_reason="toolUse"
            ),
            faux_assistant_message("done"),
            faux_assistant_message(
                [], stop_reason="error", error_message=f'401 {{"error":"Incorrect API key provided: {KEY}"}}'
            ),
        ]
    )
    session = make_session(tmp_path, faux.get_model(), tools=[EchoTool()], sleep=SleepRecorder())
    shown: list[str] = []
    session.subscribe(
        lambda e: shown.append(getattr(getattr(e, "message", None), "error_message", None) or "")
    )
    await session.prompt("print the env")
    await session.prompt("again")
    assert session.session_file is not None
    saved = _read(session.session_file)
    assert KEY not in saved
    assert REDACTED in saved  # the tool result and the error were written, redacted
    assert all(KEY not in text for text in shown)  # the error line shown in the UI
    md = _read(export_markdown(session, str(tmp_path / "t.md")))
    page = _read(export_html(session, str(tmp_path / "t.html")))
    assert KEY not in md and KEY not in page
