"""Keys typed while the interactive app starts are kept exactly as typed (issue 9, found by a new-user run).

Importing and mounting the app takes seconds (5.8 s measured under load); until Textual switches the terminal
to raw mode it is in cooked mode, where the terminal driver turns Enter into a newline (``ICRNL``) and echoes
every key over the shell. A prompt typed and sent at once then arrived as text plus Ctrl+J, a line break in
the editor, and was never sent. :func:`hold_typed_keys` (called by the CLI before the import) switches the
terminal to non-canonical input without echo and without CR translation, so the keys wait in the input queue
as typed (Enter stays Enter) for the app to read; signals (Ctrl+C) keep working. The returned function puts the
original settings back (Textual restores the settings it found, i.e. the held ones, when it stops).

Keys typed even earlier (type-ahead while the shell started the process, before the interpreter ran this) are
already cooked when they arrive: Enter became a newline and the terminal's own line editing applied. They are
read at once when the keys are held (:attr:`HeldKeys.typed_ahead`, e.g. ``"hello\\npartial"``); the app submits
each complete line and puts the rest in the editor. No Textual here.
"""

from __future__ import annotations

import atexit
import os
import select
import sys
import termios
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

MAX_TYPED_AHEAD = 64 * 1024  # bytes read at once from what was typed before the keys were held


@dataclass
class HeldKeys:
    """The held terminal: ``restore()`` puts its settings back; ``typed_ahead`` is the text typed before it was
    held, already cooked by the terminal ("\\n" where Enter was pressed)."""

    restore: Callable[[], None]
    typed_ahead: str = field(default="")


def hold_typed_keys(stream: TextIO | int | None = None) -> HeldKeys:
    """Hold the keys typed from now on as they are and collect what was typed before (module docstring).

    ``stream``: the terminal (a file or descriptor; default ``sys.stdin``). Off a TTY, or when the terminal's
    settings cannot be read or set, nothing changes and ``restore`` does nothing. ``restore`` is idempotent and
    also registered with ``atexit``, so the shell gets its terminal back whatever ends the process.
    """
    try:
        fd = stream if isinstance(stream, int) else (stream or sys.stdin).fileno()
        if not os.isatty(fd):
            return HeldKeys(_nothing)
        original = termios.tcgetattr(fd)
    except (OSError, ValueError, AttributeError, termios.error):
        return HeldKeys(_nothing)
    held = [*original[:6], list(original[6])]
    held[0] = original[0] & ~(termios.ICRNL | termios.INLCR | termios.IGNCR)  # Enter stays CR
    held[3] = original[3] & ~(termios.ICANON | termios.ECHO | termios.IEXTEN)  # no line buffer, no echo
    held[6][termios.VMIN] = 1
    held[6][termios.VTIME] = 0
    try:
        termios.tcsetattr(fd, termios.TCSANOW, held)  # TCSANOW: what was typed already stays queued
    except termios.error:
        return HeldKeys(_nothing)
    typed = _read_available(fd)
    done = False

    def restore() -> None:
        nonlocal done
        if done:
            return
        done = True
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, original)
        except (OSError, termios.error):
            pass

    atexit.register(restore)
    return HeldKeys(restore, typed.decode("utf-8", errors="replace"))


def _read_available(fd: int) -> bytes:
    """What is in the terminal's input queue now (never blocks)."""
    out = b""
    try:
        while len(out) < MAX_TYPED_AHEAD and select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            out += chunk
    except OSError:
        pass
    return out


def split_typed_ahead(text: str) -> tuple[list[str], str]:
    """``(lines to submit, rest for the editor)`` of cooked type-ahead: each line ended by Enter is a prompt,
    the unfinished last line goes to the editor; control characters (stray escape sequences) are dropped."""
    unified = text.replace("\r\n", "\n").replace("\r", "\n")  # Enter already read raw by a shell stays CR
    clean = "".join(ch for ch in unified if ch in "\n\t" or ch.isprintable())
    *lines, rest = clean.split("\n")
    return [line for line in lines if line.strip()], rest


def _nothing() -> None:
    return None
