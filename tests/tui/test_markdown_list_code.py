"""New-user run #19: a fenced code block inside a list item is drawn under its item, not at the left margin
(markdown_blocks.scan_blocks kept an indented fence out of the list it belongs to)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.markdown_blocks import all_blocks, split_blocks
from pi_tui.tui.widgets.message_render import RenderContext

LIST_WITH_CODE = (
    "1. First item\n"
    "   ```python\n"
    "   def nested():\n"
    "\n"
    '       return "code in a list"\n'
    "   ```\n"
    "2. Second item\n"
    "\n"
    "After the list."
)


def _lines(text: str, width: int = 60) -> list[str]:
    ctx = RenderContext(find_theme("dark"))
    return [s.text.rstrip() for s in ctx.markdown_strips(text, width, final=True)]


def test_a_fence_in_a_list_item_belongs_to_the_list() -> None:
    assert all_blocks(LIST_WITH_CODE) == [LIST_WITH_CODE.rsplit("\n\n", 1)[0], "After the list."]


def test_the_code_is_drawn_under_its_item() -> None:
    lines = _lines(LIST_WITH_CODE)
    first = next(i for i, line in enumerate(lines) if "First item" in line)
    item_col = lines[first].index("First")
    fence = next(line for line in lines if "```python" in line)
    code = next(line for line in lines if "def nested" in line)
    assert fence.index("```") >= item_col, lines
    assert code.index("def") > item_col, lines
    second = next(line for line in lines if "Second item" in line)
    assert second.lstrip().startswith("2."), lines  # the same list goes on: numbered 2, not a new list's 1


def test_a_bullet_item_with_a_tilde_fence() -> None:
    text = "- item\n  ~~~\n  x = 1\n  ~~~\n- next"
    assert all_blocks(text) == [text]
    lines = _lines(text)
    assert next(line for line in lines if "x = 1" in line).index("x") > 2


LINES = st.sampled_from([
    "", "1. first", "- item", "   ```python", "  ```", "   ```", "```", "   code line", "code", "2. second",
    "text", "  ~~~", "~~~",
])


@given(st.lists(LINES, max_size=25), st.integers(min_value=0, max_value=600))
@settings(max_examples=300, deadline=None, derandomize=True)
def test_list_fences_keep_the_split_prefix_stable(lines: list[str], cut: int) -> None:
    text = "\n".join(lines)
    final = all_blocks(text)
    closed, _tail = split_blocks(text[: cut % (len(text) + 1)])
    assert final[: len(closed)] == closed
