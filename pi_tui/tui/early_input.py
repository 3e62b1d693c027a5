"""Keys typed while the interactive app starts are kept exactly as typed (issue 9, found by a new-user run).

Importing and mounting the app takes seconds (5.8 s measured under load); until Textual switches the terminal
to raw mode it is in cooked mode, where the terminal driver turns Enter into a newline (``ICRNL``) and echoes
every key over the shell. A prompt typed and sent at once then arrived as text plus Ctrl+J, a line break in
the editor, and was never sent. :func:`hold_typed_keys` (called by the CLI before the import) switches the
terminal to non-canonical input without echo and without CR translation, so the keys wait in the input queue
as typed (Enter stays Enter) for the app to read; signals (Ctrl+C) keep working. The returned function puts the
original settings back (Textual restores the settings it found, i.e. the held ones, when it stops).

Only keys typed after the CLI started are helped: the driver translates input when it arrives, so a key typed
in the first tenth of a second (before the interpreter runs this) is already cooked. No Textual here.
"""

from __future__ import annotations

import atexit
import os
import sys
import termios
from collections.abc import Callable
from typing import TextIO


def hold_typed_keys(stream: TextIO | int | None = None) -> Callable[[], None]:
    """Hold the keys typed from now on as they are (module docstring); returns ``restore()``.

    ``stream``: the terminal (a file or descriptor; default ``sys.stdin``). Off a TTY, or when the terminal's
    settings cannot be read or set, nothing changes and ``restore`` does nothing. ``restore`` is idempotent and
    also registered with ``atexit``, so the shell gets its terminal back whatever ends the process.
    """
    try:
        fd = stream if isinstance(stream, int) else (stream or sys.stdin).fileno()
        if not os.isatty(fd):
            return _nothing
        original = termios.tcgetattr(fd)
    except (OSError, ValueError, AttributeError, termios.error):
        return _nothing
    held = [*original[:6], list(original[6])]
    held[0] = original[0] & ~(termios.ICRNL | termios.INLCR | termios.IGNCR)  # Enter stays CR
    held[3] = original[3] & ~(termios.ICANON | termios.ECHO | termios.IEXTEN)  # no line buffer, no echo
    held[6][termios.VMIN] = 1
    held[6][termios.VTIME] = 0
    try:
        termios.tcsetattr(fd, termios.TCSANOW, held)  # TCSANOW: what was typed already stays queued
    except termios.error:
        return _nothing
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
    return restore


def _nothing() -> None:
    return None
