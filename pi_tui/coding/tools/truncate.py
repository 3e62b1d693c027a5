"""Output truncation shared by the built-in tools (pi-reference §3.13 "Shared limits", Appendix B).

Two independent limits, whichever is hit first: :data:`DEFAULT_MAX_LINES` lines and
:data:`DEFAULT_MAX_BYTES` UTF-8 bytes. Lines are split on ``\\n`` only. Head truncation never returns
a partial line; tail truncation keeps the UTF-8-safe end of the last line when that line alone is
over the byte limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

DEFAULT_MAX_LINES = 2000
DEFAULT_MAX_BYTES = 50 * 1024
GREP_MAX_LINE_LENGTH = 500

TruncatedBy = Literal["lines", "bytes"]


def byte_len(text: str) -> int:
    """UTF-8 length of ``text`` in bytes (lone surrogates count as 3 bytes, like Node's replacement)."""
    return len(text.encode("utf-8", "surrogatepass"))


def format_size(num_bytes: int) -> str:
    """pi's ``formatSize``: ``<1024`` -> ``"12B"``, ``<1 MiB`` -> ``"1.5KB"``, else ``"2.0MB"``."""
    if num_bytes < 1024:
        return f"{num_bytes}B"
    if num_bytes < 1024 * 1024:
        return f"{_to_fixed1(num_bytes / 1024)}KB"
    return f"{_to_fixed1(num_bytes / (1024 * 1024))}MB"


def _to_fixed1(value: float) -> str:
    # JS toFixed(1) rounds half away from zero on the decimal representation; format() is close enough
    # for sizes (values are multiples of 1/1024, never exact halves at the first decimal).
    return f"{value:.1f}"


@dataclass
class TruncationResult:
    """pi's ``TruncationResult``; :meth:`to_dict` gives the camelCase ``details.truncation`` form."""

    content: str
    truncated: bool
    truncated_by: TruncatedBy | None
    total_lines: int
    total_bytes: int
    output_lines: int
    output_bytes: int
    last_line_partial: bool
    first_line_exceeds_limit: bool
    max_lines: int
    max_bytes: int

    def to_dict(self) -> dict[str, Any]:
        """``{content, truncated, truncatedBy, totalLines, ...}`` exactly as pi puts it in ``details``."""
        return {
            "content": self.content,
            "truncated": self.truncated,
            "truncatedBy": self.truncated_by,
            "totalLines": self.total_lines,
            "totalBytes": self.total_bytes,
            "outputLines": self.output_lines,
            "outputBytes": self.output_bytes,
            "lastLinePartial": self.last_line_partial,
            "firstLineExceedsLimit": self.first_line_exceeds_limit,
            "maxLines": self.max_lines,
            "maxBytes": self.max_bytes,
        }


def split_lines(content: str) -> tuple[list[str], bool]:
    """``(lines, terminated)``: ``content`` split on ``\n``, where a final ``\n`` ends the last line instead of
    starting an empty one (so a 5,000-line file is 5,000 lines, not pi's 5,001; issue 9)."""
    lines = content.split("\n")
    terminated = len(lines) > 1 and lines[-1] == ""
    return (lines[:-1] if terminated else lines), terminated


def count_lines(content: str) -> int:
    """The number of lines of ``content`` (a final newline does not start another line; ``""`` is 1)."""
    return len(split_lines(content)[0])


def _untruncated(content: str, lines: int, nbytes: int, max_lines: int, max_bytes: int) -> TruncationResult:
    return TruncationResult(content, False, None, lines, nbytes, lines, nbytes, False, False, max_lines, max_bytes)


def truncate_head(
    content: str, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES
) -> TruncationResult:
    """Keep whole lines from the start while both limits hold (pi ``truncateHead``).

    If the first line alone is over ``max_bytes`` the content is empty and
    ``first_line_exceeds_limit`` is set.
    """
    total_bytes = byte_len(content)
    lines, _ = split_lines(content)
    total_lines = len(lines)
    if total_lines <= max_lines and total_bytes <= max_bytes:
        return _untruncated(content, total_lines, total_bytes, max_lines, max_bytes)
    if byte_len(lines[0]) > max_bytes:
        return TruncationResult(
            "", True, "bytes", total_lines, total_bytes, 0, 0, False, True, max_lines, max_bytes
        )
    kept: list[str] = []
    used = 0
    truncated_by: TruncatedBy = "lines"
    for i, line in enumerate(lines[:max_lines]):
        cost = byte_len(line) + (1 if i > 0 else 0)
        if used + cost > max_bytes:
            truncated_by = "bytes"
            break
        kept.append(line)
        used += cost
    if len(kept) >= max_lines and used <= max_bytes:
        truncated_by = "lines"
    out = "\n".join(kept)
    return TruncationResult(
        out, True, truncated_by, total_lines, total_bytes, len(kept), byte_len(out), False, False,
        max_lines, max_bytes,
    )


def tail_bytes_utf8(text: str, max_bytes: int) -> str:
    """The last ``max_bytes`` bytes of ``text`` in UTF-8, starting on a character boundary."""
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) <= max_bytes:
        return text
    start = len(raw) - max_bytes
    while start < len(raw) and (raw[start] & 0xC0) == 0x80:
        start += 1
    return raw[start:].decode("utf-8", "replace")


def truncate_tail(
    content: str, max_lines: int = DEFAULT_MAX_LINES, max_bytes: int = DEFAULT_MAX_BYTES
) -> TruncationResult:
    """Keep whole lines from the end while both limits hold (pi ``truncateTail``).

    If the last line alone is over ``max_bytes`` its UTF-8-safe tail is kept and
    ``last_line_partial`` is set.
    """
    total_bytes = byte_len(content)
    lines, terminated = split_lines(content)
    total_lines = len(lines)
    if total_lines <= max_lines and total_bytes <= max_bytes:
        return _untruncated(content, total_lines, total_bytes, max_lines, max_bytes)
    kept: list[str] = []
    used = 1 if terminated else 0  # the final newline is kept
    truncated_by: TruncatedBy = "lines"
    partial = False
    for line in reversed(lines):
        if len(kept) >= max_lines:
            break
        cost = byte_len(line) + (1 if kept else 0)
        if used + cost > max_bytes:
            truncated_by = "bytes"
            if not kept:
                cut = tail_bytes_utf8(line, max_bytes - (1 if terminated else 0))
                kept.append(cut)
                used = byte_len(cut)
                partial = True
            break
        kept.append(line)
        used += cost
    kept.reverse()
    if len(kept) >= max_lines and used <= max_bytes:
        truncated_by = "lines"
    out = "\n".join(kept) + ("\n" if terminated and kept else "")
    return TruncationResult(
        out, True, truncated_by, total_lines, total_bytes, len(kept), byte_len(out), partial, False,
        max_lines, max_bytes,
    )


def truncate_line(line: str, max_chars: int = GREP_MAX_LINE_LENGTH) -> tuple[str, bool]:
    """``(text, was_truncated)``: lines over ``max_chars`` become ``<first max_chars>... [truncated]``."""
    if len(line) <= max_chars:
        return line, False
    return f"{line[:max_chars]}... [truncated]", True
