"""Where an ``edit`` oldText matches a file: one definition for finding, counting and replacing.

Issue 10 class 2 ("the edit tool never changes what it was not asked to change"); tests/regressions/
test_edit_preserves_bytes.py. pi 0.73.1 rewrites the whole file in its fuzzy-normalised form when any
edit needed fuzzy matching (earendil-works/pi#5899) and counts occurrences in the fuzzy space even for an
exact match (pi#8628); pi-tui does neither (tests/conformance/DIFFERENCES.md, T1-T3).

A *view* of a text is a normalised string plus a map from positions in it back to the original text. The
original is cut into *units* (a line break ``\\r\\n``/``\\r``/``\\n``; a character with the combining marks
that follow it; a trailing-whitespace run) and each unit normalises on its own:

* :func:`lf_view` — line breaks only: ``\\r\\n`` and a lone ``\\r`` read as ``\\n`` (pi's ``normalizeToLF``);
* :func:`fuzzy_view` — also NFKC, smart quotes to ASCII, Unicode dashes to ``-``, exotic spaces to a
  space, and the whitespace at the end of every line removed (pi's ``normalizeForFuzzyMatch``).

A **match** of ``old`` in a text is a place where ``view(old)`` occurs in ``view(text)`` (overlapping
occurrences included) that starts and ends on unit boundaries; it stands for exactly the original
characters of the units it covers, trailing-whitespace units at its two ends left out. An occurrence
that starts or ends inside a unit (``"i"`` inside the ligature ``"ﬁ"``, between ``e`` and its accent) is
not a match. :func:`locate` tries the line-break view first and the fuzzy view only when the former has
no match at all; the count it reports is the count of matches in the view that was used.
"""

from __future__ import annotations

import bisect
import functools
import re
import unicodedata
from dataclasses import dataclass

_FOLD = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
        **dict.fromkeys("\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000", " "),
    }
)


@dataclass
class View:
    """``normalized`` text and, per segment, ``(n_start, n_end, o_start, o_end, identity)``.

    Segments tile both strings in order. An identity segment has equal lengths and every position inside
    it is a unit boundary; any other segment is one unit (only its two ends are boundaries) and may be
    empty in the normalised string (trailing whitespace).
    """

    normalized: str
    n_starts: list[int]
    n_ends: list[int]
    o_starts: list[int]
    o_ends: list[int]
    identity: list[bool]

    def original_span(self, start: int, end: int) -> tuple[int, int] | None:
        """Original ``(start, end)`` of the normalised ``[start, end)`` (``end > start``), or None when
        either end falls inside a unit."""
        i = _segment_of(self, start)
        j = _segment_of(self, end - 1)
        if i is None or j is None:
            return None
        if self.identity[i]:
            o_start = self.o_starts[i] + (start - self.n_starts[i])
        elif start == self.n_starts[i]:
            o_start = self.o_starts[i]
        else:
            return None
        if self.identity[j]:
            o_end = self.o_starts[j] + (end - self.n_starts[j])
        elif end == self.n_ends[j]:
            o_end = self.o_ends[j]
        else:
            return None
        return o_start, o_end


def _segment_of(view: View, pos: int) -> int | None:
    """Index of the non-empty segment holding normalised position ``pos``."""
    i = bisect.bisect_right(view.n_starts, pos) - 1
    while i >= 0 and view.n_ends[i] == view.n_starts[i]:
        i -= 1  # empty segments share their start with the next one
    if i < 0 or not view.n_starts[i] <= pos < view.n_ends[i]:
        return None
    return i


class _Builder:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.n = 0
        self.o = 0
        self.view = View("", [], [], [], [], [])

    def add(self, original_len: int, normalized: str, identity: bool) -> None:
        v = self.view
        n_len = len(normalized)
        if identity and v.identity and v.identity[-1] and v.n_ends[-1] == self.n:
            v.n_ends[-1] += n_len  # extend the previous identity run
            v.o_ends[-1] += original_len
        elif original_len or n_len:
            v.n_starts.append(self.n)
            v.n_ends.append(self.n + n_len)
            v.o_starts.append(self.o)
            v.o_ends.append(self.o + original_len)
            v.identity.append(identity)
        self.parts.append(normalized)
        self.n += n_len
        self.o += original_len

    def done(self) -> View:
        self.view.normalized = "".join(self.parts)
        return self.view


_BREAK = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> list[tuple[str, str]]:
    """``[(body, break)]`` with break in ``("\\r\\n", "\\r", "\\n", "")``."""
    out: list[tuple[str, str]] = []
    start = 0
    for m in _BREAK.finditer(text):
        out.append((text[start : m.start()], m.group()))
        start = m.end()
    if start < len(text) or not out:
        out.append((text[start:], ""))
    return out


def _add_break(b: _Builder, brk: str) -> None:
    if brk == "\n":
        b.add(1, "\n", True)
    elif brk:
        b.add(len(brk), "\n", False)


def lf_view(text: str) -> View:
    """The line-break view of ``text`` (see the module docstring)."""
    b = _Builder()
    if "\r" not in text:
        b.add(len(text), text, True)
        return b.done()
    for body, brk in _lines(text):
        b.add(len(body), body, True)
        _add_break(b, brk)
    return b.done()


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


# Starters (combining class 0) that are the SECOND character of a canonical composition pair (Unicode
# 14 data, as shipped with Python 3.11; tests/regressions/test_edit_preserves_bytes.py re-derives it).
# Hangul vowel and trailing jamo compose algorithmically and are tested by range.
COMPOSING_STARTERS = frozenset(
    chr(cp)
    for cp in (
        0x09BE, 0x09D7, 0x0B3E, 0x0B56, 0x0B57, 0x0BBE, 0x0BD7, 0x0CC2, 0x0CD5, 0x0CD6, 0x0D3E, 0x0D57,
        0x0DCF, 0x0DDF, 0x0FB5, 0x0FB7, 0x102E, 0x1B35, 0x11127, 0x1133E, 0x11357, 0x114B0, 0x114BA,
        0x114BD, 0x115AF, 0x11930,
    )
)


@functools.lru_cache(maxsize=4096)
def _may_join(ch: str) -> bool:
    """Can ``ch`` change the NFKC form of the character before it?"""
    if unicodedata.combining(ch) or ch in COMPOSING_STARTERS or 0x1160 <= ord(ch) <= 0x11FF:
        return True
    decomposed = unicodedata.normalize("NFKD", ch)
    return bool(decomposed) and unicodedata.combining(decomposed[0]) != 0


@functools.lru_cache(maxsize=4096)
def _fold_char(unit: str) -> str:
    return _nfkc(unit).translate(_FOLD)


def _fold(unit: str) -> str:
    return _fold_char(unit) if len(unit) == 1 else _nfkc(unit).translate(_FOLD)


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


_Item = tuple[str, str, bool]  # (original, normalised, identity)


def _items(body: str) -> list[_Item]:
    """A line as items: ASCII runs (identity) and units (a non-ASCII character with whatever composes
    with it: combining marks, Hangul jamo, the other canonical composition pairs, and the character
    before them, an ASCII base letter included)."""
    items: list[_Item] = []
    pos = 0
    for run in _NON_ASCII.finditer(body):
        if run.start() > pos:
            items.append((body[pos : run.start()], body[pos : run.start()], True))
        for ch in run.group():
            if items and _may_join(ch):
                last, _, identity = items[-1]
                split = identity and len(last) > 1  # the base is the last character of an ASCII run
                base = last[-1] if split else last
                if unicodedata.combining(ch) or _nfkc(base + ch) != _nfkc(base) + _nfkc(ch):
                    if split:
                        items[-1] = (last[:-1], last[:-1], True)
                        items.append((base, base, True))
                    items[-1] = (base + ch, _fold(base + ch), False)
                    continue
            norm = _fold(ch)
            items.append((ch, norm, norm == ch))
        pos = run.end()
    if pos < len(body):
        items.append((body[pos:], body[pos:], True))
    return items


def _fuzzy_line(b: _Builder, body: str) -> None:
    if body.isascii():
        kept = body.rstrip()
        b.add(len(kept), kept, True)
        b.add(len(body) - len(kept), "", False)
        return
    items = _items(body)
    tail = 0  # original length of the trailing-whitespace units
    while items:
        original, norm, identity = items[-1]
        if not norm or norm.isspace():
            tail += len(original)
            items.pop()
            continue
        if identity:
            kept = norm.rstrip()
            tail += len(original) - len(kept)
            items[-1] = (kept, kept, True)
        else:
            items[-1] = (original, norm.rstrip(), False)
        break
    for original, norm, identity in items:
        b.add(len(original), norm, identity)
    b.add(tail, "", False)


def fuzzy_view(text: str) -> View:
    """The fuzzy view of ``text`` (see the module docstring)."""
    b = _Builder()
    for body, brk in _lines(text):
        _fuzzy_line(b, body)
        _add_break(b, brk)
    return b.done()


def normalize_for_fuzzy_match(text: str) -> str:
    """The fuzzy-normalised form of ``text`` (line breaks read as ``\\n``)."""
    return fuzzy_view(text).normalized


@dataclass
class Located:
    """Result of :func:`locate`: original ``spans`` of every match, and whether the fuzzy view was used."""

    spans: list[tuple[int, int]]
    fuzzy: bool


def _matches(view: View, needle: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    if not needle:
        return spans
    hay = view.normalized
    pos = hay.find(needle)
    while pos != -1:
        span = view.original_span(pos, pos + len(needle))
        if span is not None:
            spans.append(span)
        pos = hay.find(needle, pos + 1)
    return spans


class Matcher:
    """Matches oldTexts against one original text; views are built once and reused."""

    def __init__(self, content: str) -> None:
        self.content = content
        self._lf: View | None = None
        self._fuzzy: View | None = None

    def locate(self, old_text: str) -> Located:
        """Every match of ``old_text`` (exact view first; fuzzy view only if that has none)."""
        if self._lf is None:
            self._lf = lf_view(self.content)
        exact = _matches(self._lf, lf_view(old_text).normalized)
        if exact:
            return Located(exact, False)
        if self._fuzzy is None:
            self._fuzzy = fuzzy_view(self.content)
        return Located(_matches(self._fuzzy, fuzzy_view(old_text).normalized), True)
