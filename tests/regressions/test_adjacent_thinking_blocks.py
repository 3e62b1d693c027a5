"""Adjacent thinking blocks of one reply are one thinking section (pi 0.80.8).

A reply can carry several thinking blocks in a row (OpenAI reasoning summaries, Anthropic interleaved or
redacted thinking, servers that restart a reasoning block). Collapsed, pi-tui drew one "Thinking..." line per
block, so a reply showed a stack of identical labels; now a run of adjacent thinking blocks shows one, and
thinking separated by text still shows one per run.
"""

from __future__ import annotations

from pi_tui.ai.types import AssistantMessage, TextContent, ThinkingContent
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript_items import AssistantItem


def _rows(message: AssistantMessage, *, hide_thinking: bool) -> list[str]:
    ctx = RenderContext(find_theme("dark"))
    ctx.hide_thinking = hide_thinking
    item = AssistantItem(message)
    item.streaming = False
    return ["".join(seg.text for seg in strip).strip() for strip in item.build(ctx, 80)]


def _message(*blocks: object) -> AssistantMessage:
    return AssistantMessage(content=list(blocks), api="x", provider="p", model="m", stop_reason="stop")


def test_a_run_of_thinking_blocks_collapses_to_one_label() -> None:
    message = _message(ThinkingContent(thinking="**Plan** first"), ThinkingContent(thinking="then more"),
                       ThinkingContent(thinking="and more"), TextContent(text="The answer."),
                       ThinkingContent(thinking="after the answer"))
    rows = [r for r in _rows(message, hide_thinking=True) if r]
    assert rows == ["Thinking...", "The answer.", "Thinking..."]


def test_expanded_adjacent_thinking_shows_every_block() -> None:
    message = _message(ThinkingContent(thinking="first part"), ThinkingContent(thinking="second part"),
                       TextContent(text="Done."))
    text = "\n".join(_rows(message, hide_thinking=False))
    assert "first part" in text and "second part" in text and "Done." in text
    assert "Thinking..." not in text
