"""Shared by tests/coding/settings_ui and tests/tui/settings_ui (their conftest.py files re-export ``home``):
an isolated config dir (``PI_TUI_DIR``) with no provider keys in the environment, and a models.json with
three local models (no network: the base URL is never called)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

MODELS = {
    "providers": {
        "local": {
            "baseUrl": "http://127.0.0.1:9/v1",
            "api": "openai-completions",
            "apiKey": "none",
            "models": [{"id": "alpha", "reasoning": True}, {"id": "beta", "reasoning": True},
                       {"id": "gamma", "reasoning": False}],
        }
    }
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    agent_dir = tmp_path / "home"
    agent_dir.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent_dir))
    for name in list(os.environ):
        if name.endswith("_API_KEY"):
            monkeypatch.delenv(name)
    (agent_dir / "models.json").write_text(json.dumps(MODELS))
    return agent_dir
