"""Fixtures for the coding tool tests: search backends."""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
from collections.abc import Iterator

import pytest

from pi_tui.coding.tools.search_backend import find_program


@pytest.fixture(params=["external", "python"])
def grep_backend(request: pytest.FixtureRequest) -> str:
    """Run grep tests with ripgrep and with the Python fallback."""
    if request.param == "external" and find_program("rg") is None:
        pytest.skip("ripgrep not installed")
    return str(request.param)


@pytest.fixture(params=["external", "python"])
def find_backend(request: pytest.FixtureRequest) -> str:
    """Run find tests with fd and with the Python fallback."""
    if request.param == "external" and find_program("fd", "fdfind") is None:
        pytest.skip("fd not installed")
    return str(request.param)


@pytest.fixture(autouse=True)
def _remove_new_bash_logs() -> Iterator[None]:
    """Delete the /tmp/pi-bash-*.log files a test created (the tool keeps them, like pi)."""
    pattern = os.path.join(tempfile.gettempdir(), "pi-bash-*.log")
    before = set(glob.glob(pattern))
    yield
    for path in set(glob.glob(pattern)) - before:
        with contextlib.suppress(OSError):
            os.remove(path)
