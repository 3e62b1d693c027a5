"""A server that answers ``initialize`` with garbage fails within seconds with that reason (tester2 #18: it was
"connecting" until the 60 s connect timeout, and `pi-tui mcp list` took 71 s), while a server that prints a stray
line before its real answer (a start-up banner on stdout) still connects."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tests.coding.mcp.conftest import FAULT_SERVER
from tests.coding.mcp.helpers import manager, stdio

pytestmark = pytest.mark.anyio

GARBAGE = """
import sys
print("hello this is not json", flush=True)
print('{"jsonrpc": "2.0", "garbage": true}', flush=True)
for line in sys.stdin:
    print("nope " + line.strip(), flush=True)
"""

BANNER = f"""
import runpy, sys
print("Starting the server...", flush=True)
sys.argv = [{str(FAULT_SERVER)!r}]
runpy.run_path({str(FAULT_SERVER)!r}, run_name="__main__")
"""


async def test_garbage_answer_fails_the_connection_at_once(tmp_path: Path) -> None:
    script = tmp_path / "garbage.py"
    script.write_text(GARBAGE)
    m = manager(tmp_path, stdio("garb", sys.executable, str(script)))
    started = time.monotonic()
    m.start()
    await m.wait_ready(60)
    took = time.monotonic() - started
    connection = m.connections["garb"]
    try:
        assert connection.state == "failed"
        assert "malformed" in (connection.error or "") and "nope" in (connection.error or ""), connection.error
        assert took < 40  # the connect timeout is 60 s; the grace after garbage is 10 s
    finally:
        await m.close()


async def test_a_banner_line_before_the_real_answer_still_connects(tmp_path: Path) -> None:
    script = tmp_path / "banner.py"
    script.write_text(BANNER)
    m = manager(tmp_path, stdio("banner", sys.executable, str(script)))
    m.start()
    await m.wait_ready(60)
    try:
        assert m.connections["banner"].state == "connected", m.connections["banner"].error
        assert m.connections["banner"].tools
    finally:
        await m.close()
