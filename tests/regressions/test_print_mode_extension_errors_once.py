"""``-p`` prints each extension error once (tester2 #13: every load/activate error came twice on stderr, once as
the runner's log line through Python's last-resort log handler, once as ``Extension error: …``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_each_extension_error_is_printed_once(tmp_path: Path) -> None:
    (tmp_path / "bad_activate.py").write_text("def activate(pi):\n    raise RuntimeError('activate failed')\n")
    (tmp_path / "bad_syntax.py").write_text("def activate(pi) oops syntax\n")
    env = {**os.environ, "PI_TUI_DIR": str(tmp_path / "home"), "PI_TUI_SESSION_DIR": str(tmp_path / "s")}
    done = subprocess.run(
        [sys.executable, "-m", "pi_tui.cli", "--no-mcp", "-e", str(tmp_path / "bad_activate.py"),
         "-e", str(tmp_path / "bad_syntax.py"), "-p", "hi"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False)
    lines = [line for line in done.stderr.splitlines() if "bad_activate" in line or "bad_syntax" in line]
    assert len(lines) == 2, done.stderr
    assert all(line.startswith("Extension error: ") for line in lines), lines
