"""Fixtures: a temp agent dir with a loopback mock provider in models.json, and sessions built by the real
factory with extensions (tests/conformance/mock_llm_server.py records every request body)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Env:
    """``agent_dir`` (PI_TUI_DIR), ``project`` (cwd), ``server`` once :meth:`serve` ran."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.agent_dir = root / "agent"
        self.project = root / "project"
        self.agent_dir.mkdir()
        self.project.mkdir()
        self.server: MockLlmServer | None = None

    def serve(self, script: list[dict[str, Any]]) -> MockLlmServer:
        self.server = MockLlmServer(script).start()
        (self.agent_dir / "models.json").write_text(json.dumps({"providers": {"mock": {
            "baseUrl": f"http://127.0.0.1:{self.server.port}/v1", "api": "openai-completions",
            "apiKey": "test-key",
            "models": [{"id": "mock-model", "name": "Mock", "reasoning": False, "input": ["text"],
                        "contextWindow": 128000, "maxTokens": 4096}]}}}))
        return self.server

    def session(self, **options: Any) -> Any:
        from pi_tui.coding.session_factory import create_agent_session

        options.setdefault("no_session", True)
        return create_agent_session(str(self.project), provider="mock", model="mock-model", **options)

    def bodies(self) -> list[Any]:
        assert self.server is not None
        return [r["body"] for r in self.server.requests]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Env]:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    environment = Env(tmp_path)
    yield environment
    if environment.server is not None:
        environment.server.close()
