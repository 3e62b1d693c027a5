"""Text that cannot drive the terminal (issue 10 class 7; tests/regressions/
test_tool_output_terminal_control.py).

:func:`sanitize_terminal_output` is the function the TUI cleans program output with before it reaches the
SCREEN: tool results and partial results (``pi_tui.tui.widgets.tool_format``), every rendered transcript line
(``RenderContext.to_strips``) and user ``!cmd`` output (:mod:`pi_tui.coding.user_bash`, whose cleaned output is
also what the model gets, as pi's ``stripAnsi`` does for ``!cmd``). Tool results themselves reach the model, the
session file and events unchanged, as in pi (tester2 #23: the model must be able to ``edit`` the file it read).
It removes:

* escape sequences: CSI (cursor moves, erases, scroll regions, SGR colours), OSC (``0``/``2`` window
  titles, ``8`` hyperlinks, ``52`` clipboard writes and reads, ...), DCS/SOS/PM/APC strings, nF and
  single-character escapes (``ESC c`` full reset, ``ESC 7``/``ESC 8``, charset designations), in their
  7-bit (``ESC [``, ``ESC ]``) and 8-bit (U+009B, U+009D, ...) forms; a string sequence without its
  terminator (BEL or ST) is removed up to the end of its line;
* every other C0/C1 control character except tab and line feed (BEL, backspace, SO/SI, DEL, NUL, ...),
  and U+FFF9..U+FFFB (pi's ``sanitizeBinaryOutput``);
* carriage returns: ``\\r\\n`` is a line end (``\\n``); within a line, bare ``\\r`` separates the frames of
  a progress bar and only the last non-empty frame is kept.

SGR colour codes are removed too, deliberately: the transcript does not render ANSI colours, and a colour
code is the same ``ESC [`` door as a cursor move (tests/conformance/DIFFERENCES.md T4).

The result never contains ESC, any C0 control other than tab and LF, any C1 control, or ``\\r``, so it
cannot start a sequence however it is later concatenated. The function is idempotent.
:class:`TerminalOutputStream` applies the same rules to a stream of chunks (an incomplete escape
sequence or a trailing ``\\r`` is held back until the next chunk).
"""

from __future__ import annotations

import re

_SEQUENCE = re.compile(
    "|".join(
        (
            r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]",  # CSI
            r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?",  # strings
            r"\x1b[\x20-\x2f]+[\x30-\x7e]",  # nF (charset designations, ...)
            r"\x1b[\x30-\x7e]",  # Fp / Fe / Fs (ESC 7, ESC c, ESC M, ...)
        )
    )
)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufff9-\ufffb]")
_NEEDS_WORK = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufff9-\ufffb]")
_INCOMPLETE_TAIL = re.compile(
    r"(?:\x1b(?:\[[\x30-\x3f]*[\x20-\x2f]*|[\]PX^_][^\x07\x1b\x9c\n]*|[\x20-\x2f]*)?"
    r"|\x9b[\x30-\x3f]*[\x20-\x2f]*|[\x90\x98\x9d\x9e\x9f][^\x07\x1b\x9c\n]*)\Z"
)
HOLD_LIMIT = 4096
"""Longest incomplete sequence :class:`TerminalOutputStream` holds back (characters)."""


def _last_frame(line: str) -> str:
    frames = line.split("\r")
    for frame in reversed(frames):
        if frame:
            return frame
    return ""


def _resolve_carriage_returns(text: str) -> str:
    text = text.replace("\r\n", "\n")
    if "\r" not in text:
        return text
    return "\n".join(_last_frame(line) if "\r" in line else line for line in text.split("\n"))


def sanitize_terminal_output(text: str) -> str:
    """``text`` without terminal control sequences and control characters (see the module docstring).

    Tab and ``\\n`` are kept; ``\\r\\n`` becomes ``\\n``; of ``a\\rb`` only ``b`` is kept."""
    if not _NEEDS_WORK.search(text):
        return text
    text = _SEQUENCE.sub("", text)
    text = _CONTROL.sub("", text)
    return _resolve_carriage_returns(text) if "\r" in text else text


def sanitize_display_text(text: str) -> str:
    """Text someone wrote (a model's reply, a notice) without terminal control sequences, every visible character
    kept: unlike :func:`sanitize_terminal_output` (program output), a bare ``\\r`` is not a progress-bar frame
    break that hides what came before it but a space (tester2 #17). ``\\r\\n`` is a line end."""
    if not _NEEDS_WORK.search(text):
        return text
    return sanitize_terminal_output(text.replace("\r\n", "\n").replace("\r", " "))


class TerminalOutputStream:
    """:func:`sanitize_terminal_output` for text that arrives in chunks (user ``!cmd`` live output).

    ``feed(chunk)`` returns the clean text that can be shown now; ``finish()`` the rest. A sequence split
    across chunks is removed whole. Output is append-only, so a progress-bar frame that replaces text
    already returned starts a new line instead (the final, recorded output keeps only the last frame).
    """

    def __init__(self) -> None:
        self._pending = ""
        self._line_started = False

    def feed(self, chunk: str) -> str:
        """Clean text for ``chunk`` (an incomplete trailing sequence or ``\\r`` is kept for later)."""
        text = self._pending + chunk
        self._pending = ""
        hold = _INCOMPLETE_TAIL.search(text[-HOLD_LIMIT:]) if text else None
        if hold is not None and hold.group():
            cut = len(text) - len(hold.group())
            text, self._pending = text[:cut], text[cut:]
        if text.endswith("\r"):
            text, self._pending = text[:-1], "\r" + self._pending
        return self._emit(text)

    def finish(self) -> str:
        """Whatever was held back, cleaned (an unterminated sequence is dropped)."""
        text, self._pending = self._pending, ""
        return self._emit(text)

    def _emit(self, text: str) -> str:
        if not text:
            return ""
        text = _CONTROL.sub("", _SEQUENCE.sub("", text)).replace("\r\n", "\n")
        out: list[str] = []
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if i > 0:
                out.append("\n")
                self._line_started = False
            if "\r" in line:
                frame = _last_frame(line)
                if frame and self._line_started:
                    out.append("\n")
                line = frame
            if line:
                out.append(line)
                self._line_started = True
        return "".join(out)
