"""The offline model's first answer names the config files pi-tui really reads (found by H11: with
``PI_TUI_DIR=/tmp/h11/home`` the banner said ``/tmp/h11/home/models.json`` but the answer said
``~/.pi-tui/agent/models.json``, so a new user edited a file that is never read)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.ai.types import Context, UserMessage
from pi_tui.coding.offline_model import offline_reply


def _reply_text() -> str:
    reply = offline_reply(
        Context(system_prompt="", messages=[UserMessage(content="hello", timestamp=1)], tools=[])
    )
    return "".join(block.text for block in reply.content if block.type == "text")


def test_intro_uses_pi_tui_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "cfg"))
    text = _reply_text()
    assert f"`{tmp_path / 'cfg'}/models.json`" in text
    assert f"`{tmp_path / 'cfg'}/auth.json`" in text
    assert "~/.pi-tui" not in text


def test_intro_default_dir_is_shown_under_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PI_TUI_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    text = _reply_text()
    assert "`~/.pi-tui/agent/models.json`" in text
    # the JSON examples are still valid JSON after formatting
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    assert json.loads(example) == {"anthropic": {"type": "api_key", "key": "sk-ant-..."}}
