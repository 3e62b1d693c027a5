"""Deterministic Markdown content for the TUI benchmarks: replies with paragraphs, nested lists, code fences
and tables, sized in characters.

``markdown_reply(size, seed)`` returns a reply of about ``size`` characters (never less; at most one section
more). Sections rotate through heading + paragraph, nested list, fenced Python code, table and block quote, so
every Markdown block kind the transcript renders appears in a 40 KB reply many times.
"""

from __future__ import annotations

import random

WORDS = (
    "the agent reads files edits code runs tests and reports what changed in the session while streaming "
    "tokens from a model that answers with markdown lists tables and fenced code blocks about python async "
    "textual widgets rendering strips caches scrolling latency throughput memory"
).split()


def _sentence(rng: random.Random, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    words[0] = words[0].capitalize()
    if n > 6:
        words[3] = f"`{words[3]}`"
        words[5] = f"**{words[5]}**"
    return " ".join(words) + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng, rng.randint(8, 16)) for _ in range(rng.randint(3, 5)))


def _nested_list(rng: random.Random) -> str:
    lines = []
    for i in range(rng.randint(3, 5)):
        lines.append(f"{i + 1}. {_sentence(rng, rng.randint(5, 10))}")
        for _ in range(rng.randint(1, 3)):
            lines.append(f"   - {_sentence(rng, rng.randint(4, 8))}")
            if rng.random() < 0.4:
                lines.append(f"     - {_sentence(rng, rng.randint(3, 6))}")
    return "\n".join(lines)


def _code(rng: random.Random, k: int) -> str:
    body = [
        f"async def handler_{k}(session, event):",
        f'    """Handle event {k}: {_sentence(rng, 6)}"""',
        "    total = 0",
        f"    for index in range({rng.randint(3, 99)}):",
        "        total += await session.step(index, event)",
        "        if total > 1000:",
        '            raise ValueError(f"too large: {total}")',
        f"    return {{'id': {k}, 'total': total, 'ok': True}}",
    ]
    return "```python\n" + "\n".join(body) + "\n```"


def _table(rng: random.Random) -> str:
    rows = ["| figure | value | target | met |", "|---|---:|---:|:---:|"]
    for _ in range(rng.randint(3, 6)):
        rows.append(
            f"| {rng.choice(WORDS)} {rng.choice(WORDS)} | {rng.randint(1, 9999)} | {rng.randint(1, 999)} |"
            f" {rng.choice(['yes', 'no'])} |"
        )
    return "\n".join(rows)


def _quote(rng: random.Random) -> str:
    return "> " + _sentence(rng, 12) + "\n> " + _sentence(rng, 9)


def markdown_reply(size: int, seed: int = 0) -> str:
    """A Markdown reply of at least ``size`` characters (deterministic for a given ``seed``)."""
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    k = 0
    while total < size:
        kind = k % 5
        if kind == 0:
            part = f"## Section {k // 5 + 1}\n\n{_paragraph(rng)}"
        elif kind == 1:
            part = _nested_list(rng)
        elif kind == 2:
            part = _paragraph(rng) + "\n\n" + _code(rng, k)
        elif kind == 3:
            part = _table(rng)
        else:
            part = _quote(rng) + "\n\n" + _paragraph(rng)
        parts.append(part)
        total += len(part) + 2
        k += 1
    return "\n\n".join(parts) + "\n"


def short_markdown(rng: random.Random, marker: str, sections: int) -> str:
    """A shorter assistant reply starting with ``marker`` (one paragraph + ``sections`` list/code/table parts)."""
    parts = [f"{marker} {_paragraph(rng)}"]
    for k in range(sections):
        if k % 3 == 0:
            parts.append(_nested_list(rng))
        elif k % 3 == 1:
            parts.append(_code(rng, k))
        else:
            parts.append(_table(rng))
    return "\n\n".join(parts)
