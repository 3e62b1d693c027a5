"""Helpers for mode tests: a clean environment and a temp agent dir with a loopback models.json."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "tests" / "conformance"))


def clean_env(root: Path, **extra: str) -> dict[str, str]:
    """No provider keys, a temp HOME and PI_TUI_DIR; the repo on PYTHONPATH."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(root / "home"),
        "PI_TUI_DIR": str(root / "agent"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "PYTHONPATH": str(REPO),
        "PI_TUI_OFFLINE_TPS": "0",
    }
    env.update(extra)
    for sub in ("home", "agent", "project"):
        (root / sub).mkdir(exist_ok=True)
    return env


def write_models_json(root: Path, port: int) -> None:
    """``mock/mock-model`` (openai-completions) at the loopback server, like the pi-traces recorder."""
    models = {"providers": {"mock": {"baseUrl": f"http://127.0.0.1:{port}/v1", "api": "openai-completions",
                                     "apiKey": "test-key",
                                     "models": [{"id": "mock-model", "name": "Mock Model", "reasoning": False,
                                                 "input": ["text"], "contextWindow": 128000, "maxTokens": 16384}]}}}
    (root / "agent" / "models.json").write_text(json.dumps(models), encoding="utf-8")


CLI = [sys.executable, "-m", "pi_tui.cli"]


def load_mock_server() -> type:
    """The scripted loopback server class from tests/conformance/mock_llm_server.py."""
    from mock_llm_server import MockLlmServer

    return MockLlmServer
