"""Shared pytest configuration: anyio runs async tests on asyncio (Textual's loop)."""

from __future__ import annotations

import os
import tempfile

import pytest

# Tests never use a real user's config or keys.
os.environ["PI_TUI_DIR"] = tempfile.mkdtemp(prefix="pi-tui-test-home-")
for _var in ("PI_TUI_SESSION_DIR",):
    os.environ.pop(_var, None)


@pytest.fixture
def anyio_backend() -> str:
    """Run ``@pytest.mark.anyio`` tests on asyncio only."""
    return "asyncio"
