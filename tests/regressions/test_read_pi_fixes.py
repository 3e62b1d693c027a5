"""The ``read`` tool against pi's fixes after 0.73.1 (tests/conformance/PI_FIXES.md).

- pi 1.5.1 (#9654): ``read`` loaded the whole file into memory even with ``offset``/``limit`` (a large log ran
  the process out of memory). A local file is now streamed and only the lines that can be shown are kept; the
  output (notices, ``details.truncation``) is the same as from the whole text, which a property test checks.
- pi 1.3.0 / 0.99.0: the call's range label (``read path:10-19``, TUI and HTML export) was missing for
  numeric-string or float ``offset``/``limit`` (the tool accepts them), and must not show ``:1`` when both
  are null.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.coding.tools.read import ReadTool, format_text
from pi_tui.coding.tools.read_lines import select_lines, split_text_lines
from pi_tui.coding.tools.truncate import truncate_head


def _old_format(text: str, offset: int | None, limit: int | None) -> tuple[str, Any]:
    """The whole-text rule the streamed path must match (pi-reference §3.13 ``read``)."""
    from pi_tui.coding.tools.truncate import count_lines

    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    all_lines = normalized.split("\n")
    total = count_lines(normalized)
    start = max(0, offset - 1) if offset else 0
    if start >= total:
        return "beyond", total
    end = min(start + limit, total) if limit is not None else len(all_lines)
    cut = truncate_head("\n".join(all_lines[start:end]), 40, 300)
    return cut.content, (cut.truncated, cut.truncated_by, cut.total_lines, cut.total_bytes, cut.output_lines,
                         cut.first_line_exceeds_limit, total, end - start)


_lines = st.lists(st.sampled_from(["", "a", "bb", "x" * 90, "é€😀", "\r", "z" * 400]), max_size=120)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(parts=_lines, trailing=st.sampled_from(["", "\n", "\r\n", "\r"]), offset=st.one_of(st.none(), st.integers(1, 130)),
       limit=st.one_of(st.none(), st.integers(0, 130)))
def test_the_kept_window_gives_what_the_whole_text_gave(parts: list[str], trailing: str, offset: int | None,
                                                        limit: int | None) -> None:
    text = "\n".join(parts) + trailing
    expected = _old_format(text, offset, limit)
    window = select_lines(split_text_lines(text), offset, limit, max_lines=40, max_bytes=300)
    if expected[0] == "beyond":
        assert window.start >= window.total and window.total == expected[1]
        return
    cut = window.cut
    assert (cut.content, (cut.truncated, cut.truncated_by, cut.total_lines, cut.total_bytes, cut.output_lines,
                          cut.first_line_exceeds_limit, window.total, window.count)) == expected


@pytest.mark.anyio
async def test_read_with_offset_and_limit_keeps_only_the_shown_lines_in_memory(tmp_path: Path) -> None:
    big = tmp_path / "big.log"
    line = "0123456789" * 9 + "\n"
    with big.open("w", encoding="utf-8") as f:
        for _ in range(6):
            f.write(line * 50_000)  # 30 MB, 300,000 lines
    tool = ReadTool(str(tmp_path))
    tracemalloc.start()
    try:
        result = await tool.execute("c1", {"path": "big.log", "offset": 150_000, "limit": 5})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    text = result.content[0].text  # type: ignore[union-attr]
    assert text.startswith(line.rstrip("\n")) and "[149996 more lines in file. Use offset=150005 to continue.]" in text
    assert peak < 5_000_000, peak  # the whole file is 30 MB


@pytest.mark.anyio
async def test_the_streamed_read_matches_the_whole_text_notices(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"".join(f"line {i}\r\n".encode() for i in range(1, 3001)) + b"tail\rlast")
    tool = ReadTool(str(tmp_path))
    raw = path.read_bytes().decode("utf-8")
    for params in ({}, {"offset": 2990}, {"offset": 10, "limit": 3}, {"limit": 2500}, {"offset": 3002}):
        result = await tool.execute("c", {"path": "f.txt", **params})
        out, details = format_text(raw, "f.txt", params.get("offset"), params.get("limit"))
        assert result.content[0].text == out and result.details == details, params  # type: ignore[union-attr]
    with pytest.raises(Exception, match=r"Offset 4000 is beyond end of file \(3002 lines total\)"):
        await tool.execute("c", {"path": "f.txt", "offset": 4000})


@pytest.mark.parametrize(
    ("args", "label"),
    [
        ({"path": "a.py", "offset": 10, "limit": 5}, "read a.py:10-14"),
        ({"path": "a.py", "offset": "10", "limit": "5"}, "read a.py:10-14"),  # numeric strings (pi 1.3.0)
        ({"path": "a.py", "offset": 10.0, "limit": 5.0}, "read a.py:10-14"),
        ({"path": "a.py", "offset": " 7 "}, "read a.py:7"),
        ({"path": "a.py", "limit": "3"}, "read a.py:1-3"),
        ({"path": "a.py", "offset": None, "limit": None}, "read a.py"),  # null: the whole file, no ":1" (0.99.0)
        ({"path": "a.py", "offset": "soon", "limit": True}, "read a.py"),
    ],
)
def test_read_range_labels(args: dict[str, Any], label: str) -> None:
    from pi_tui.coding.export_html.tools import call_summary
    from pi_tui.tui.widgets.tool_format import call_line

    assert call_line("read", args) == label
    assert call_summary("read", args) == label.removeprefix("read ")
