"""pi fixes after 0.73.1 in the CLI modes that pi-tui already had right (tests/conformance/PI_FIXES.md, "RPC and
modes"): kept as tests so they stay right."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _run(args: list[str], stdin: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PI_TUI_DIR": str(home)}
    for key in list(env):
        if key.endswith("_API_KEY"):
            env.pop(key)
    return subprocess.run(
        [sys.executable, "-m", "pi_tui.cli", *args], input=stdin, capture_output=True, text=True, timeout=60, env=env
    )


def test_invalid_mode_is_an_error(tmp_path: Path) -> None:
    """pi 0.87.1: an invalid ``--mode`` was silently ignored; here it exits non-zero and names the valid modes."""
    result = _run(["--mode", "bogus", "-p", "hi"], "", tmp_path)
    assert result.returncode != 0
    assert "rpc" in result.stderr and "bogus" in result.stderr


def test_rpc_unknown_command_response_carries_the_id(tmp_path: Path) -> None:
    """pi 0.79.7: the error response to an unknown command must carry the request id, or the client hangs."""
    result = _run(["--mode", "rpc", "--no-session"], '{"id":"req-7","type":"no_such_command"}\n', tmp_path)
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    replies = [line for line in lines if line.get("type") == "response"]
    assert replies and replies[0]["id"] == "req-7" and replies[0]["success"] is False
