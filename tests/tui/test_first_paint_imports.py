"""The first paint imports only what it draws (issue 15: ~1 CPU-s of imports before a 10,000-message session could
show; the agent core, ``jsonschema``, the MCP code, compaction and the tools came in through package
``__init__`` files and module-level imports of code that runs only once a session exists).

The real command line (``pi-tui --session FILE``) runs headless in a fresh interpreter; when the app's first
frame is on screen (``StartupFlow.after_first_paint``) the modules loaded so far are listed and the app exits.
None of ``MUST_WAIT`` may be among them: they load with the session, after the first paint.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.coding.modes.helpers import clean_env

MUST_WAIT = [
    "jsonschema",  # tool-argument validation (pi_tui.ai.validation)
    "mcp", "mcp_types", "httpx",  # the MCP SDK and its transport
    "uuid6",  # new session ids (session.loader)
    "pi_tui.ai.validation", "pi_tui.ai.stream", "pi_tui.ai.registry", "pi_tui.ai.providers",
    "pi_tui.agent.agent", "pi_tui.agent.loop", "pi_tui.agent.tool_execution",
    "pi_tui.coding.agent_session.session", "pi_tui.coding.agent_session.factory",
    "pi_tui.coding.agent_session.compaction", "pi_tui.coding.compaction",
    "pi_tui.coding.tools.bash", "pi_tui.coding.tools.edit", "pi_tui.coding.tools.grep",
    "pi_tui.coding.session.session_manager", "pi_tui.coding.session.loader",
    "pi_tui.coding.extensions.loader",
    "pi_tui.coding.mcp.resources", "pi_tui.coding.mcp.manager",
]

SCRIPT = r"""
import json, os, pty, sys
_master, slave = pty.openpty()
sys.stdin = os.fdopen(slave)  # as launched from a terminal (a pipe would select print mode)
from textual.app import App
from pi_tui.tui.controllers.startup import StartupFlow

seen = {}

def after_first_paint(self):
    seen["modules"] = sorted(sys.modules)
    self._app.exit()

StartupFlow.after_first_paint = after_first_paint
original_run = App.run

def run(self, *args, **kwargs):
    kwargs.update(headless=True, size=(100, 30))
    return original_run(self, *args, **kwargs)

App.run = run
from pi_tui.cli import main
main(["--session", sys.argv[1]])
print("MODULES " + json.dumps(seen.get("modules")))
"""


def _loaded(module: str, modules: list[str]) -> bool:
    return any(m == module or m.startswith(module + ".") for m in modules)


def test_the_first_paint_does_not_wait_for_the_agent_core(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    session = tmp_path / "project" / "s.jsonl"
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(session)], cwd=tmp_path / "project", env=env,
                          capture_output=True, text=True, timeout=120)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("MODULES ")]
    assert lines, proc.stderr[-3000:]
    modules = json.loads(lines[-1].removeprefix("MODULES "))
    assert modules, "the first paint was not reached"
    assert "textual.app" in modules and "pi_tui.tui.app" in modules
    assert [m for m in MUST_WAIT if _loaded(m, modules)] == []
