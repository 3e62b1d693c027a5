"""Keys typed while ``pi-tui`` is still starting are kept as typed (found by a new-user run, issue 9).

Importing the app takes seconds (5.8 s measured under load); until Textual takes the terminal it is in cooked
mode, where Enter arrives as a newline (ICRNL), so a prompt typed and sent at once became a line break in the
editor, and the keys were echoed over the shell. The CLI now holds the terminal in non-canonical mode with Enter
kept from its first line: the prompt is sent (or held until the session is ready) and answered.
"""

from __future__ import annotations

import os
import sys
import termios
import time
from pathlib import Path

import pytest

from .pty_app import PtyApp

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pty")


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({"PI_TUI_DIR": str(home), "PYTHONUNBUFFERED": "1"})
    env.pop("NO_COLOR", None)
    return env


def test_a_prompt_typed_during_start_up_is_sent(tmp_path: Path) -> None:
    home = tmp_path / "home"
    cwd = tmp_path / "project"
    cwd.mkdir()
    with PtyApp([], cwd, _env(home)) as app:
        assert app.master is not None
        end = time.monotonic() + 30
        while termios.tcgetattr(app.master)[3] & termios.ICANON and time.monotonic() < end:
            time.sleep(0.01)  # the CLI runs (it holds the keys) or the app took the terminal
        assert b"\x1b[?1049h" not in app.raw, "the terminal was cooked until the app took it"
        app.send("run `echo launched-$((40+2))`\r")  # typed and sent at once, before the app has drawn
        app.wait_for("launched-42", timeout=60)  # the offline model ran it: the prompt was sent
        app.send("\x04")  # Ctrl+D on the empty editor quits
        assert app.wait(timeout=30) == 0


def test_type_ahead_before_the_process_started_is_sent(tmp_path: Path) -> None:
    """Typed while the shell was still starting the process (cooked: Enter already a newline): sent too."""
    home = tmp_path / "home"
    cwd = tmp_path / "project"
    cwd.mkdir()
    with PtyApp([], cwd, _env(home)) as app:
        app.send("run `echo ahead-$((40+3))`\r")  # at once, before the interpreter has started
        app.wait_for("ahead-43", timeout=60)
        app.send("\x04")
        assert app.wait(timeout=30) == 0
