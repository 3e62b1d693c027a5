"""Fixtures for regression tests: anyio on asyncio and a fresh faux provider."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pi_tui.ai.providers.faux import FauxProvider, register_faux_provider


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def faux() -> Iterator[FauxProvider]:
    """A faux provider with deterministic chunks, unregistered afterwards."""
    provider = register_faux_provider(token_size={"min": 2, "max": 2})
    yield provider
    provider.unregister()
