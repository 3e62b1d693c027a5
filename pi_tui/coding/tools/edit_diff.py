"""Text matching and diffs for the ``edit`` tool (pi-reference §3.13 ``edit``, §6 "Edit tool").

* Line endings: :func:`detect_line_ending` returns the ending of the FIRST line break in the file
  (``"\\r\\n"`` or ``"\\n"``). The content is normalised to LF for matching and every line ending is
  written back with that one ending. So a mixed file ``a\\r\\nb\\nc\\r\\n`` becomes all CRLF after an edit
  ("the first line's ending wins", pi's rule; pinned by a test, case 19).
* BOM: a leading U+FEFF is removed before matching and put back on write.
* Matching: every edit is matched against the ORIGINAL content, first exactly, then in a fuzzy
  normalised space (:func:`normalize_for_fuzzy_match`). If any edit needs the fuzzy space, the whole
  file is rewritten in normalised form (pi's behaviour).
* Diff: :func:`generate_diff_string` gives pi's line-numbered diff (``+N line`` / ``-N line`` /
  `` N line`` with 4 context lines and `` ...`` gaps); :func:`unified_diff` gives a standard unified
  diff for the UI artifact (pi-tui addition).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass

from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncate_head

_SINGLE_QUOTES = re.compile("[\u2018\u2019\u201a\u201b]")
_DOUBLE_QUOTES = re.compile("[\u201c\u201d\u201e\u201f]")
_DASHES = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]")
_SPACES = re.compile("[\u00a0\u2002-\u200a\u202f\u205f\u3000]")


class EditError(Exception):
    """An edit that cannot be applied; the message is pi's exact error text."""


@dataclass
class EditSpec:
    """One replacement: ``old_text`` -> ``new_text``."""

    old_text: str
    new_text: str


def detect_line_ending(content: str) -> str:
    """``"\\r\\n"`` if the first ``\\n`` in ``content`` is preceded by ``\\r``, else ``"\\n"``."""
    lf = content.find("\n")
    if lf == -1:
        return "\n"
    crlf = content.find("\r\n")
    if crlf == -1:
        return "\n"
    return "\r\n" if crlf < lf else "\n"


def normalize_to_lf(text: str) -> str:
    """CRLF and lone CR become LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def restore_line_endings(text: str, ending: str) -> str:
    """LF text back to ``ending`` (only CRLF changes anything)."""
    return text.replace("\n", "\r\n") if ending == "\r\n" else text


def strip_bom(content: str) -> tuple[str, str]:
    """``(bom, text)``: ``bom`` is ``"\\ufeff"`` if ``content`` starts with it, else ``""``."""
    if content.startswith("\ufeff"):
        return "\ufeff", content[1:]
    return "", content


def normalize_for_fuzzy_match(text: str) -> str:
    """NFKC, trailing whitespace stripped per line, smart quotes -> ASCII, Unicode dashes -> ``-``,
    exotic spaces -> space (pi ``normalizeForFuzzyMatch``)."""
    text = unicodedata.normalize("NFKC", text)
    text = "\n".join(line.rstrip() for line in text.split("\n"))
    text = _SINGLE_QUOTES.sub("'", text)
    text = _DOUBLE_QUOTES.sub('"', text)
    text = _DASHES.sub("-", text)
    return _SPACES.sub(" ", text)


@dataclass
class _Match:
    found: bool
    index: int
    length: int
    used_fuzzy: bool


def fuzzy_find_text(content: str, old_text: str) -> _Match:
    """Exact ``content.find(old_text)``; else the same search in the fuzzy-normalised space (the index
    is then an index into ``normalize_for_fuzzy_match(content)``)."""
    exact = content.find(old_text)
    if exact != -1:
        return _Match(True, exact, len(old_text), False)
    fuzzy_content = normalize_for_fuzzy_match(content)
    fuzzy_old = normalize_for_fuzzy_match(old_text)
    idx = fuzzy_content.find(fuzzy_old)
    if idx == -1:
        return _Match(False, -1, 0, False)
    return _Match(True, idx, len(fuzzy_old), True)


def _count_occurrences(content: str, old_text: str) -> int:
    return normalize_for_fuzzy_match(content).count(normalize_for_fuzzy_match(old_text))


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


def apply_edits_to_normalized_content(
    normalized_content: str, edits: list[EditSpec], path: str
) -> tuple[str, str]:
    """Apply all ``edits`` to LF content; returns ``(base_content, new_content)``.

    ``base_content`` is the content the diff is computed against (the fuzzy-normalised file when any
    edit needed fuzzy matching). Raises :class:`EditError` with pi's texts for an empty oldText, a
    missing or ambiguous match, overlapping edits, or a result identical to the input.
    """
    norm = [EditSpec(normalize_to_lf(e.old_text), normalize_to_lf(e.new_text)) for e in edits]
    total = len(norm)
    for i, e in enumerate(norm):
        if not e.old_text:
            if total == 1:
                raise EditError(f"oldText must not be empty in {path}.")
            raise EditError(f"edits[{i}].oldText must not be empty in {path}.")
    initial = [fuzzy_find_text(normalized_content, e.old_text) for e in norm]
    base = (
        normalize_for_fuzzy_match(normalized_content)
        if any(m.used_fuzzy for m in initial)
        else normalized_content
    )
    matched: list[tuple[int, int, int, str]] = []  # (index, length, edit index, new text)
    for i, e in enumerate(norm):
        m = fuzzy_find_text(base, e.old_text)
        if not m.found:
            raise _not_found(path, i, total)
        count = _count_occurrences(base, e.old_text)
        if count > 1:
            raise _duplicate(path, i, total, count)
        matched.append((m.index, m.length, i, e.new_text))
    matched.sort(key=lambda t: t[0])
    for prev, cur in zip(matched, matched[1:], strict=False):
        if prev[0] + prev[1] > cur[0]:
            raise EditError(
                f"edits[{prev[2]}] and edits[{cur[2]}] overlap in {path}. Merge them into one edit or "
                "target disjoint regions."
            )
    new = base
    for index, length, _i, new_text in reversed(matched):
        new = new[:index] + new_text + new[index + length :]
    if new == base:
        if total == 1:
            raise EditError(
                f"No changes made to {path}. The replacement produced identical content. This might "
                "indicate an issue with special characters or the text not existing as expected."
            )
        raise EditError(f"No changes made to {path}. The replacements produced identical content.")
    return base, new


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
