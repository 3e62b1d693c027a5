"""Bracketed pastes are read whole, whatever bytes they hold (tester2 #15, high).

Textual's ``XTermParser`` (8.2.8) starts an escape sequence at every ESC, also inside a bracketed paste: the
characters after an ESC in pasted text (coloured ``ls`` output, a log with ANSI codes) were re-issued as typed
keys, so the paste ended at the first ESC, its rest was "typed" (each newline an Enter that sent a prompt) and the
text before the ESC landed after it. :class:`PasteSafeParser` takes everything between ``ESC [200~`` and
``ESC [201~`` out of the byte stream itself, across reads, and hands it over as one ``Paste`` event; all other
input goes to Textual's parser unchanged. The pasted text is text, not keys: ``\\r\\n`` and ``\\r`` (what
terminals send for a line break) become ``\\n``, and escape sequences and control characters are removed with the
function that cleans tool output (``sanitize_terminal_output``).

:func:`install` makes Textual's Linux driver use this parser (it looks the class up by name when its input thread
starts); ``run_app`` calls it before the app runs.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.message import Message

from pi_tui.agent.terminal_text import sanitize_terminal_output

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
MAX_PASTE_CHARS = 64 * 1024 * 1024
"""A paste whose end marker never comes is handed over once it is this long (characters), so input goes on."""


def paste_text(raw: str) -> str:
    """What a bracketed paste's bytes ``raw`` insert: line breaks as ``\\n``, no control sequences or characters
    (tab kept)."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    return sanitize_terminal_output(text)


def _partial_suffix(data: str, marker: str) -> int:
    """Length of the longest end of ``data`` that is a proper start of ``marker`` (a marker cut by a read)."""
    for size in range(min(len(marker) - 1, len(data)), 0, -1):
        if marker.startswith(data[-size:]):
            return size
    return 0


class PasteSafeParser(XTermParser):
    """Textual's terminal parser with bracketed pastes taken out first (module docstring)."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._paste: list[str] | None = None  # the paste being read, or None outside one
        self._paste_size = 0
        self._hold = ""  # the end of the last read: maybe the first bytes of a marker
        self._held_at = 0.0  # when ``_hold`` was set (a lone ESC is the Escape key once ESCAPE_DELAY passed)

    def tick(self) -> Iterable[Message]:
        """Timeouts: a held start of a marker that no more bytes followed is ordinary input after all."""
        if self._hold and self._paste is None and time.monotonic() - self._held_at >= constants.ESCAPE_DELAY:
            held, self._hold = self._hold, ""
            if held == "\x1b":
                yield events.Key("escape", "\x1b")  # the Escape key, already waited for as Textual would
            else:
                yield from super().feed(held)
        yield from super().tick()

    def feed(self, data: str) -> Iterable[Message]:
        """Parse ``data`` (a read from the terminal; ``""`` at the end of input) into events."""
        if not data:  # the end of input: whatever is held is what it is
            if self._paste is not None:
                yield events.Paste(paste_text("".join(self._paste) + self._hold))
            elif self._hold:
                yield from super().feed(self._hold)
            self._paste, self._hold = None, ""
            yield from super().feed(data)
            return
        data, self._hold = self._hold + data, ""
        while data:
            if self._paste is None:
                start = data.find(PASTE_START)
                if start < 0:
                    cut = _partial_suffix(data, PASTE_START)
                    if cut:  # a read ended inside what may be a paste's start marker: wait for the next bytes
                        data, self._hold, self._held_at = data[:-cut], data[-cut:], time.monotonic()
                    if data:
                        yield from super().feed(data)
                    return
                if start:
                    yield from super().feed(data[:start])
                self._paste, self._paste_size = [], 0
                data = data[start + len(PASTE_START):]
                continue
            end = data.find(PASTE_END)
            if end < 0:
                cut = _partial_suffix(data, PASTE_END)
                if cut:
                    data, self._hold = data[:-cut], data[-cut:]
                self._paste.append(data)
                self._paste_size += len(data)
                if self._paste_size >= MAX_PASTE_CHARS:
                    yield events.Paste(paste_text("".join(self._paste)))
                    self._paste, self._paste_size = [], 0
                return
            self._paste.append(data[:end])
            yield events.Paste(paste_text("".join(self._paste)))
            self._paste = None
            data = data[end + len(PASTE_END):]


def install() -> None:
    """Make Textual's Linux driver read input with :class:`PasteSafeParser` (other drivers are left as they are)."""
    try:
        from textual.drivers import linux_driver
    except ImportError:  # not on a POSIX system
        return
    linux_driver.XTermParser = PasteSafeParser  # type: ignore[misc]
