"""Compaction token budgeting against pi's fixes after 0.73.1 (tests/conformance/PI_FIXES.md).

- pi 0.80.6 (#6464): after a compaction, the output budget of the next request (``max_tokens`` fitted to what the
  window leaves) anchored on the usage of a kept assistant message from before the compaction, which reports the
  old, large context: the request asked for far too few output tokens.
- pi 0.80.4 (#6326): the cut point counted only ``message`` entries towards ``keepRecentTokens``; custom
  messages the context shows (and branch summaries) were free, so far more was kept.
- pi 0.86.0 (#9740): when the newest turn's tool results alone exceeded ``keepRecentTokens`` there was no cut
  point after them and the whole history was kept: a mid-run (turn-boundary) compaction did nothing.
- pi 0.74.1: a summary request's output limit never exceeds the model's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.output_budget import DEFAULT_MAX_TOKENS_CAP, default_max_tokens
from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.ai.types import AssistantMessage, Context, Model, TextContent, Usage, UserMessage
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction.prepare import CompactionSettings, find_cut_point
from pi_tui.coding.compaction.summarize import summary_max_tokens
from pi_tui.coding.messages import convert_to_llm
from pi_tui.coding.session.session_manager import SessionManager

from ..coding.session_core.helpers import EchoTool, Recorder, SleepRecorder, make_session

WINDOW = 131072


def _assistant(text: str, input_tokens: int, timestamp: int) -> AssistantMessage:
    return AssistantMessage(content=[TextContent(text=text)], api="x", provider="x", model="m",
                            usage=Usage(input=input_tokens, output=100), stop_reason="stop", timestamp=timestamp)


def test_the_output_budget_after_a_compaction_ignores_usage_from_before_it(tmp_path: Path) -> None:
    manager = SessionManager.in_memory(str(tmp_path))
    manager.append_message(UserMessage(content=[TextContent(text="old question")], timestamp=1_000))
    manager.append_message(_assistant("old answer", 120_000, 2_000))  # the context was nearly full then
    kept = manager.append_message(UserMessage(content=[TextContent(text="recent question")], timestamp=3_000))
    manager.append_message(_assistant("recent answer", 125_000, 4_000))
    manager.append_compaction("the summary", kept, 125_000)
    manager.append_message(UserMessage(content=[TextContent(text="next question")], timestamp=10**13))
    messages = manager.build_session_context().messages
    model = Model(id="m", api="openai-completions", provider="x", context_window=WINDOW, max_tokens=65536)
    request = Context(system_prompt="sys", messages=convert_to_llm(messages))
    assert default_max_tokens(model, request) == DEFAULT_MAX_TOKENS_CAP  # the context is small again
    # the kept messages themselves still carry their usage (the file and the footer are unchanged)
    assert [m.usage.input for m in messages if getattr(m, "role", "") == "assistant"] == [125_000]


def test_usage_after_the_compaction_still_anchors_the_budget(tmp_path: Path) -> None:
    manager = SessionManager.in_memory(str(tmp_path))
    kept = manager.append_message(UserMessage(content=[TextContent(text="q")], timestamp=1_000))
    manager.append_message(_assistant("a", 100_000, 2_000))
    manager.append_compaction("the summary", kept, 100_000)
    manager.append_message(UserMessage(content=[TextContent(text="q2")], timestamp=10**13))
    manager.append_message(_assistant("a2", 110_000, 10**13 + 1))
    manager.append_message(UserMessage(content=[TextContent(text="q3")], timestamp=10**13 + 2))
    model = Model(id="m", api="openai-completions", provider="x", context_window=WINDOW, max_tokens=65536)
    request = Context(system_prompt="sys", messages=convert_to_llm(manager.build_session_context().messages))
    budget = default_max_tokens(model, request)
    assert budget is not None and budget < DEFAULT_MAX_TOKENS_CAP  # 110k reported after the boundary


def test_context_visible_custom_messages_count_towards_keep_recent_tokens(tmp_path: Path) -> None:
    manager = SessionManager.in_memory(str(tmp_path))
    for n in range(6):
        manager.append_message(UserMessage(content=[TextContent(text=f"question {n} " + "q" * 400)], timestamp=n))
        manager.append_message(_assistant(f"answer {n} " + "a" * 400, 0, n))
    manager.append_custom_message_entry("note", "n" * 4000)  # ~1000 tokens the context shows
    manager.append_message(UserMessage(content=[TextContent(text="last")], timestamp=99))
    entries = manager.get_branch()
    cut = find_cut_point(entries, 0, len(entries), keep_recent_tokens=1000)
    kinds = [e.type for e in entries[cut.first_kept_index:]]
    assert kinds == ["custom_message", "message"], kinds  # the note alone fills the budget


@pytest.mark.anyio
async def test_a_mid_run_compaction_summarises_history_when_the_turns_tool_results_exceed_the_budget(
    tmp_path: Path, faux: FauxProvider
) -> None:
    faux.set_responses([
        faux_assistant_message("earlier answer " * 50),
        faux_assistant_message([faux_tool_call("echo", {"text": "t" * 4000}, id="c1")], stop_reason="toolUse"),
        faux_assistant_message("## Goal\nthe history summary"),
        faux_assistant_message("## Original Request\ndo it"),
        faux_assistant_message("final answer"),
    ])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000, keep_recent_tokens=200))
    model = faux.get_model().model_copy()
    model.context_window = 10000
    session = make_session(tmp_path, model, settings=settings, tools=[EchoTool()], sleep=SleepRecorder())
    await session.prompt("earlier " + "e" * 800)
    rec = Recorder(session)
    await session.prompt("do it " + "q " * 6000)  # the tool turn ends above 10000 - 5000 tokens
    ends = rec.of("compaction_end")
    assert len(ends) == 1 and ends[0]["reason"] == "threshold"
    result: dict[str, Any] = ends[0].get("result") or {}
    assert result.get("summary", "").startswith("## Goal\nthe history summary"), ends
    kept_roles = [getattr(m, "role", "") for m in session.messages if getattr(m, "role", "") != "notification"]
    assert kept_roles[:4] == ["compactionSummary", "assistant", "toolResult", "assistant"], kept_roles
    assert session.get_last_assistant_text() == "final answer"


def test_a_summary_request_never_asks_for_more_than_the_models_output_limit() -> None:
    small = Model(id="m", api="x", provider="x", context_window=WINDOW, max_tokens=8192)
    assert summary_max_tokens(small, reserve_tokens=16384) == 8192  # pi 0.73: 0.8 * 16384 = 13107
    unknown = Model(id="m", api="x", provider="x", context_window=WINDOW, max_tokens=0)
    assert summary_max_tokens(unknown, reserve_tokens=16384) == 13107
