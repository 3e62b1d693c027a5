"""Grapheme-cluster boundaries within one editor line (what the user sees as one character).

Segmentation is UAX #29 extended grapheme clusters from ``wcwidth`` (``iter_graphemes``,
``grapheme_boundary_before``): emoji with variation selectors (``❤️``), skin tones (``👍🏽``), ZWJ
sequences (``👨‍👩‍👧``), flags (``🇯🇵``), combining accents (``é`` as ``e`` + U+0301) and Hangul jamo are one
cluster each. Columns are code-point offsets into ``line`` (what Textual's ``TextArea`` uses).
"""

from __future__ import annotations

from wcwidth import grapheme_boundary_before, iter_graphemes


def prev_boundary(line: str, col: int) -> int:
    """The start of the cluster that ends at (or contains) ``col - 1``; 0 when ``col <= 0``."""
    if col <= 0:
        return 0
    return int(grapheme_boundary_before(line, min(col, len(line))))


def next_boundary(line: str, col: int) -> int:
    """The first cluster boundary after ``col`` (``len(line)`` at the end). ``col`` should be a boundary."""
    if col >= len(line):
        return len(line)
    start = prev_boundary(line, col + 1)  # the cluster holding ``col`` (``col`` itself when a boundary)
    cluster = next(iter_graphemes(line, start), "")
    return min(len(line), start + max(1, len(cluster)))


def snap(line: str, col: int) -> int:
    """``col`` moved to the nearer edge of the cluster it falls inside (ties go to the end); a column on a
    boundary, or outside the line, is returned clamped to ``0..len(line)``."""
    if col <= 0 or col >= len(line):
        return max(0, min(col, len(line)))
    start = prev_boundary(line, col + 1)
    if start == col:
        return col
    end = start + len(next(iter_graphemes(line, start), ""))
    if end <= col:  # not inside after all (defensive: segmentation agreed col is a boundary)
        return col
    return start if col - start < end - col else end


def is_boundary(line: str, col: int) -> bool:
    """True when ``col`` is between two clusters (or at either end of ``line``)."""
    return snap(line, col) == col
