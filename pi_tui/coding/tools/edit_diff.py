"""Applying edits and diffs for the ``edit`` tool (pi-reference §3.13 ``edit``, §6 "Edit tool").

* Matching (:mod:`pi_tui.coding.tools.edit_match`): every edit is matched against the ORIGINAL content,
  exactly (line breaks read as ``\\n``), else in the fuzzy view; one definition of a match serves
  finding, counting and replacing. Only the matched spans are replaced: every other character of the
  file stays as it was, trailing whitespace, smart quotes and line endings included (pi 0.73.1 instead
  rewrites the whole file in normalised form when any edit needed the fuzzy view; DIFFERENCES.md T1).
* Line endings: the line breaks of a newText are written with the file's FIRST line break
  (:func:`first_line_break`); the line endings outside the replaced spans are kept, so a mixed file
  ``a\\r\\nb\\nc\\r\\n`` stays mixed (pi rewrites every ending with the first one; case 19).
* BOM: a leading U+FEFF is removed before matching and put back on write.
* Diff: :func:`generate_diff_string` gives pi's line-numbered diff (``+N line`` / ``-N line`` /
  `` N line`` with 4 context lines and `` ...`` gaps); :func:`unified_diff` gives a standard unified
  diff for the UI artifact (pi-tui addition).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from pi_tui.coding.tools.edit_match import Matcher, normalize_for_fuzzy_match
from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncate_head

__all__ = ["normalize_for_fuzzy_match"]  # re-exported for callers of the old location


class EditError(Exception):
    """An edit that cannot be applied; the message is pi's exact error text."""


@dataclass
class EditSpec:
    """One replacement: ``old_text`` -> ``new_text``."""

    old_text: str
    new_text: str


def normalize_to_lf(text: str) -> str:
    """CRLF and lone CR become LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def restore_line_endings(text: str, ending: str) -> str:
    """LF text with every ``\\n`` written as ``ending``."""
    return text if ending == "\n" else text.replace("\n", ending)


def strip_bom(content: str) -> tuple[str, str]:
    """``(bom, text)``: ``bom`` is ``"\\ufeff"`` if ``content`` starts with it, else ``""``."""
    if content.startswith("\ufeff"):
        return "\ufeff", content[1:]
    return "", content


def _not_found(path: str, i: int, total: int) -> EditError:
    if total == 1:
        return EditError(
            f"Could not find the exact text in {path}. The old text must match exactly including all "
            "whitespace and newlines."
        )
    return EditError(
        f"Could not find edits[{i}] in {path}. The oldText must match exactly including all whitespace "
        "and newlines."
    )


def _duplicate(path: str, i: int, total: int, count: int) -> EditError:
    if total == 1:
        return EditError(
            f"Found {count} occurrences of the text in {path}. The text must be unique. Please provide "
            "more context to make it unique."
        )
    return EditError(
        f"Found {count} occurrences of edits[{i}] in {path}. Each oldText must be unique. Please provide "
        "more context to make it unique."
    )


@dataclass
class EditOutcome:
    """Result of :func:`apply_edits`: the new text, and per edit its original ``(start, end)`` span and
    whether only the fuzzy view matched it (in the order the edits were given)."""

    content: str
    spans: list[tuple[int, int]]
    fuzzy: list[bool]


def first_line_break(content: str) -> str:
    """The first line break of ``content`` (``"\\r\\n"``, ``"\\r"`` or ``"\\n"``); ``"\\n"`` if it has none."""
    for i, ch in enumerate(content):
        if ch == "\n":
            return "\n"
        if ch == "\r":
            return "\r\n" if content[i + 1 : i + 2] == "\n" else "\r"
    return "\n"


def apply_edits(content: str, edits: list[EditSpec], path: str) -> EditOutcome:
    """Apply ``edits`` to ``content`` (BOM already removed, line endings as in the file).

    Each oldText is matched against the ORIGINAL content (:class:`~pi_tui.coding.tools.edit_match.Matcher`:
    exact, else fuzzy); exactly one match is required. Only the matched spans change: every other
    character, line ending included, is kept. Line breaks of a newText are written with the file's first
    line break (:func:`first_line_break`). Raises :class:`EditError` with pi's texts for an empty oldText, a
    missing or ambiguous match, overlapping edits, or a result identical to the input.
    """
    total = len(edits)
    for i, e in enumerate(edits):
        if not e.old_text:
            if total == 1:
                raise EditError(f"oldText must not be empty in {path}.")
            raise EditError(f"edits[{i}].oldText must not be empty in {path}.")
    matcher = Matcher(content)
    ending = first_line_break(content)
    spans: list[tuple[int, int]] = []
    fuzzy: list[bool] = []
    for i, e in enumerate(edits):
        located = matcher.locate(e.old_text)
        if not located.spans:
            raise _not_found(path, i, total)
        if len(located.spans) > 1:
            raise _duplicate(path, i, total, len(located.spans))
        spans.append(located.spans[0])
        fuzzy.append(located.fuzzy)
    order = sorted(range(total), key=lambda k: spans[k])
    for prev, cur in zip(order, order[1:], strict=False):
        if spans[prev][1] > spans[cur][0]:
            raise EditError(
                f"edits[{prev}] and edits[{cur}] overlap in {path}. Merge them into one edit or "
                "target disjoint regions."
            )
    pieces: list[str] = []
    pos = 0
    for k in order:
        start, end = spans[k]
        pieces.append(content[pos:start])
        pieces.append(restore_line_endings(normalize_to_lf(edits[k].new_text), ending))
        pos = end
    pieces.append(content[pos:])
    new = "".join(pieces)
    if new == content:
        if total == 1:
            raise EditError(
                f"No changes made to {path}. The replacement produced identical content. This might "
                "indicate an issue with special characters or the text not existing as expected."
            )
        raise EditError(f"No changes made to {path}. The replacements produced identical content.")
    return EditOutcome(new, spans, fuzzy)

def _line_tokens(text: str) -> list[str]:
    """Split like jsdiff ``diffLines``: each token is a line with its ``\\n`` (the last may lack it)."""
    if not text:
        return []
    parts = text.split("\n")
    tokens = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        tokens.append(parts[-1])
    return tokens


def _diff_parts(old: str, new: str) -> list[tuple[str, list[str]]]:
    """Line diff as jsdiff-like parts ``(kind, lines)``, kind in ``"="``, ``"-"``, ``"+"``."""
    a, b = _line_tokens(old), _line_tokens(new)
    parts: list[tuple[str, list[str]]] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            parts.append(("=", a[i1:i2]))
            continue
        if i2 > i1:
            parts.append(("-", a[i1:i2]))
        if j2 > j1:
            parts.append(("+", b[j1:j2]))
    return parts


def generate_diff_string(old: str, new: str, context_lines: int = 4) -> tuple[str, int | None]:
    """pi's ``generateDiffString``: ``(diff, first_changed_line)``.

    Lines are ``+<n> text`` (n = new line number), ``-<n> text`` (old line number) and `` <n> text``
    (context, old line number); numbers are right-aligned to the width of the larger line count.
    Unchanged runs keep ``context_lines`` lines next to a change and show skipped lines as
    `` <pad> ...``. ``first_changed_line`` is the new-file line number of the first change (None if equal).
    """
    parts = _diff_parts(old, new)
    width = len(str(max(len(old.split("\n")), len(new.split("\n")))))
    pad = " " * width
    out: list[str] = []
    old_no = new_no = 1
    last_was_change = False
    first_changed: int | None = None

    def ctx(lines: list[str]) -> None:
        nonlocal old_no, new_no
        for line in lines:
            out.append(f" {str(old_no).rjust(width)} {line}")
            old_no += 1
            new_no += 1

    def skip(n: int) -> None:
        nonlocal old_no, new_no
        out.append(f" {pad} ...")
        old_no += n
        new_no += n

    for i, (kind, tokens) in enumerate(parts):
        raw = [t[:-1] if t.endswith("\n") else t for t in tokens]
        if kind != "=":
            if first_changed is None:
                first_changed = new_no
            for line in raw:
                if kind == "+":
                    out.append(f"+{str(new_no).rjust(width)} {line}")
                    new_no += 1
                else:
                    out.append(f"-{str(old_no).rjust(width)} {line}")
                    old_no += 1
            last_was_change = True
            continue
        next_is_change = i < len(parts) - 1 and parts[i + 1][0] != "="
        if last_was_change and next_is_change:
            if len(raw) <= context_lines * 2:
                ctx(raw)
            else:
                ctx(raw[:context_lines])
                skip(len(raw) - 2 * context_lines)
                ctx(raw[len(raw) - context_lines :])
        elif last_was_change:
            shown = raw[:context_lines]
            ctx(shown)
            if len(raw) > len(shown):
                skip(len(raw) - len(shown))
        elif next_is_change:
            skipped = max(0, len(raw) - context_lines)
            if skipped > 0:
                skip(skipped)
            ctx(raw[skipped:])
        else:
            old_no += len(raw)
            new_no += len(raw)
        last_was_change = False
    return "\n".join(out), first_changed


def unified_diff(old: str, new: str, path: str, *, old_exists: bool = True) -> str:
    """Standard unified diff (3 context lines, ``--- a/<path>`` / ``+++ b/<path>``; ``/dev/null`` for a
    new file) of two LF texts, for the UI diff artifact. Capped at 2000 lines / 50 KB with a final
    ``[diff truncated: ...]`` line."""
    lines = difflib.unified_diff(
        old.splitlines(),
        new.splitlines(),
        fromfile=f"a/{path}" if old_exists else "/dev/null",
        tofile=f"b/{path}",
        lineterm="",
    )
    text = "\n".join(lines)
    cut = truncate_head(text, DEFAULT_MAX_LINES, DEFAULT_MAX_BYTES)
    if not cut.truncated:
        return text
    return f"{cut.content}\n[diff truncated: showing {cut.output_lines} of {cut.total_lines} lines]"
