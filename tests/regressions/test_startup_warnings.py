"""Problems found while loading must reach the user (found by H11 with ``pi-tui -c -p``).

* Skipped lines of a session file (garbage, a torn half line, NUL padding) were listed in
  ``SessionManager.warnings`` but never shown: print mode and the TUI said nothing.
* auth.json entries of the wrong shape (``"anthropic": "sk-..."``) counted as configured auth, so the
  default model became that provider and every prompt failed with "No API key"; no warning named the entry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.config.auth import AuthStorage


@pytest.fixture
def agent_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(home))
    for name in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return home


def test_skipped_session_lines_become_startup_warnings(tmp_path: Path, agent_dir: Path) -> None:
    cwd = tmp_path / "proj"
    cwd.mkdir()
    path = tmp_path / "s.jsonl"
    header = {
        "type": "session",
        "version": 3,
        "id": "s1",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": str(cwd),
    }
    user = {
        "type": "message",
        "id": "u1",
        "parentId": None,
        "timestamp": "2026-01-01T00:00:01.000Z",
        "message": {"role": "user", "content": "hello", "timestamp": 1},
    }
    path.write_bytes(
        (json.dumps(header) + "\n" + json.dumps(user) + "\n").encode()
        + b'garbage line\n{"type":"message","id":"half\n\x00\x00\x00\n'
    )
    session = create_agent_session(str(cwd), session_path=str(path))
    text = "\n".join(session.startup_warnings)
    assert "not valid JSON" in text
    assert [m.role for m in session.messages] == ["user"]  # the good entry is kept


def test_auth_entries_of_the_wrong_shape_are_reported_and_ignored(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    raw = {
        "anthropic": "sk-ant-plainstring",
        "openai": {"type": "api_key"},
        "google": 5,
        "groq": {"type": "api_key", "key": "gsk-fine"},
        "xai": {"type": "oauth", "access": "tok", "refresh": "r", "expires": 1},
    }
    path.write_text(json.dumps(raw))
    auth = AuthStorage(path)
    assert not auth.has_auth("anthropic")
    assert not auth.has_auth("openai")
    assert not auth.has_auth("google")
    assert auth.has_auth("groq") and auth.get_api_key("groq") == "gsk-fine"
    assert auth.has_auth("xai")
    joined = "\n".join(auth.errors)
    for name in ("anthropic", "openai", "google"):
        assert f'"{name}"' in joined
    assert "groq" not in joined and "xai" not in joined
    assert "sk-ant-plainstring" not in joined  # the bad value may be a key: never echoed
    # the file itself is left untouched (a later save must not drop the user's entries)
    auth.set_api_key("mistral", "m-key")
    saved = json.loads(path.read_text())
    assert saved["anthropic"] == "sk-ant-plainstring" and saved["mistral"]["key"] == "m-key"
