"""Split Markdown source into top-level blocks, the same way while streaming and when finished.

The streaming assistant message renders each *closed* block once (its strips are cached) and re-renders only
the open tail. Splitting is defined on complete lines only, so it is prefix-stable: the closed blocks of any
prefix of a text are exactly the first blocks of the whole text. Rendering the blocks of the final text
therefore gives the same result as the streamed render.

Block boundaries (outside fenced code):
- a blank line ends the current block, unless the block is a list and the next non-blank line is indented
  (a list item's continuation paragraph) or is another list item;
- an opening fence (three or more backticks or tildes) starts a new block, and its closing fence ends it;
  an indented fence right under a list item is part of that item (new-user run #19: it was cut out of the list
  and drawn at the left margin), so it neither starts a block nor ends one.
"""

from __future__ import annotations

import re

_FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_LIST_RE = re.compile(r"^ {0,3}([-*+]|\d{1,9}[.)])(\s|$)")


def _is_blank(line: str) -> bool:
    return line.strip() == ""


def _is_list_item(line: str) -> bool:
    return bool(_LIST_RE.match(line))


_LIST_FENCE_RE = re.compile(r"^[ \t]+(`{3,}|~{3,})(.*)$")


def list_fence(current: list[str], line: str) -> re.Match[str] | None:
    """The opening fence ``line`` is when it is indented inside the list block ``current`` (a list item's
    code), else None: such a fence stays in the list's block."""
    if not current or not _is_list_item(current[0]):
        return None
    m = _LIST_FENCE_RE.match(line)
    return m if m and (m.group(1)[0] == "~" or "`" not in m.group(2)) else None


def split_blocks(text: str, final: bool = False) -> tuple[list[str], str]:
    """Split ``text`` into ``(closed_blocks, tail)``.

    ``closed_blocks`` are complete top-level blocks (no leading/trailing blank lines) that later text cannot
    change. ``tail`` is the unfinished rest ("" when nothing is open). With ``final=True`` the whole text is
    taken as complete: the tail, if any, is appended to the closed blocks and ``tail`` is "".
    """
    blocks, tail, _resume, _settled = scan_blocks(text, 0, final)
    return blocks, tail


def scan_blocks(text: str, start: int = 0, final: bool = False) -> tuple[list[str], str, int, int]:
    """``split_blocks`` of ``text[start:]``, where ``start`` is 0 or a resume offset this function returned for
    a text that ``text`` extends; returns ``(closed_blocks, tail, resume, settled)``.

    ``resume`` is the offset just after the last complete line after which the scan holds no open block (no
    fence, no list waiting for its next line), and ``settled`` how many of ``closed_blocks`` end before it.
    Scanning a longer text from ``resume`` gives exactly the blocks after the first ``settled`` ones (the scan
    is a function of its state and the remaining lines, and that state is empty there), so a growing text is
    split once per character instead of once per update.
    """
    lines = text[start:].split("\n")
    # The last element is an incomplete line unless the text ends with "\n" (then it is "").
    complete = lines[:-1]
    partial = lines[-1]
    if final:
        complete = lines if partial != "" else complete
        partial = ""

    blocks: list[str] = []
    current: list[str] = []
    fence: str | None = None  # fence marker while inside a fenced block
    fence_in_list = False  # that fence is a list item's: its end does not end the block
    pending_blank = False  # a blank line seen after a list block; decision waits for the next line
    pos = start
    resume, settled = start, 0
    n_terminated = len(lines) - 1  # lines followed by "\n" (only those can end before a resume point)

    def close() -> None:
        nonlocal current
        if current:
            blocks.append("\n".join(current))
        current = []

    for k, line in enumerate(complete):
        pos += len(line) + 1
        if fence is not None:
            current.append(line)
            m = (_LIST_FENCE_RE if fence_in_list else _FENCE_RE).match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and m.group(2).strip() == "":
                fence = None
                if not fence_in_list:
                    close()
        elif _is_blank(line):
            if current and _is_list_item(current[0]):
                pending_blank = True
            else:
                close()
        else:
            if pending_blank:
                pending_blank = False
                if line.startswith((" ", "\t")) or _is_list_item(line):
                    current.append("")
                else:
                    close()
            m = list_fence(current, line)
            fence_in_list = m is not None
            if m is None:
                m = _FENCE_RE.match(line)
            if m and (m.group(1)[0] == "~" or "`" not in m.group(2)):
                if not fence_in_list:
                    close()
                fence = m.group(1)
            current.append(line)
        if not current and fence is None and not pending_blank and k < n_terminated:
            resume, settled = pos, len(blocks)

    if final:
        close()
        return blocks, "", resume, settled
    tail_lines = current + ([partial] if partial else [])
    tail = "\n".join(tail_lines)
    if pending_blank and not partial:
        # A list followed by a blank line: still open until the next line shows whether it continues.
        tail = "\n".join(current)
    return blocks, tail, resume, settled


def all_blocks(text: str) -> list[str]:
    """Every block of a finished text (``split_blocks(text, final=True)[0]``)."""
    return split_blocks(text, final=True)[0]
