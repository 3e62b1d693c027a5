"""MCP logs do not grow without end (issue 13 leftover): ``mcp.log`` is a rotating log (one old file kept) and a
server's ``<server>.log`` over the limit is moved to ``<server>.log.1`` when the server starts again."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from pi_tui.coding.mcp import connection as connection_module
from pi_tui.coding.mcp import manager as manager_module
from pi_tui.coding.mcp.manager import configure_mcp_logging

from .helpers import fault, manager

pytestmark = pytest.mark.anyio


async def test_a_big_server_log_turns_over_at_the_next_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection_module, "LOG_MAX_BYTES", 1000)
    m = manager(tmp_path, fault("big"))
    log_file = m.log_dir / "big.log"
    m.log_dir.mkdir(parents=True)
    log_file.write_text("old line\n" * 500)
    m.start()
    try:
        await m.wait_ready(30)
        assert m.connections["big"].state == "connected"
    finally:
        await m.close()
    assert (m.log_dir / "big.log.1").read_text().startswith("old line")
    assert log_file.stat().st_size < 1000 and "starting big" in log_file.read_text()


def test_the_sdk_log_rotates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(manager_module, "LOG_MAX_BYTES", 2000)
    configure_mcp_logging(tmp_path)
    sdk = logging.getLogger("mcp")
    try:
        for n in range(200):
            sdk.warning("line %d of a chatty server", n)
        assert (tmp_path / "mcp.log.1").exists()
        assert (tmp_path / "mcp.log").stat().st_size <= 2000
        assert not (tmp_path / "mcp.log.2").exists()
    finally:
        for handler in list(sdk.handlers):
            if getattr(handler, "baseFilename", "").startswith(str(tmp_path)):
                sdk.removeHandler(handler)
                handler.close()
        pkg = logging.getLogger("pi_tui.coding.mcp")
        for handler in list(pkg.handlers):
            if getattr(handler, "baseFilename", "").startswith(str(tmp_path)):
                pkg.removeHandler(handler)
                handler.close()
