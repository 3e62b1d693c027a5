"""TUI tests: no API keys from the environment (the app must pick the offline model deterministically)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(autouse=True)
def _no_api_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.endswith("_API_KEY") or name in ("ANTHROPIC_OAUTH_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "COPILOT_GITHUB_TOKEN"):
            monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
