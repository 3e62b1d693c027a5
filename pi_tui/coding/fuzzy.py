"""pi's fuzzy matching (pi-tui ``fuzzy.js``, 0.73.1): the query's characters appear in the text in order, not
necessarily next to each other; a lower score is a better match.

Scoring, as pi's: each consecutive match is rewarded (-5 per run length), a gap costs 2 per skipped character,
a match at a word boundary (start, or after whitespace ``-_./:``) is rewarded (-10), later matches cost 0.1 per
position, the whole text equal to the query is rewarded (-100). A query like ``abc12`` / ``12abc`` that does not
match is tried with its letters and digits swapped (score +5).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_BOUNDARY = frozenset(" \t\n\r\f\v-_./:")
_LETTERS_DIGITS = re.compile(r"^([a-z]+)([0-9]+)$")
_DIGITS_LETTERS = re.compile(r"^([0-9]+)([a-z]+)$")


@dataclass(frozen=True)
class FuzzyMatch:
    """``matches``: every query character was found in order; ``score``: lower is better (0 when no match)."""

    matches: bool
    score: float


def _match(query: str, text: str) -> FuzzyMatch:
    if not query:
        return FuzzyMatch(True, 0.0)
    if len(query) > len(text):
        return FuzzyMatch(False, 0.0)
    qi = 0
    score = 0.0
    last = -1
    run = 0
    for i, ch in enumerate(text):
        if qi >= len(query):
            break
        if ch != query[qi]:
            continue
        if last == i - 1:
            run += 1
            score -= run * 5
        else:
            run = 0
            if last >= 0:
                score += (i - last - 1) * 2
        if i == 0 or text[i - 1] in _BOUNDARY:
            score -= 10
        score += i * 0.1
        last = i
        qi += 1
    if qi < len(query):
        return FuzzyMatch(False, 0.0)
    if query == text:
        score -= 100
    return FuzzyMatch(True, score)


def fuzzy_match(query: str, text: str) -> FuzzyMatch:
    """pi's ``fuzzyMatch(query, text)``, case-insensitive (module docstring)."""
    q, t = query.lower(), text.lower()
    primary = _match(q, t)
    if primary.matches:
        return primary
    swap = _LETTERS_DIGITS.match(q) or _DIGITS_LETTERS.match(q)
    if swap is None:
        return primary
    swapped = _match(swap.group(2) + swap.group(1), t)
    return FuzzyMatch(True, swapped.score + 5) if swapped.matches else primary


def _token_match(token: str, text: str) -> FuzzyMatch:
    """``token`` against ``text``; a token with ``/`` that does not match whole matches when each of its
    ``/``-separated parts does (pi 0.79.2: ``openai/gpt-4o``, inserted by the ``/model`` completion, still
    matches the item it came from, whose text is ``"gpt-4o openai"``)."""
    found = fuzzy_match(token, text)
    if found.matches or "/" not in token:
        return found
    parts = [p for p in token.split("/") if p]
    total = 0.0
    for part in parts:
        sub = fuzzy_match(part, text)
        if not sub.matches:
            return found
        total += sub.score
    return FuzzyMatch(True, total) if parts else found


def fuzzy_filter(items: Sequence[T], query: str, text_of: Callable[[T], str]) -> list[T]:
    """pi's ``fuzzyFilter``: the items whose text matches every whitespace-separated token of ``query``, best
    (lowest total score) first, ties in their given order; all items, in order, for a blank query. A token
    with ``/`` may match part by part (:func:`_token_match`)."""
    tokens = query.split()
    if not tokens:
        return list(items)
    scored: list[tuple[float, int, T]] = []
    for index, item in enumerate(items):
        text = text_of(item)
        total = 0.0
        for token in tokens:
            found = _token_match(token, text)
            if not found.matches:
                break
            total += found.score
        else:
            scored.append((total, index, item))
    scored.sort(key=lambda row: (row[0], row[1]))
    return [item for _, _, item in scored]
