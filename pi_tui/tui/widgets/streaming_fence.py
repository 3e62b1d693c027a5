"""Hold back a half-typed closing fence at the end of a streaming code block (pi 1.x 0.79.9: "partial closing
code fences no longer make code blocks shrink or flicker while content streams").

While a reply streams, its open tail may end in ``` `` ``` (the first characters of the closing ```` ``` ````):
rendered as it is, that is one more line of code, which goes again when the third backtick closes the block, so
the block grew by a line and shrank back at every fence. :func:`hold_partial_fence` leaves such a line out of
the streaming render only; it shows as soon as it turns out to be code (another character arrives, or the line
ends). The finished render is never changed.
"""

from __future__ import annotations

import re

_OPEN_RE = re.compile(r"^[ \t]*(`{3,}|~{3,})(.*)$")
_RUN_RE = re.compile(r"^[ \t]*(`+|~+)$")


def _open_fence(lines: list[str]) -> str | None:
    """The fence marker left open after ``lines`` (CommonMark: a backtick fence's info has no backtick; the
    closing run is the same character, at least as long, with nothing after it but spaces)."""
    fence: str | None = None
    for line in lines:
        m = _OPEN_RE.match(line)
        if fence is None:
            if m and (m.group(1)[0] == "~" or "`" not in m.group(2)):
                fence = m.group(1)
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
            fence = None
    return fence


def hold_partial_fence(tail: str) -> str:
    """``tail`` without its last, unfinished line when that line can only be the start of the closing fence of
    the code block open before it (a run of the fence's character shorter than the fence); else ``tail``.

    ``tail``: the open tail of a streaming Markdown text (``split_blocks(text, final=False)[1]``)."""
    head, sep, last = tail.rpartition("\n")
    if not sep:
        return tail
    m = _RUN_RE.match(last)
    if m is None:
        return tail
    fence = _open_fence(head.split("\n"))
    if fence is None or m.group(1)[0] != fence[0] or len(m.group(1)) >= len(fence):
        return tail
    return head + "\n"
