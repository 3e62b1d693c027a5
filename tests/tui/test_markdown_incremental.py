"""Incremental Markdown rendering of a growing text (issue 15): at every step of a stream the strips equal a fresh
block-by-block render of the text so far, the finished render equals a one-shot render, and each closed block is
rendered once (not once per update)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.markdown_blocks import scan_blocks, split_blocks
from pi_tui.tui.widgets.markdown_incremental import IncrementalMarkdown
from pi_tui.tui.widgets.message_render import RenderContext

LINES = st.sampled_from([
    "", "", "Paragraph text with `code` and **bold**.", "more text", "# Heading", "- item", "- other item",
    "  continued", "1. first", "```python", "```", "~~~~", "print('x')", "| a | b |", "|---|---|", "> quote",
    "    indented",
])


def _rows(strips: list) -> list[list[tuple[str, str]]]:
    return [[(seg.text, str(seg.style)) for seg in strip] for strip in strips]


@given(st.lists(LINES, max_size=25), st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=30))
@settings(max_examples=60, deadline=None, derandomize=True)
def test_every_step_and_the_end_equal_a_fresh_render(lines: list[str], steps: list[int]) -> None:
    ctx = RenderContext(find_theme("dark"))
    text = "\n".join(lines)
    render = IncrementalMarkdown(indent=1)
    pos = 0
    for step in steps:
        pos = min(len(text), pos + step)
        got = render.strips(ctx, text[:pos], 60, final=False)
        assert _rows(got) == _rows(ctx.markdown_strips(text[:pos], 60, final=False, indent=1))
    final = render.strips(ctx, text, 60, final=True)
    assert _rows(final) == _rows(ctx.markdown_strips(text, 60, final=True, indent=1))


@given(st.lists(LINES, max_size=30), st.integers(min_value=0, max_value=2000))
@settings(max_examples=200, deadline=None, derandomize=True)
def test_a_scan_resumed_at_its_resume_point_gives_the_remaining_blocks(lines: list[str], cut: int) -> None:
    text = "\n".join(lines)
    prefix = text[: cut % (len(text) + 1)]
    blocks, _tail, resume, settled = scan_blocks(prefix)
    assert text.startswith(prefix[:resume])
    rest, tail, _r, _s = scan_blocks(text, resume)
    whole, whole_tail = split_blocks(text)
    assert blocks[:settled] + rest == whole and tail == whole_tail


def test_each_closed_block_is_rendered_once_while_streaming() -> None:
    ctx = RenderContext(find_theme("dark"))
    paragraphs = [f"Paragraph {k} " + "word " * 30 for k in range(20)]
    text = "\n\n".join(paragraphs)
    render = IncrementalMarkdown()
    for pos in range(1, len(text) + 1, 7):
        render.strips(ctx, text[:pos], 80, final=False)
    updates = len(range(1, len(text) + 1, 7))
    # One render per update for the open tail, plus one per closed block: not one per block per update.
    assert render.rendered_blocks <= updates + len(paragraphs)


def test_a_text_that_does_not_extend_the_previous_one_starts_over() -> None:
    ctx = RenderContext(find_theme("dark"))
    render = IncrementalMarkdown()
    render.strips(ctx, "First para\n\nSecond para\n\nThird", 40, final=False)
    got = render.strips(ctx, "Other\n\nText", 40, final=True)
    assert _rows(got) == _rows(ctx.markdown_strips("Other\n\nText", 40, final=True))
