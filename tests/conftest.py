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


@pytest.fixture(autouse=True)
def _dialogs_answerable_at_once(request: pytest.FixtureRequest) -> object:
    """Pilot tests answer a dialog the instant it appears; the arrival guard (keys typed before a dialog the
    user did not open was shown go to the editor) is tested on its own, with ``@pytest.mark.arrival_guard``."""
    from pi_tui.tui.modals import arrival_guard

    arrival_guard.ENABLED = request.node.get_closest_marker("arrival_guard") is not None
    yield
    arrival_guard.ENABLED = True
