"""Re-wrapping and paging a long session (issue 15): an assistant reply's height estimate reads its text once per
change (a resize re-estimates every item: reading each reply's text again from its message models was half of
a 10,000-message resize), and the app spaces full garbage collections (they stalled paging)."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, ThinkingContent, ToolCall
from pi_tui.tui import launch
from pi_tui.tui.widgets.transcript_items import AssistantItem


def _reply(*content: Any, stop: str = "stop") -> AssistantMessage:
    return AssistantMessage(content=list(content), api="openai-completions", provider="p", model="m",
                            stop_reason=stop)  # type: ignore[arg-type]


def test_a_reply_reads_its_text_once_per_change_for_its_estimates(monkeypatch: pytest.MonkeyPatch) -> None:
    item = AssistantItem(_reply(ToolCall(id="c", name="read", arguments={})))
    calls = []
    original = AssistantItem.plain_text

    def counting(self: AssistantItem) -> str:
        calls.append(1)
        return original(self)

    monkeypatch.setattr(AssistantItem, "plain_text", counting)
    assert [item.estimate_height(w) for w in (120, 100, 80, 120)] == [0, 0, 0, 0]  # only a tool call: no rows
    assert len(calls) == 1
    item.update(_reply(ThinkingContent(thinking="hmm"), TextContent(text="line one\n" + "x" * 250)))
    heights = [item.estimate_height(w) for w in (120, 100, 80)]
    assert heights == [2 + 4 + 250 // (w - 2) for w in (120, 100, 80)]  # "hmm", "", "line one", 250 x's
    assert len(calls) == 3  # the emptiness check and the line lengths, once for the new version
    item.update(_reply(stop="error"))
    assert item.estimate_height(100) == 2 + 1  # an error with no text still shows (its error line)


def test_the_app_spaces_full_collections() -> None:
    before = gc.get_threshold()
    try:
        launch.space_full_collections()
        young, middle, full = gc.get_threshold()
        assert (young, middle) == before[:2] and full == launch.FULL_COLLECTION_EVERY > 10
    finally:
        gc.set_threshold(*before)
