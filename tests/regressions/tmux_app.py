"""Run the real app in a private tmux server against a scripted loopback model, and report what reached the
terminal: the screen, the pane title before and after, the alternate-screen flag, tmux's paste buffers (an
OSC 52 clipboard write creates one) and the raw bytes the app wrote (``pipe-pane``).

Used by the terminal-control regressions (issue 10 class 7, tester2 #7): one harness, so every such test starts
the app, waits for the editor and reads the terminal the same way.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")


def tmux(sock: str, *args: str) -> str:
    """Run ``tmux -L sock ARGS`` and return its stdout (never raises on a non-zero exit)."""
    return subprocess.run(["tmux", "-L", sock, *args], capture_output=True, text=True, check=False).stdout


@dataclass
class TerminalRun:
    """What one run left on the terminal (see the module docstring)."""

    screen: str
    title_before: str
    title_after: str
    alternate: str
    buffers: str
    raw: bytes
    requests: list[dict[str, Any]] = field(default_factory=list)  # what the model was sent (MockLlmServer)


def run_in_tmux(tmp_path: Path, project: Path, script: list[dict[str, Any]], prompt: str,
                done: str = "ALL-DONE", timeout: float = 40.0) -> TerminalRun:
    """Start ``pi-tui`` in ``project`` (120x40) on a ``MockLlmServer`` playing ``script``, type ``prompt`` and Enter
    once the editor is drawn, and wait until ``done`` is on the screen (asserted) or ``timeout`` seconds passed.

    The agent dir and sessions live under ``tmp_path``; the tmux server is private and killed at the end.
    """
    from tests.conformance.mock_llm_server import MockLlmServer

    home = tmp_path / "agent"
    home.mkdir(exist_ok=True)
    sock = f"term-{os.getpid()}-{time.monotonic_ns()}"
    raw_log = tmp_path / "raw.log"
    with MockLlmServer(script) as server:
        (home / "models.json").write_text(json.dumps({"providers": {"mock": {
            "baseUrl": f"http://127.0.0.1:{server.port}/v1", "api": "openai-completions", "apiKey": "none",
            "models": [{"id": "mock-model"}]}}}))
        env = (f"PI_TUI_DIR={home} PI_TUI_SESSION_DIR={tmp_path / 'sessions'} "
               f"PYTHONPATH={os.environ.get('PYTHONPATH', '')}")
        command = (f"cd {project} && sleep 0.5 && env {env} {sys.executable} -m pi_tui.cli "
                   "--provider mock --model mock-model")
        try:
            tmux(sock, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", command)
            tmux(sock, "set", "-g", "set-clipboard", "on")
            tmux(sock, "pipe-pane", "-t", "t", "-o", f"cat >> {raw_log}")
            title_before = tmux(sock, "display", "-p", "-t", "t", "#{pane_title}")
            deadline = time.monotonic() + timeout
            while "Enter" not in tmux(sock, "capture-pane", "-p", "-t", "t") and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(1.0)
            tmux(sock, "send-keys", "-t", "t", "-l", prompt)
            tmux(sock, "send-keys", "-t", "t", "Enter")
            screen = ""
            while time.monotonic() < deadline:
                screen = tmux(sock, "capture-pane", "-p", "-t", "t")
                if done in screen:
                    break
                time.sleep(0.2)
            assert done in screen, screen
            time.sleep(0.5)
            run = TerminalRun(
                screen=tmux(sock, "capture-pane", "-p", "-t", "t"),
                title_before=title_before,
                title_after=tmux(sock, "display", "-p", "-t", "t", "#{pane_title}"),
                alternate=tmux(sock, "display", "-p", "-t", "t", "#{alternate_on}"),
                buffers=tmux(sock, "list-buffers"),
                raw=b"",
            )
            tmux(sock, "send-keys", "-t", "t", "C-d")
        finally:
            tmux(sock, "kill-server")
    run.raw = raw_log.read_bytes() if raw_log.exists() else b""
    run.requests = list(server.requests)
    return run
