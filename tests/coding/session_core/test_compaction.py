"""Compaction: maths, cut points, manual/threshold/overflow/turn-boundary runs (pi-reference §3.8–§3.9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.ai.types import Model
from pi_tui.coding.agent_session.compaction import CompactionError
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction import (
    calculate_context_tokens,
    estimate_context_tokens,
    estimate_tokens,
    find_cut_point,
    serialize_conversation,
)
from pi_tui.coding.compaction.prepare import CompactionSettings
from pi_tui.coding.messages import convert_to_llm

from .helpers import EchoTool, Recorder, SleepRecorder, make_session, session_lines

pytestmark = pytest.mark.anyio

SUMMARY = "## Goal\nTest.\n\n## Progress\n### Done\n- [x] things"


def _msg(role: str, text: str, **extra: Any) -> dict[str, Any]:
    if role == "assistant":
        return {"role": "assistant", "content": [{"type": "text", "text": text}], "stopReason": "stop",
                "usage": extra.get("usage", {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0}),
                "timestamp": 1}
    return {"role": role, "content": [{"type": "text", "text": text}], "timestamp": 1, **extra}


def test_token_maths() -> None:
    assert estimate_tokens(_msg("user", "x" * 9)) == 3
    image = {"role": "user", "content": [{"type": "image", "data": "", "mimeType": "image/png"}], "timestamp": 1}
    assert estimate_tokens(image) == 1200
    assert estimate_tokens({"role": "notification", "text": "x" * 400, "level": "info"}) == 0
    assert calculate_context_tokens({"input": 1, "output": 2, "cacheRead": 3, "cacheWrite": 4, "totalTokens": 0}) == 10
    used = _msg("assistant", "a", usage={"input": 100, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 120})
    aborted = {**_msg("assistant", "b", usage={"totalTokens": 999}), "stopReason": "aborted"}
    estimate = estimate_context_tokens([_msg("user", "q"), used, aborted, _msg("user", "x" * 8)])
    assert (estimate.tokens, estimate.last_usage_index) == (120 + 1 + 2, 1)


def _entry(i: int, message: dict[str, Any]) -> dict[str, Any]:
    return {"type": "message", "id": f"id{i}", "parentId": f"id{i - 1}" if i else None, "message": message}


def test_find_cut_point_never_at_tool_result_and_detects_split_turn() -> None:
    entries = [
        _entry(0, _msg("user", "a" * 400)),
        _entry(1, _msg("assistant", "b" * 400)),
        _entry(2, _msg("user", "c" * 400)),
        _entry(3, {"role": "assistant", "content": [{"type": "toolCall", "id": "t", "name": "read", "arguments": {"path": "f"}}],
                   "stopReason": "toolUse", "timestamp": 1}),
        _entry(4, {"role": "toolResult", "toolCallId": "t", "toolName": "read", "content": [{"type": "text", "text": "d" * 400}],
                   "isError": False, "timestamp": 1}),
        _entry(5, _msg("assistant", "e" * 40)),
    ]
    # budget reached at the toolResult (index 4): the cut moves forward to the next valid point, never onto it
    cut = find_cut_point(entries, 0, len(entries), keep_recent_tokens=100)
    assert (cut.first_kept_index, cut.turn_start_index, cut.is_split_turn) == (5, 2, True)
    cut = find_cut_point(entries, 0, len(entries), keep_recent_tokens=112)  # 10 + 100 + 4 tokens
    assert (cut.first_kept_index, cut.turn_start_index, cut.is_split_turn) == (3, 2, True)
    cut = find_cut_point(entries, 0, len(entries), keep_recent_tokens=214)
    assert (cut.first_kept_index, cut.turn_start_index, cut.is_split_turn) == (2, -1, False)
    everything = find_cut_point(entries, 0, len(entries), keep_recent_tokens=100000)
    assert everything.first_kept_index == 0 and not everything.is_split_turn


def test_serialize_conversation() -> None:
    messages = convert_to_llm([
        _msg("user", "hello"),
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "ok"},
                                          {"type": "toolCall", "id": "1", "name": "read", "arguments": {"path": "a.py"}}],
         "stopReason": "toolUse", "timestamp": 1},
        {"role": "toolResult", "toolCallId": "1", "toolName": "read", "content": [{"type": "text", "text": "z" * 2005}],
         "isError": False, "timestamp": 1},
        {"role": "notification", "level": "info", "text": "never", "timestamp": 1},
    ])
    text = serialize_conversation(messages)
    assert text.startswith('[User]: hello\n\n[Assistant thinking]: hmm\n\n[Assistant]: ok\n\n[Assistant tool calls]: read(path="a.py")')
    assert text.endswith("\n\n[... 5 more characters truncated]") and "never" not in text


def _big_model(faux: FauxProvider, window: int) -> Model:
    model = faux.get_model().model_copy()
    model.context_window = window
    return model


async def test_manual_compaction_persists_and_rebuilds(tmp_path: Path, faux: FauxProvider) -> None:
    # keep 50 tokens: the cut lands on the last assistant reply → split turn → history + turn-prefix summaries
    faux.set_responses([faux_assistant_message("a" * 400), faux_assistant_message("b" * 400),
                        faux_assistant_message(SUMMARY), faux_assistant_message("## Original Request\nsecond")])
    settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=50))
    session = make_session(tmp_path, faux.get_model(), settings=settings)
    rec = Recorder(session)
    await session.prompt("first " + "x" * 400)
    await session.prompt("second")
    result = await session.compact("focus on tests")
    assert result["summary"].startswith(SUMMARY) and result["tokensBefore"] > 0
    assert "**Turn Context (split turn):**" in result["summary"]
    assert [e["type"] for e in rec.events if e["type"].startswith("compaction")] == ["compaction_start", "compaction_end"]
    assert rec.of("compaction_start")[0]["reason"] == "manual"
    assert rec.of("compaction_end")[0]["result"]["firstKeptEntryId"] == result["firstKeptEntryId"]
    lines = session_lines(session)
    compaction = [line for line in lines if line["type"] == "compaction"]
    assert len(compaction) == 1 and compaction[0]["firstKeptEntryId"] == result["firstKeptEntryId"]
    roles = [m.role for m in session.messages if m.role != "notification"]
    assert roles == ["compactionSummary", "assistant"]  # summary first, then the kept suffix of the split turn
    with pytest.raises(CompactionError, match="Already compacted"):
        await session.compact()


async def test_nothing_to_compact(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model())
    with pytest.raises(CompactionError, match="Nothing to compact"):
        await session.compact()


async def test_threshold_compaction_after_agent_end(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("answer"), faux_assistant_message("answer 2"),
                        faux_assistant_message(SUMMARY)])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000, keep_recent_tokens=10))
    session = make_session(tmp_path, _big_model(faux, 10000), settings=settings)
    rec = Recorder(session)
    await session.prompt("small")
    assert rec.of("compaction_start") == []
    await session.prompt("q " * 6000)  # ~3000 input tokens (+ cache write) > 10000 - 5000
    assert rec.of("compaction_start") == [{"type": "compaction_start", "reason": "threshold"}]
    end = rec.of("compaction_end")[0]
    assert end["reason"] == "threshold" and end["result"]["summary"].startswith(SUMMARY) and not end["willRetry"]
    assert rec.types().index("compaction_start") > rec.types().index("agent_end")


async def test_no_threshold_compaction_below_threshold_or_disabled(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([faux_assistant_message("answer"), faux_assistant_message("again")])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000))
    session = make_session(tmp_path, _big_model(faux, 100000), settings=settings)
    rec = Recorder(session)
    await session.prompt("hi")
    session.settings.compaction.enabled = False
    session.agent.state.model = _big_model(faux, 10)
    await session.prompt("hi")
    assert rec.of("compaction_start") == []


async def test_turn_boundary_compaction_continues_the_run(tmp_path: Path, faux: FauxProvider) -> None:
    """Beyond pi (§5 item 4): a tool turn above the threshold stops, compacts, then the run goes on."""
    faux.set_responses([
        faux_assistant_message("earlier answer"),
        faux_assistant_message([faux_tool_call("echo", {"text": "t" * 20}, id="c1")], stop_reason="toolUse"),
        faux_assistant_message(SUMMARY),
        faux_assistant_message("## Original Request\ndo it"),
        faux_assistant_message("final answer"),
    ])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000, keep_recent_tokens=10))
    session = make_session(tmp_path, _big_model(faux, 10000), settings=settings, tools=[EchoTool()],
                           sleep=SleepRecorder())
    await session.prompt("earlier")
    rec = Recorder(session)
    await session.prompt("do it " + "q " * 6000)  # the tool turn ends above 10000 - 5000 tokens
    types = [t for t in rec.types() if not t.endswith(":notification")]
    assert types[:13] == [
        "agent_start", "turn_start", "message_start:user", "message_end:user", "message_start:assistant",
        "message_end:assistant", "tool_execution_start", "tool_execution_end", "message_start:toolResult",
        "message_end:toolResult", "turn_end", "agent_end", "compaction_start",
    ]
    assert types[13:16] == ["compaction_end", "agent_start", "turn_start"]
    assert rec.of("compaction_end")[0]["result"]["summary"].startswith(SUMMARY)
    assert session.get_last_assistant_text() == "final answer"
    assert faux.state.call_count == 5


async def test_overflow_recovery_compacts_and_retries_once(tmp_path: Path, faux: FauxProvider) -> None:
    overflow = faux_assistant_message([], stop_reason="error",
                                      error_message="prompt is too long: 213462 tokens > 200000 maximum")
    faux.set_responses([faux_assistant_message("ok " * 50), overflow, faux_assistant_message(SUMMARY),
                        faux_assistant_message("recovered")])
    settings = SessionSettings(compaction=CompactionSettings(keep_recent_tokens=10))
    session = make_session(tmp_path, faux.get_model(), settings=settings, sleep=SleepRecorder())
    rec = Recorder(session)
    await session.prompt("one " * 100)
    await session.prompt("two")
    assert rec.of("compaction_start") == [{"type": "compaction_start", "reason": "overflow"}]
    assert rec.of("compaction_end")[0]["willRetry"] is True
    assert session.get_last_assistant_text() == "recovered"
    assert not any(m.role == "assistant" and m.stop_reason == "error" for m in session.messages)
