"""``hold_typed_keys``: keys typed while the app loads wait as typed (Enter stays CR, nothing is echoed), and
the terminal gets its settings back (issue 9, new-user run: Enter typed at launch became a line break)."""

from __future__ import annotations

import os
import pty
import select
import termios
import time

from pi_tui.tui.early_input import hold_typed_keys, split_typed_ahead


def _read_available(fd: int) -> bytes:
    out = b""
    while select.select([fd], [], [], 0.2)[0]:
        chunk = os.read(fd, 1024)
        if not chunk:
            break
        out += chunk
    return out


def test_enter_typed_while_held_stays_enter_and_is_not_echoed() -> None:
    master, slave = pty.openpty()
    try:
        before = termios.tcgetattr(slave)
        assert before[0] & termios.ICRNL and before[3] & termios.ICANON  # a fresh terminal is cooked
        held = hold_typed_keys(slave)
        restore = held.restore
        assert held.typed_ahead == ""
        os.write(master, b"hello\r")
        assert _read_available(slave) == b"hello\r"  # cooked, it would be b"hello\n" (ICRNL)
        assert b"hello" not in _read_available(master)  # no echo over the shell
        restore()
        assert termios.tcgetattr(slave) == before
        restore()  # idempotent
        assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_cooked_terminal_turns_enter_into_a_newline() -> None:
    """What happened before: the same keys in the terminal's own mode read as a line ending in LF."""
    master, slave = pty.openpty()
    try:
        os.write(master, b"hello\r")
        assert _read_available(slave) == b"hello\n"
    finally:
        os.close(master)
        os.close(slave)


def test_not_a_terminal_changes_nothing(tmp_path: object) -> None:
    read_end, write_end = os.pipe()
    try:
        held = hold_typed_keys(read_end)
        held.restore()
        assert held.typed_ahead == ""
    finally:
        os.close(read_end)
        os.close(write_end)


def test_keys_typed_before_the_hold_are_collected_cooked() -> None:
    """Type-ahead that arrived before the CLI held the terminal: the terminal already made Enter a newline and
    applied its own line editing (backspace); it is read at once, and nothing of it is left for the app."""
    master, slave = pty.openpty()
    try:
        os.write(master, b"first prompt\rsecoX\x7fnd")
        # The kernel hands written bytes to the line discipline asynchronously: wait until it has cooked the
        # first line (readable in canonical mode), as real type-ahead is long before the CLI starts. Without
        # this the hold could switch to raw mode first and read "\r" and "X\x7f" as typed (flaky under load).
        assert select.select([slave], [], [], 5)[0]
        time.sleep(0.05)
        held = hold_typed_keys(slave)
        assert held.typed_ahead == "first prompt\nsecond"
        os.write(master, b"later\r")
        assert _read_available(slave) == b"later\r"
        held.restore()
    finally:
        os.close(master)
        os.close(slave)


def test_split_typed_ahead() -> None:
    assert split_typed_ahead("") == ([], "")
    assert split_typed_ahead("hello\npartial") == (["hello"], "partial")
    assert split_typed_ahead("one\n\ntwo\n") == (["one", "two"], "")
    assert split_typed_ahead("a\x1b[Ab\n") == (["a[Ab"], "")  # control characters dropped
    # a shell that read its own line raw (readline) leaves the next Enter as CR in the queue
    assert split_typed_ahead("run it\rnext\r\nhalf") == (["run it", "next"], "half")
