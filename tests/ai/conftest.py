"""Fixtures for tests/ai: anyio backend and the loopback replay server (tests/ai/replay_server.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.ai.replay_server import ReplayServer


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def replay_server() -> Iterator[ReplayServer]:
    """A running :class:`ReplayServer` on 127.0.0.1 (stopped after the test)."""
    server = ReplayServer().start()
    try:
        yield server
    finally:
        server.stop()
