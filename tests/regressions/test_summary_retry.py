"""Summary requests after pi 0.73 (tests/conformance/PI_FIXES.md, "Compaction"):

- pi 0.81.1: a transient failure (503, dropped connection) of a compaction's summary request is retried with the
  session's retry policy, with ``summarization_retry_*`` events; a permanent one (400) is not; retry off = no retry;
- pi 0.80.4: the two summary requests of a split turn run one after the other (single-slot local servers);
- pi 1.4.0: each request may use the model's whole output limit; ``/compact <instructions>`` focus the turn-prefix
  summary too.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.ai.types import AssistantMessage, Usage
from pi_tui.coding.agent_session.compaction import CompactionError
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction.prepare import CompactionSettings
from pi_tui.coding.compaction.summary_retry import SummaryRetry, request_with_retry
from pi_tui.coding.retry import RetrySettings

from ..coding.session_core.helpers import Recorder, SleepRecorder, make_session, session_lines

pytestmark = pytest.mark.anyio

SUMMARY = "## Goal\nTest.\n\n## Progress\n### Done\n- [x] things"
PREFIX = "## Original Request\nsecond"


def _error(text: str) -> AssistantMessage:
    return faux_assistant_message("", stop_reason="error", error_message=text)


async def _two_prompts(
    tmp_path: Path, faux: FauxProvider, steps: list[Any], sleep: Any = None, **settings: Any
) -> tuple[Any, Recorder]:
    """A session whose next compaction is a split turn (keep 50 tokens), after two answered prompts."""
    faux.set_responses([faux_assistant_message("a" * 400), faux_assistant_message("b" * 400), *steps])
    session = make_session(
        tmp_path,
        faux.get_model(),
        settings=SessionSettings(compaction=CompactionSettings(keep_recent_tokens=50), **settings),
        sleep=sleep or SleepRecorder(),
    )
    rec = Recorder(session)
    await session.prompt("first " + "x" * 400)
    await session.prompt("second")
    return session, rec


async def test_a_transient_summary_failure_is_retried(tmp_path: Path, faux: FauxProvider) -> None:
    sleep = SleepRecorder()
    session, rec = await _two_prompts(
        tmp_path, faux, [_error("503 Service Unavailable"), faux_assistant_message(SUMMARY), faux_assistant_message(PREFIX)],
        sleep=sleep,
    )
    result = await session.compact()
    assert result["summary"].startswith(SUMMARY)
    kinds = [e["type"] for e in rec.events if e["type"].startswith(("compaction", "summarization"))]
    assert kinds == [
        "compaction_start",
        "summarization_retry_scheduled",
        "summarization_retry_attempt_start",
        "summarization_retry_finished",
        "compaction_end",
    ]
    scheduled = rec.of("summarization_retry_scheduled")[0]
    assert scheduled == {"type": "summarization_retry_scheduled", "attempt": 1, "maxAttempts": 3, "delayMs": 2000,
                         "errorMessage": "503 Service Unavailable"}
    assert rec.of("summarization_retry_attempt_start")[0] == {
        "type": "summarization_retry_attempt_start", "source": "compaction", "reason": "manual"}
    assert 2.0 in sleep.calls
    assert sum(1 for line in session_lines(session) if line["type"] == "compaction") == 1


async def test_a_permanent_summary_failure_is_not_retried(tmp_path: Path, faux: FauxProvider) -> None:
    session, rec = await _two_prompts(tmp_path, faux, [_error("400 Bad Request: invalid model")])
    with pytest.raises(CompactionError, match="invalid model"):
        await session.compact()
    assert rec.of("summarization_retry_scheduled") == []
    assert not any(line["type"] == "compaction" for line in session_lines(session))


async def test_retries_stop_at_max_retries_and_follow_the_setting(tmp_path: Path, faux: FauxProvider) -> None:
    errors = [_error("connection reset") for _ in range(3)]
    session, rec = await _two_prompts(
        tmp_path, faux, errors, retry=RetrySettings(enabled=True, max_retries=2, base_delay_ms=10)
    )
    with pytest.raises(CompactionError, match="connection reset"):
        await session.compact()
    assert [e["attempt"] for e in rec.of("summarization_retry_scheduled")] == [1, 2]
    assert [e["delayMs"] for e in rec.of("summarization_retry_scheduled")] == [10, 20]
    assert len(rec.of("summarization_retry_finished")) == 1

    off, off_rec = await _two_prompts(
        tmp_path / "off", faux, [_error("503 Service Unavailable")], retry=RetrySettings(enabled=False)
    )
    with pytest.raises(CompactionError, match="503"):
        await off.compact()
    assert off_rec.of("summarization_retry_scheduled") == []


async def test_split_turn_requests_run_one_at_a_time_with_the_model_limit_and_the_focus(
    tmp_path: Path, faux: FauxProvider
) -> None:
    active = 0
    seen: list[dict[str, Any]] = []

    def answer(text: str) -> Any:
        async def step(context: Any, options: Any, state: Any, model: Any) -> AssistantMessage:
            nonlocal active
            active += 1
            seen.append({"concurrent": active, "max_tokens": options.max_tokens if options else None,
                         "prompt": context.messages[0].content[0].text})
            await asyncio.sleep(0.02)
            active -= 1
            return faux_assistant_message(text)
        return step

    session, _ = await _two_prompts(tmp_path, faux, [answer(SUMMARY), answer(PREFIX)])
    await session.compact("focus on the tests")
    assert [s["concurrent"] for s in seen] == [1, 1]
    model_limit = faux.get_model().max_tokens
    assert [s["max_tokens"] for s in seen] == [model_limit, model_limit]
    assert all("Additional focus: focus on the tests" in s["prompt"] for s in seen)
    assert "first part of a turn" in seen[1]["prompt"]


async def test_an_abort_during_the_back_off_ends_the_wait() -> None:
    controller = AbortController()
    calls = 0

    async def request() -> AssistantMessage:
        nonlocal calls
        calls += 1
        return _error("503 Service Unavailable")

    async def long_sleep(seconds: float) -> None:
        await asyncio.sleep(30)

    retry = SummaryRetry(settings=RetrySettings(), sleep=long_sleep)
    task = asyncio.create_task(request_with_retry(request, retry, controller.signal))
    await asyncio.sleep(0.05)
    controller.abort()
    reply = await asyncio.wait_for(task, 2)
    assert calls == 1 and reply.stop_reason == "error"


async def test_a_server_delay_above_the_cap_is_not_waited_for() -> None:
    reply = _error("429 Too Many Requests")
    reply.diagnostics = [{"type": "http_error", "details": {"retryAfterMs": 10 * 60_000}}]
    reply.usage = Usage()
    calls = 0

    async def request() -> AssistantMessage:
        nonlocal calls
        calls += 1
        return reply

    scheduled: list[int] = []
    retry = SummaryRetry(settings=RetrySettings(), on_scheduled=lambda a, m, d, e: scheduled.append(d))
    assert (await request_with_retry(request, retry, None)) is reply
    assert calls == 1 and scheduled == []


async def test_a_transient_branch_summary_failure_is_retried(tmp_path: Path, faux: FauxProvider) -> None:
    """pi 0.81.1 for branch summaries (/tree, RPC navigate_tree): the same retry policy and events, with
    ``source: "branchSummary"``; the request may use the model's output limit (pi 1.4.0)."""
    seen: list[int | None] = []

    def answer(context: Any, options: Any, state: Any, model: Any) -> AssistantMessage:
        seen.append(options.max_tokens if options else None)
        return faux_assistant_message("## Goal\nthe branch")

    faux.set_responses([faux_assistant_message("answer 1"), faux_assistant_message("answer 2"),
                        _error("502 Bad Gateway"), answer])
    sleep = SleepRecorder()
    session = make_session(tmp_path, faux.get_model(), sleep=sleep)
    rec = Recorder(session)
    await session.prompt("first")
    await session.prompt("second")
    from pi_tui.coding.session.entries import MessageEntry

    first_answer = next(e.id for e in session.session_manager.get_entries()
                        if isinstance(e, MessageEntry) and e.message.role == "assistant")
    result = await session.navigate_tree(first_answer, summarize=True)
    assert result["cancelled"] is False
    assert [e["type"] for e in rec.events if e["type"].startswith("summarization")] == [
        "summarization_retry_scheduled", "summarization_retry_attempt_start", "summarization_retry_finished"]
    assert rec.of("summarization_retry_attempt_start")[0] == {
        "type": "summarization_retry_attempt_start", "source": "branchSummary"}
    assert seen == [faux.get_model().max_tokens] and 2.0 in sleep.calls
    assert any(line["type"] == "branch_summary" for line in session_lines(session))
