"""A writer killed at random moments never costs a complete line (pi-reference §3.4 write policy, §5.8).

Each run forks a child that appends entries through a SessionManager as fast as it can; the parent SIGKILLs
it after a random delay. Reloading must give exactly the entries whose line is complete (in order, each
parented on the previous), and the file must stay appendable. A second test has two processes append to one
file at the same time: no line may be interleaved with another.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from pathlib import Path

import pytest

from pi_tui.coding.session import SessionManager
from pi_tui.coding.session.session_manager import load_session_entries

from .helpers import assistant, user

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork/SIGKILL")

RUNS = 30


def _child_writer(path: Path, tag: str) -> None:
    try:
        session = SessionManager.open(path)
        index = 0
        while True:
            session.append_custom_entry("crash-test", {"tag": tag, "n": index, "pad": "x" * (index % 300)})
            index += 1
    finally:
        os._exit(0)


def _complete_lines(path: Path) -> int:
    """Newline-terminated, non-blank lines (a concurrent appender may add a harmless blank line)."""
    data = path.read_bytes()
    return sum(1 for line in data.split(b"\n")[:-1] if line.strip())


def test_sigkill_at_random_moments_never_loses_a_complete_line(tmp_path: Path) -> None:
    rng = random.Random(1234)
    for run in range(RUNS):
        base = SessionManager.create("/proj", tmp_path / f"run{run}")
        base.append_message(user("q"))
        base.append_message(assistant("a"))
        path = base.session_file
        assert path is not None
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            _child_writer(path, "solo")
        time.sleep(rng.uniform(0.0, 0.03))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        loaded = load_session_entries(path)
        complete = _complete_lines(path) - 1  # header
        assert len(loaded.entries) == complete, f"run {run}"
        numbers = [e.data["n"] for e in loaded.entries[2:]]  # type: ignore[union-attr]
        assert numbers == list(range(len(numbers)))
        for previous, entry in zip(loaded.entries, loaded.entries[1:], strict=False):
            assert entry.parent_id == previous.id
        reopened = SessionManager.open(path)
        last = reopened.append_message(user("after kill"))
        assert load_session_entries(path).entries[-1].id == last


def test_two_processes_appending_never_interleave(tmp_path: Path) -> None:
    base = SessionManager.create("/proj", tmp_path)
    base.append_message(user("q"))
    base.append_message(assistant("a"))
    path = base.session_file
    assert path is not None
    children = []
    for tag in ("left", "right"):
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            _child_writer(path, tag)
        children.append(pid)
    time.sleep(0.15)
    for pid in children:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    loaded = load_session_entries(path)
    assert loaded.warnings == []
    assert len(loaded.entries) == _complete_lines(path) - 1
    for tag in ("left", "right"):
        numbers = [e.data["n"] for e in loaded.entries[2:] if e.data["tag"] == tag]  # type: ignore[union-attr]
        assert numbers == list(range(len(numbers)))
        assert len(numbers) > 0
