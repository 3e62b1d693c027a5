"""Credentials another process writes reach a running session (pi 0.84.0, #7319: a long-running session kept
using the credentials it read at start-up after ``/login`` in another window or a script updated
``auth.json``). The file is stat'ed before each lookup and re-read when it changed; a changed file that does
not parse keeps the last good credentials."""

from __future__ import annotations

import json
from pathlib import Path

from pi_tui.coding.config.auth import AuthStorage


def test_a_key_written_by_another_process_is_used(tmp_path: Path, monkeypatch: object) -> None:
    path = tmp_path / "auth.json"
    path.write_text(json.dumps({"openai": {"type": "api_key", "key": "sk-old-1111"}}), encoding="utf-8")
    session = AuthStorage(path)  # the long-running session
    assert session.get_api_key("openai") == "sk-old-1111"
    other = AuthStorage(path)  # another pi-tui (its /login)
    other.set_api_key("openai", "sk-new-2222")
    other.set_api_key("anthropic", "sk-ant-3333")
    assert session.get_api_key("openai") == "sk-new-2222"
    assert session.has_auth("anthropic") and session.get_auth_status("anthropic")["source"] == "stored"
    assert sorted(session.list()) == ["anthropic", "openai"]
    other.remove("anthropic")
    assert not session.has("anthropic")


def test_a_hand_edit_is_used_and_a_broken_one_keeps_the_last_good_credentials(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    path.write_text(json.dumps({"openai": {"type": "api_key", "key": "sk-first-1111"}}), encoding="utf-8")
    session = AuthStorage(path)
    assert session.get_api_key("openai") == "sk-first-1111"
    path.write_text(json.dumps({"openai": {"type": "api_key", "key": "sk-edited-22222"}}), encoding="utf-8")
    assert session.get_api_key("openai") == "sk-edited-22222"
    path.write_text('{"openai": {"type": "api_key", "key": ', encoding="utf-8")  # half-saved by an editor
    assert session.get_api_key("openai") == "sk-edited-22222"
    assert len([e for e in session.errors if "invalid JSON" in e]) == 1
    assert session.get_api_key("openai") == "sk-edited-22222"
    assert len([e for e in session.errors if "invalid JSON" in e]) == 1  # reported once, not per lookup
