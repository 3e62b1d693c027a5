"""Tool cards in the transcript: pi fixes after 0.73.1 (PI_FIXES.md rows 1.6.0, 1.5.1, 0.81.0).

A huge edit diff does not freeze the transcript (pi 1.6.0: "very large edit diffs crashed rendering, again on
every resume").

pi-tui drew every line of an edit's diff, collapsed or not: a 60,000-line diff (an edit that rewrote a large
generated file) took about a minute to lay out on this machine, on every redraw, every resize and on every
resume of the session. Now the transcript draws the first 200 diff lines with a hint naming the rest (1,000
expanded); the session and the tool result keep the whole diff.
"""

from __future__ import annotations

from pi_tui.coding.tools.edit_diff import generate_diff_string
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.tool_items import ToolItem


def _edit_item(lines: int) -> ToolItem:
    old = "".join(f"line {i} some text here\n" for i in range(lines))
    new = "".join(f"LINE {i} other text here\n" for i in range(lines))
    diff, _first = generate_diff_string(old, new)
    item = ToolItem("c1", "edit", {"path": "gen.txt", "edits": [{"oldText": old, "newText": new}]})
    item.status = "done"
    item.details = {"diff": diff, "firstChangedLine": 1}
    item.result_text = "Successfully replaced 1 block(s) in gen.txt."
    return item


def _text(item: ToolItem, ctx: RenderContext) -> str:
    return "\n".join("".join(seg.text for seg in strip) for strip in item.build(ctx, 120))


def test_a_huge_diff_draws_a_bounded_part_and_names_the_rest() -> None:
    ctx = RenderContext(find_theme("dark"))
    item = _edit_item(20_000)  # 40,000 diff lines
    collapsed = item.build(ctx, 120)
    assert len(collapsed) < tool_format.DIFF_COLLAPSED_LINES + 20
    text = _text(item, ctx)
    assert "line 0 some text here" in text and "line 300 some text here" not in text
    assert "(39800 more diff lines, Ctrl+O to expand)" in text
    item.expanded = True
    expanded = item.build(ctx, 120)
    assert len(expanded) < tool_format.DIFF_EXPANDED_LINES + 20
    assert "(39000 more diff lines not shown)" in _text(item, ctx)


def test_an_ordinary_diff_is_drawn_whole() -> None:
    ctx = RenderContext(find_theme("dark"))
    item = _edit_item(50)  # 100 diff lines
    text = _text(item, ctx)
    assert "more diff line" not in text
    assert "LINE 49 other text here" in text


def test_rendered_diff_lines_keep_their_indentation() -> None:
    """pi 1.5.1: rendered edit diffs lost the shared indentation when text was inserted at a line start (its
    word-level highlighting re-cut the lines). pi-tui draws each diff line as the tool wrote it."""
    ctx = RenderContext(find_theme("dark"))
    cases = [
        ("def f():\n    a = 1\n    return a\n", "def f():\n    b = 2\n    a = 1\n    return a\n",
         ["+2     b = 2", " 2     a = 1"]),
        ("    foo()\n    baz()\n", "X    foo()\n    baz()\n", ["-1     foo()", "+1 X    foo()", " 2     baz()"]),
        ("  a\n  b\n", "  new  a\n  b\n", ["-1   a", "+1   new  a"]),
    ]
    for old, new, expected in cases:
        diff, _first = generate_diff_string(old, new)
        item = ToolItem("c", "edit", {"path": "x.py", "edits": [{"oldText": old, "newText": new}]})
        item.status = "done"
        item.details = {"diff": diff}
        rows = [row.rstrip() for row in _text(item, ctx).split("\n")]  # each row: padding, then the diff line
        for line in expected:
            assert any(row.endswith(line) for row in rows), (line, rows)


def test_a_read_error_is_drawn_as_an_error_not_as_file_contents() -> None:
    """pi 0.81.0: ``read`` errors were syntax-highlighted as if they were the file (``read x.py`` failing showed
    the message coloured as Python). pi-tui draws a failed call's text in the error colour, whatever the path."""
    ctx = RenderContext(find_theme("dark"))
    item = ToolItem("c", "read", {"path": "src/app.py"})
    item.status = "error"
    item.result_text = "ENOENT: no such file or directory, open 'src/app.py'"
    error_color = ctx.theme.fg("error").color
    segments = [seg for strip in item.build(ctx, 100) for seg in strip if "ENOENT" in seg.text or "open" in seg.text]
    assert segments and all(seg.style is not None and seg.style.color == error_color for seg in segments)
