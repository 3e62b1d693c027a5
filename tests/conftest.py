"""Shared pytest configuration: anyio runs async tests on asyncio (Textual's loop)."""

from __future__ import annotations

import os

import pytest

# Tests never use a real user's config or keys.
os.environ.setdefault("PI_TUI_DIR", os.path.join(os.path.dirname(__file__), ".pi-tui-test-home-unused"))
for _var in ("PI_TUI_SESSION_DIR",):
    os.environ.pop(_var, None)


@pytest.fixture
def anyio_backend() -> str:
    """Run ``@pytest.mark.anyio`` tests on asyncio only."""
    return "asyncio"
