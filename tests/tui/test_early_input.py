"""``hold_typed_keys``: keys typed while the app loads wait as typed (Enter stays CR, nothing is echoed), and
the terminal gets its settings back (issue 9, new-user run: Enter typed at launch became a line break)."""

from __future__ import annotations

import os
import pty
import select
import termios

from pi_tui.tui.early_input import hold_typed_keys


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
        restore = hold_typed_keys(slave)
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
        restore = hold_typed_keys(read_end)
        restore()
    finally:
        os.close(read_end)
        os.close(write_end)
