"""Idle CPU: the real ``pi-tui`` in a pseudo-terminal, doing nothing, beside a minimal Textual app.

``python bench/idle_cpu.py [--quick]`` prints and writes bench/results/idle_cpu.json. Each app is started as a
child process on a 120x40 pty (the real Linux driver, not the headless one), with a fresh PI_TUI_DIR (so
pi-tui runs on its built-in offline model), left to settle for 3 s, then measured for 10 s (2 s with
``--quick``): CPU time of the process (utime + stime from /proc/<pid>/stat) / wall time, and the bytes it wrote
to the terminal meanwhile (cursor blinking, timers). pi-tui is measured twice: fresh, and after one exchange (a
prompt typed to the offline model, measured from 8 s later; 4 s with ``--quick``). The child is then stopped by its process id.

Target (issue 6): under 1 % CPU when idle.
"""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from _common import print_table, write_results  # noqa: E402

HERE = Path(__file__).resolve().parent
TICKS = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)


def _pi_tui_command() -> list[str]:
    script = Path(sys.executable).parent / "pi-tui"
    return [str(script)] if script.exists() else [sys.executable, "-m", "pi_tui.cli"]


def measure(cmd: list[str], settle: float, seconds: float, cwd: str, env: dict[str, str],
            typed: bytes = b"", after_typing: float = 0.0) -> dict[str, Any]:
    """Run ``cmd`` on a 120x40 pty; CPU fraction and terminal bytes/s over ``seconds`` after ``settle``.

    With ``typed``, those bytes are written to the terminal after ``settle`` (e.g. a prompt and Enter) and the
    measurement starts ``after_typing`` seconds later.
    """
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env,
                            start_new_session=True, close_fds=True)
    os.close(slave)
    written = [0]
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            written[0] += len(data)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        time.sleep(settle)
        typed_bytes0 = written[0]
        if typed:
            os.write(master, typed)
            time.sleep(after_typing)
        activity_bytes = written[0] - typed_bytes0
        if proc.poll() is not None:
            raise RuntimeError(f"{cmd} exited early with {proc.returncode}")
        started_output = written[0]
        cpu0, bytes0, t0 = _cpu_seconds(proc.pid), written[0], time.monotonic()
        time.sleep(seconds)
        cpu1, bytes1, t1 = _cpu_seconds(proc.pid), written[0], time.monotonic()
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        stop.set()
        os.close(master)
    wall = t1 - t0
    return {"cpu_fraction": (cpu1 - cpu0) / wall, "cpu_s": cpu1 - cpu0, "wall_s": wall,
            "bytes_per_s": (bytes1 - bytes0) / wall, "startup_bytes": started_output,
            "activity_bytes": activity_bytes}


def main(argv: list[str]) -> int:
    """Measure pi-tui and the minimal app (``--quick``: 2 s each)."""
    quick = "--quick" in argv
    seconds = 2.0 if quick else 10.0
    settle = 2.0 if quick else 3.0
    wait = 4.0 if quick else 8.0  # after typing the prompt: the offline model's reply is drawn meanwhile
    env = dict(os.environ)
    env.update(PI_TUI_DIR=tempfile.mkdtemp(prefix="pi-tui-bench-"), TERM="xterm-256color",
               COLORTERM="truecolor", PYTHONPATH=str(HERE))
    env.pop("TEXTUAL", None)
    cwd = tempfile.mkdtemp(prefix="pi-tui-bench-cwd-")
    pi = measure(_pi_tui_command(), settle, seconds, cwd, env)
    # The same after one exchange with the built-in offline model (timers started by activity must stop).
    after = measure(_pi_tui_command(), settle, seconds, cwd, env, typed=b"hello\r", after_typing=wait)
    minimal = measure([sys.executable, "-c", "from _baselines import MinimalApp; MinimalApp().run()"],
                      settle, seconds, cwd, env)
    r = {"quick": quick, "seconds": seconds, "pi_tui": pi, "pi_tui_after_reply": after, "minimal": minimal}
    pct = pi["cpu_fraction"] * 100
    print_table(f"idle_cpu ({seconds:.0f} s idle on a 120x40 pty)", [
        ("pi-tui CPU %", pct, f"target < 1 %: {'met' if pct < 1 else 'NOT met'} "
                              f"({pi['cpu_s']:.3f} s CPU in {pi['wall_s']:.1f} s)"),
        ("pi-tui terminal output bytes/s", pi["bytes_per_s"], "while idle"),
        ("pi-tui CPU % after one reply", after["cpu_fraction"] * 100,
         f"target < 1 %: {'met' if after['cpu_fraction'] < 0.01 else 'NOT met'} (prompt sent to the offline "
         f"model: {after['activity_bytes']:,} bytes drawn; measured from {wait:.0f} s later)"),
        ("minimal Textual app CPU %", minimal["cpu_fraction"] * 100, "Static + Input, same run"),
        ("minimal app terminal output bytes/s", minimal["bytes_per_s"], "while idle"),
    ])
    write_results("idle_cpu", r)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
