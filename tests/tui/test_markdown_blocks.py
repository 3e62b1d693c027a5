"""Block splitting of streamed Markdown: prefix-stable, and the final split equals a one-shot split."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.tui.widgets.markdown_blocks import all_blocks, split_blocks

LINES = st.sampled_from([
    "", "", "Paragraph text.", "more text", "# Heading", "- item", "- other item", "  continued",
    "1. first", "```python", "```", "~~~~", "print('x')", "| a | b |", "|---|---|", "> quote", "    indented",
])


@given(st.lists(LINES, max_size=30), st.integers(min_value=0, max_value=2000))
@settings(max_examples=300, deadline=None)
def test_closed_blocks_of_any_prefix_are_a_prefix_of_the_final_blocks(lines: list[str], cut: int) -> None:
    text = "\n".join(lines)
    final = all_blocks(text)
    closed, _tail = split_blocks(text[: cut % (len(text) + 1)])
    assert final[: len(closed)] == closed


def test_fence_with_blank_lines_is_one_block() -> None:
    text = "Intro\n\n```python\na = 1\n\nb = 2\n```\n\nDone."
    assert all_blocks(text) == ["Intro", "```python\na = 1\n\nb = 2\n```", "Done."]


def test_open_fence_stays_in_the_tail() -> None:
    closed, tail = split_blocks("Intro\n\n```python\na = 1\n")
    assert closed == ["Intro"]
    assert tail == "```python\na = 1"


def test_partial_last_line_is_never_closed() -> None:
    closed, tail = split_blocks("First para\n\nSecond par")
    assert closed == ["First para"]
    assert tail == "Second par"


def test_loose_list_continues_after_blank_line() -> None:
    text = "- a\n\n- b\n\n  more about b\n\nAfter."
    assert all_blocks(text) == ["- a\n\n- b\n\n  more about b", "After."]


def test_tilde_fence_can_hold_backtick_fences() -> None:
    text = "~~~~\n```python\nx\n```\n~~~~\nafter"
    assert all_blocks(text)[0] == "~~~~\n```python\nx\n```\n~~~~"
