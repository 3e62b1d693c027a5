"""Fixtures for AgentSession tests: anyio on asyncio, a fresh faux provider, a session builder."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from pi_tui.ai.providers.faux import FauxProvider, register_faux_provider

os.environ.setdefault("PI_TUI_OFFLINE_TPS", "0")  # the offline demo model streams unpaced in tests


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def faux() -> Iterator[FauxProvider]:
    """A faux provider with deterministic 2-token (8-char) chunks, unregistered afterwards."""
    provider = register_faux_provider(token_size={"min": 2, "max": 2})
    yield provider
    provider.unregister()
