"""Large pastes in the editor: their markers, expansion on submit, and the markers as single units.

A paste of more than :data:`PASTE_MAX_LINES` lines or :data:`PASTE_MAX_CHARS` characters is shown as a marker
``[paste #<n> +<lines> lines]`` / ``[paste #<n> <chars> chars]`` and expanded on submit (pi-reference §3.14b).
A marker is one unit for the cursor and for Backspace/Delete, as in pi ("paste markers treated as atomic
segments"): one Backspace right after it removes the whole marker (tester3 #14: it removed the ``]``, the broken
marker was sent as the prompt and the 7,500 pasted characters were lost). A marker damaged anyway (a selection
edit, a click inside it and typing) is still expanded when its ``[paste #<n>`` start is intact: the pasted text is
never replaced by a fragment of its marker.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pi_tui.coding.tools.truncate import count_lines

PASTE_MAX_LINES = 10  # pi editor: a paste with more lines (or more characters) becomes a marker
PASTE_MAX_CHARS = 1000
_PASTE_MARKER = re.compile(r"\[paste #(\d+)(?: (?:\+\d+ lines|\d+ chars))?\]")
_DAMAGED = r"\[paste #{id}(?![0-9])[^\]\n]{{0,24}}\]?"


def paste_marker(paste_id: int, text: str) -> str | None:
    """pi's marker for a large paste, or None when ``text`` is small enough to insert as it is.

    Lines are counted as everywhere else in pi-tui: a final newline ends the last line (``seq 1 300`` pasted is
    ``+300 lines``, not pi's 301; DIFFERENCES D18)."""
    lines = count_lines(text)
    if lines > PASTE_MAX_LINES:
        return f"[paste #{paste_id} +{lines} lines]"
    if len(text) > PASTE_MAX_CHARS:
        return f"[paste #{paste_id} {len(text)} chars]"
    return None


def expand_pastes(text: str, pastes: Mapping[int, str]) -> str:
    """Replace every marker of a known paste in ``text`` with the pasted text (unknown ids stay as typed); a known
    paste whose marker is not there whole is put where a damaged one starts (module docstring)."""
    if not pastes:
        return text
    found: set[int] = set()

    def whole(m: re.Match[str]) -> str:
        paste_id = int(m.group(1))
        if paste_id not in pastes:
            return m.group(0)
        found.add(paste_id)
        return "\0" + str(paste_id) + "\0"  # placeholder: pasted text is never searched for markers

    marked = _PASTE_MARKER.sub(whole, text)
    for paste_id in pastes.keys() - found:
        marked, n = re.subn(_DAMAGED.format(id=paste_id), "\0" + str(paste_id) + "\0", marked, count=1)
        if n:
            found.add(paste_id)
    return re.sub("\0(\\d+)\0", lambda m: pastes[int(m.group(1))], marked)


def marker_spans(line: str, pastes: Mapping[int, str]) -> list[tuple[int, int]]:
    """``(start, end)`` columns of the whole markers of known pastes in ``line``."""
    if not pastes or "[paste #" not in line:
        return []
    return [m.span() for m in _PASTE_MARKER.finditer(line) if int(m.group(1)) in pastes]


def unit_left(line: str, col: int, pastes: Mapping[int, str]) -> int | None:
    """Where one step left of ``col`` lands when that step would enter or cross a marker: its start."""
    return next((start for start, end in marker_spans(line, pastes) if start < col <= end), None)


def unit_right(line: str, col: int, pastes: Mapping[int, str]) -> int | None:
    """Where one step right of ``col`` lands when that step would enter or cross a marker: its end."""
    return next((end for start, end in marker_spans(line, pastes) if start <= col < end), None)
