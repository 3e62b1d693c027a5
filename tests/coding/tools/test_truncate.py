"""truncate.ts helpers (pi-reference §3.13 shared limits)."""

from __future__ import annotations

from pi_tui.coding.tools.truncate import (
    format_size,
    tail_bytes_utf8,
    truncate_head,
    truncate_line,
    truncate_tail,
)


def test_format_size() -> None:
    assert format_size(0) == "0B"
    assert format_size(1023) == "1023B"
    assert format_size(1024) == "1.0KB"
    assert format_size(51200) == "50.0KB"
    assert format_size(1536) == "1.5KB"
    assert format_size(1024 * 1024) == "1.0MB"
    assert format_size(300_000) == "293.0KB"


def test_truncate_head_within_limits_is_untouched() -> None:
    r = truncate_head("a\nb\nc")
    assert not r.truncated and r.content == "a\nb\nc" and r.total_lines == 3 and r.truncated_by is None


def test_truncate_head_by_lines_and_bytes() -> None:
    r = truncate_head("\n".join(str(i) for i in range(10)), max_lines=3)
    assert r.content == "0\n1\n2" and r.truncated_by == "lines" and r.output_lines == 3 and r.total_lines == 10
    r = truncate_head("aaaa\nbbbb\ncccc", max_bytes=9)
    assert r.content == "aaaa\nbbbb" and r.truncated_by == "bytes" and r.output_bytes == 9


def test_truncate_head_first_line_too_long() -> None:
    r = truncate_head("x" * 100 + "\nshort", max_bytes=50)
    assert r.content == "" and r.first_line_exceeds_limit and r.truncated_by == "bytes"
    assert r.to_dict()["firstLineExceedsLimit"] is True


def test_truncate_tail_keeps_end_and_partial_last_line() -> None:
    r = truncate_tail("\n".join(str(i) for i in range(10)), max_lines=3)
    assert r.content == "7\n8\n9" and r.truncated_by == "lines"
    r = truncate_tail("head\n" + "é" * 30, max_bytes=11)
    assert r.last_line_partial and r.truncated_by == "bytes"
    assert r.content == "é" * 5  # 11 bytes -> starts on a character boundary: 10 bytes
    assert tail_bytes_utf8("aé", 1) == ""


def test_truncate_line() -> None:
    assert truncate_line("x" * 500) == ("x" * 500, False)
    assert truncate_line("x" * 501) == ("x" * 500 + "... [truncated]", True)
