"""The lines ``read`` shows, taken from a stream of lines in bounded memory (pi 1.5.1, #9654).

``read`` used to load the whole file, then split it, even with ``offset``/``limit``: a large log ran the process
out of memory. :func:`select_lines` walks the lines once, counts them all (the notices say "of <total>") and
keeps only the window that can be shown: the lines from ``offset`` on, and at most a little more than the
2000-line / 50 KB output limit of them, so :func:`~pi_tui.coding.tools.truncate.truncate_head` gives the same
result as on the whole window (its totals are set from the counts). :func:`file_lines` streams a file's lines
with the same line breaks as the whole-text path (``\\r\\n`` and a lone ``\\r`` are ``\\n``; invalid UTF-8 is
replaced).
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from pi_tui.coding.tools.truncate import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    TruncationResult,
    byte_len,
    truncate_head,
)


@dataclass
class LineWindow:
    """What :func:`select_lines` found: ``total`` lines in the file (a final newline ends the last line),
    ``start`` (0-based first shown line), ``count`` lines in the window (``offset``/``limit`` applied),
    ``first_size`` bytes of its first line, ``cut``: the window truncated to the output limits, ``limited``: a
    ``limit`` was given."""

    total: int
    start: int
    count: int
    first_size: int
    cut: TruncationResult
    limited: bool = False


def split_text_lines(text: str) -> list[str]:
    """``text`` with line breaks normalised, split on ``\\n`` (``str.split`` semantics: a final newline gives a
    last empty element)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def file_lines(handle: BinaryIO) -> Iterator[str]:
    """The lines of a binary file object from its current position, as :func:`split_text_lines` gives them."""
    text = io.TextIOWrapper(handle, encoding="utf-8", errors="replace", newline=None)
    ended_with_newline = True
    for line in text:
        ended_with_newline = line.endswith("\n")
        yield line[:-1] if ended_with_newline else line
    if ended_with_newline:
        yield ""  # an empty file, or one ending in a newline: str.split's last element
    text.detach()


def select_lines(
    lines: Iterable[str], offset: int | None, limit: int | None,
    max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES,
) -> LineWindow:
    """Walk ``lines`` (``str.split("\\n")`` elements) once; see the module docstring. ``offset`` is 1-based.

    The window is ``all_lines[start:min(start + limit, total)]`` with ``limit``, else ``all_lines[start:]``
    (exactly what the whole-text path selected)."""
    start = max(0, offset - 1) if offset else 0
    stop = start + limit if limit is not None else None
    kept: list[str] = []
    kept_bytes = 0
    keeping = True
    over = False
    elements = 0
    last = None  # the last element of the file
    window = 0
    window_bytes = 0
    first_size = 0
    tail: list[str] = []  # the window's last two elements
    for index, line in enumerate(lines):
        elements = index + 1
        last = line
        if index < start or (stop is not None and index >= stop):
            continue
        size = byte_len(line)
        if window == 0:
            first_size = size
        window_bytes += size + (1 if window else 0)
        window += 1
        tail = [*tail[-1:], line]
        if keeping:
            kept.append(line)
            kept_bytes += size + (1 if len(kept) > 1 else 0)
            # past a limit, plus one more line (a last "" would not count as a line): from there on the
            # truncation is decided by what is kept
            keeping = not over
            over = len(kept) > max_lines + 1 or kept_bytes > max_bytes
    file_terminated = elements > 1 and last == ""
    total = elements - 1 if file_terminated else elements
    if stop is not None and file_terminated and start <= elements - 1 < stop:
        # the final "" (index ``total``) is not a line of the file: ``min(start + limit, total)`` leaves it out
        if len(kept) == window:
            kept.pop()
        window -= 1
        window_bytes -= 1 if window else 0
        tail = tail[:-1]
    cut = truncate_head("\n".join(kept), max_lines, max_bytes)
    if len(kept) < window:  # the window's totals, as truncate_head would count them on the whole window
        ends_empty = window > 1 and bool(tail) and tail[-1] == ""
        cut = dataclasses.replace(cut, total_lines=window - (1 if ends_empty else 0), total_bytes=window_bytes)
    return LineWindow(total=total, start=start, count=window, first_size=first_size, cut=cut,
                      limited=limit is not None)


def _line_number(value: object) -> int | None:
    """A line number as the tool reads it: an int, an integral float or a numeric string; else None (null,
    booleans, other text)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return None
    return None


def range_label(offset: object, limit: object) -> str:
    """The range a ``read`` call shows after its path: ``:10-14`` (offset 10, limit 5), ``:10``, ``:1-3``, or
    ``""`` when neither is a number. Numeric strings and floats count as numbers, as the tool takes them
    (pi 1.3.0); null is no range, never ``:1`` (pi 0.99.0). Used by the TUI and the HTML export."""
    start, count = _line_number(offset), _line_number(limit)
    if start is None and count is None:
        return ""
    first = start if start is not None else 1
    return f":{first}" + (f"-{first + count - 1}" if count is not None else "")
