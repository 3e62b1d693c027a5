"""The MCP SDK is never imported at start-up (it costs about a second; issue 13: "the servers must not delay"
start-up): building a session, the app's /mcp screen and ``pi-tui mcp`` import only pi-tui's light MCP modules;
the SDK is loaded in a worker thread when the first server connects (pi_tui/coding/mcp/sdk.py)."""

from __future__ import annotations

import subprocess
import sys


def test_session_factory_and_mcp_modules_do_not_import_the_sdk() -> None:
    code = (
        "import sys\n"
        "import pi_tui.coding.session_factory, pi_tui.coding.mcp.cli, pi_tui.coding.mcp.session_link\n"
        "import pi_tui.tui.modals.mcp\n"
        "heavy = sorted(m for m in sys.modules if m == 'mcp' or m.startswith(('mcp.', 'mcp_types', 'httpx2')))\n"
        "print(heavy)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert proc.stdout.strip() == "[]"
