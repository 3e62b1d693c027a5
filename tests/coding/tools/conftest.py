"""Fixtures for the coding tool tests: search backends."""

from __future__ import annotations

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

