"""Drive the real ``pi-tui`` binary in a pseudo-terminal: keys in, raw screen bytes out, signals, a closed terminal.

The child is a session leader whose controlling terminal is the pty, so closing the master end sends it SIGHUP
exactly as closing a terminal window does. Output is drained by a thread (a full pty would block the app).
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path
from typing import Any

ANSI = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]")


def pi_tui_command() -> list[str]:
    """The installed ``pi-tui`` script next to this interpreter, else ``python -m pi_tui.cli``."""
    script = Path(sys.executable).with_name("pi-tui")
    if script.exists():
        return [str(script)]
    found = shutil.which("pi-tui")
    return [found] if found else [sys.executable, "-c", "import sys; from pi_tui.cli import main; sys.exit(main())"]


def _make_controlling_tty() -> None:  # runs in the child after setsid (start_new_session)
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyApp:
    """A running ``pi-tui`` in a ``rows`` x ``cols`` pty."""

    def __init__(self, args: list[str], cwd: Path, env: dict[str, str], rows: int = 40, cols: int = 120) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        full_env = {**env, "TERM": "xterm-256color", "COLUMNS": str(cols), "LINES": str(rows)}
        self.proc = subprocess.Popen(
            [*pi_tui_command(), *args], cwd=cwd, env=full_env, stdin=slave, stdout=slave, stderr=slave,
            start_new_session=True, preexec_fn=_make_controlling_tty, close_fds=True,
        )
        os.close(slave)
        self.master: int | None = master
        self._raw = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            fd = self.master
            if fd is None:
                return
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            with self._lock:
                self._raw.extend(chunk)

    @property
    def raw(self) -> bytes:
        with self._lock:
            return bytes(self._raw)

    def text(self) -> str:
        """Everything written so far with escape sequences removed."""
        return ANSI.sub(b"", self.raw).decode("utf-8", "replace")

    def wait_for(self, needle: str, timeout: float = 30.0) -> None:
        """Wait until ``needle`` appears in the output (escape sequences removed); AssertionError on timeout."""
        end = time.monotonic() + timeout
        while needle not in self.text():
            if time.monotonic() > end:
                raise AssertionError(f"{needle!r} never appeared; output tail: {self.text()[-1500:]!r}")
            if self.proc.poll() is not None:
                raise AssertionError(f"pi-tui exited ({self.proc.returncode}) before {needle!r}: {self.text()[-1500:]!r}")
            time.sleep(0.05)

    def send(self, data: str) -> None:
        assert self.master is not None
        os.write(self.master, data.encode())

    def type_line(self, text: str) -> None:
        """Type ``text`` then Enter, as separate writes (a paste would be one bracketed chunk)."""
        self.send(text)
        time.sleep(0.2)
        self.send("\r")

    def kill(self, signum: int) -> None:
        os.kill(self.proc.pid, signum)

    def close_terminal(self) -> None:
        """Close the master end: the kernel sends SIGHUP to the child (a closed terminal window)."""
        fd, self.master = self.master, None
        if fd is not None:
            os.close(fd)

    def wait(self, timeout: float = 30.0) -> int:
        """Wait for the exit code; kills the child (and fails) when it does not exit in time."""
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"pi-tui did not exit; output tail: {self.text()[-1500:]!r}") from None
        finally:
            time.sleep(0.1)  # let the reader collect the last bytes

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.close_terminal()

    def __enter__(self) -> PtyApp:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

