"""Fixtures for the MCP client tests: anyio on asyncio, paths of the test servers."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "mcp"
FAULT_SERVER = FIXTURES / "fault_server.py"
BIN = Path(sys.executable).parent


def server_binary(name: str) -> str:
    """The console script ``name`` of an installed MCP server package (next to this Python, else on PATH);
    skips the test when it is not installed."""
    candidate = BIN / name
    if candidate.exists():
        return str(candidate)
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
