"""A streaming code block does not grow by a line and shrink back while its closing fence arrives one backtick
at a time (pi 1.x 0.79.9); a line that turns out to be code shows as soon as it does, and the finished render is
unchanged."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.markdown_incremental import IncrementalMarkdown
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.streaming_fence import hold_partial_fence

CTX = RenderContext(find_theme("dark"))
REPLY = "Intro\n\n```python\nx = 1\ny = 2\n```\n\nAfter the code.\n\n~~~~\nz\n~~~~\n\n- item\n\n  ```\n  in list\n  ```\n"


def _heights(texts: list[str]) -> list[int]:
    return [len(CTX.markdown_strips(t, 50, final=False)) for t in texts]


def test_the_block_never_shrinks_while_its_fence_streams() -> None:
    prefixes = [REPLY[:n] for n in range(len(REPLY) + 1)]
    heights = _heights(prefixes)
    for n in range(1, len(heights)):
        assert heights[n] >= heights[n - 1], (repr(prefixes[n]), heights[n - 1], heights[n])


def test_only_a_run_shorter_than_the_open_fence_is_held() -> None:
    assert hold_partial_fence("```py\nx\n``") == "```py\nx\n"
    assert hold_partial_fence("```py\nx\n`") == "```py\nx\n"
    assert hold_partial_fence("````\nx\n```") == "````\nx\n"  # a 4-backtick fence is closed by 4
    assert hold_partial_fence("```py\nx\n``x") == "```py\nx\n``x"  # code after all
    assert hold_partial_fence("```py\nx\n~~") == "```py\nx\n~~"  # the other character: code
    assert hold_partial_fence("text\n``") == "text\n``"  # no open fence
    assert hold_partial_fence("```py\nx\n```\n``") == "```py\nx\n```\n``"  # the fence closed before
    assert hold_partial_fence("~~~\nx\n~~") == "~~~\nx\n"


@settings(max_examples=40, derandomize=True, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=40))
def test_streamed_in_any_chunks_the_final_render_is_the_one_shot_render(cuts: list[int]) -> None:
    incremental = IncrementalMarkdown()
    pos = 0
    for step in cuts:
        pos = min(len(REPLY), pos + step)
        incremental.strips(CTX, REPLY[:pos], 50, final=False)
    final = incremental.strips(CTX, REPLY, 50, final=True)
    assert [s.text for s in final] == [s.text for s in CTX.markdown_strips(REPLY, 50, final=True)]
