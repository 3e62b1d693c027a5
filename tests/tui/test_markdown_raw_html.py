"""Raw HTML in Markdown is shown as the text it is (new-user report: ``List<String>``, ``<div class="x">``,
``<script>…</script> hi`` and ``#include <stdio.h>`` vanished from prompts and answers on screen, while the session
file kept them). Rich drops markdown-it's ``html_inline``/``html_block`` tokens; pi's terminal Markdown shows them."""

from __future__ import annotations

import pytest

from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext


def _screen_text(text: str, width: int = 100) -> str:
    ctx = RenderContext(find_theme("dark"))
    return "\n".join(strip.text.rstrip() for strip in ctx.markdown_strips(text, width))


@pytest.mark.parametrize(
    ("markdown", "visible"),
    [
        ('why does <div class="x"> break my List<String> parser?', 'why does <div class="x"> break my List<String> parser?'),
        ("Wrap it in a <section> element. `List<String>` in code is fine.", "Wrap it in a <section> element. List<String> in code is fine."),
        ("#include <stdio.h> and vector<int> v", "#include <stdio.h> and vector<int> v"),
        ("<script>alert(2)</script> hi", "<script>alert(2)</script> hi"),
        ("<div>\nblock html\n</div>", "<div>\nblock html\n</div>"),
        ("Intro\n\n<details>\n<summary>More</summary>\n</details>\n\nOutro", "Intro\n\n<details>\n<summary>More</summary>\n</details>\n\nOutro"),
        ("a <!-- comment --> b", "a <!-- comment --> b"),
    ],
)
def test_raw_html_is_shown_as_text(markdown: str, visible: str) -> None:
    assert _screen_text(markdown).strip("\n") == visible
