"""A torn or corrupt line in the MIDDLE of a session file (found by H11): the entry after it pointed to the
lost parent, so the path from the leaf stopped there and every good entry before the gap (the first
exchanges) silently vanished from the context sent to the model. Orphans are re-linked to the entry before
them; nothing good is lost, and the repair is reported."""

from __future__ import annotations

import json
from pathlib import Path

from pi_tui.coding.session.session_manager import SessionManager


def _entry(i: str, parent: str | None, role: str, text: str) -> dict:
    message = (
        {"role": "user", "content": text, "timestamp": 1}
        if role == "user"
        else {
            "role": "assistant",
            "content": [{"type": "text", "text": text}],
            "api": "openai-completions",
            "provider": "p",
            "model": "m",
            "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0},
            "stopReason": "stop",
            "timestamp": 1,
        }
    )
    return {
        "type": "message",
        "id": i,
        "parentId": parent,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "message": message,
    }


def _texts(manager: SessionManager) -> list[str]:
    out = []
    for m in manager.build_session_context().messages:
        content = m.content
        out.append(content if isinstance(content, str) else "".join(getattr(b, "text", "") for b in content))
    return out


def test_entries_before_a_torn_middle_line_stay_in_the_context(tmp_path: Path) -> None:
    header = {
        "type": "session",
        "version": 3,
        "id": "s",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": str(tmp_path),
    }
    entries = [
        _entry("u1", None, "user", "one"),
        _entry("a1", "u1", "assistant", "answer one"),
        _entry("u2", "a1", "user", "two"),
        _entry("a2", "u2", "assistant", "answer two"),
        _entry("u3", "a2", "user", "three"),
    ]
    lines = [json.dumps(header)] + [json.dumps(e) for e in entries]
    lines[3] = lines[3][:30]  # u2 torn
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    manager = SessionManager.open(path)
    assert _texts(manager) == ["one", "answer one", "answer two", "three"]
    assert any("missing parent u2" in w for w in manager.warnings)
    # appending continues from the leaf and keeps the whole chain
    assert manager.get_leaf_id() == "u3"


def test_intact_files_are_not_touched(tmp_path: Path) -> None:
    header = {
        "type": "session",
        "version": 3,
        "id": "s",
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": str(tmp_path),
    }
    entries = [_entry("u1", None, "user", "one"), _entry("a1", "u1", "assistant", "answer one")]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(o) for o in [header, *entries]) + "\n", encoding="utf-8")
    manager = SessionManager.open(path)
    assert _texts(manager) == ["one", "answer one"]
    assert manager.warnings == []
