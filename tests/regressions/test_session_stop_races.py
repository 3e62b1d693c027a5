"""A stop request is a fence for the run it stops (pi 0.86.0, #9340/#9777; pi 0.77.0, #5029; pi 0.84.0, #7370;
pi 0.79.8, #5720).

- #9340: a host called ``abort_compaction()`` and ``abort()`` as soon as a failed reply was published; the run's
  post-run handling then started a retry or an automatic compaction anyway (no compaction existed yet to abort),
  and ``abort()`` waited on it.
- #9777: aborting while a retry or compaction was between its steps (after the wait, before continuing; while
  the ``session_before_compact`` hook ran) was missed: the run continued, or the compaction was written.
- #5029: ``dispose()`` only unsubscribed; the agent run, a compaction, a retry wait and a user ``!cmd`` went on.
- #7370: ``/compact`` while a threshold compaction ran started a second summary; both were written.
- #5720: a *complete* reply whose usage showed a silent overflow (input above the window, ``stop``) was dropped
  and asked again after the overflow compaction.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, register_faux_provider
from pi_tui.ai.types import Model
from pi_tui.coding.agent_session.hooks import BeforeCompactOutcome
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction.prepare import CompactionSettings

from ..coding.session_core.helpers import Recorder, SleepRecorder, make_session, session_lines

pytestmark = pytest.mark.anyio

SUMMARY = "## Goal\nthe summary"


def _window(faux: FauxProvider, window: int) -> Model:
    model = faux.get_model().model_copy()
    model.context_window = window
    return model


def _error(text: str) -> Any:
    return faux_assistant_message([], stop_reason="error", error_message=text)


def _abort_on_assistant_end(session: Any, stop_reason: str) -> list[asyncio.Task[None]]:
    """The host of #9340: on the assistant ``message_end`` with ``stop_reason`` call ``abort_compaction()`` and
    ``abort()`` (scheduled: the listener is sync)."""
    tasks: list[asyncio.Task[None]] = []

    def listener(event: Any) -> None:
        if event.type == "message_end" and getattr(event.message, "role", "") == "assistant":
            if event.message.stop_reason == stop_reason and not tasks:
                session.abort_compaction()
                tasks.append(asyncio.ensure_future(session.abort()))

    session.subscribe(listener)
    return tasks


async def _settle(session: Any, tasks: list[asyncio.Task[None]]) -> None:
    await asyncio.wait_for(session.wait_for_idle(), 5)
    for task in tasks:
        await asyncio.wait_for(task, 5)
    await asyncio.wait_for(session.wait_for_idle(), 5)


async def test_abort_as_a_retryable_failure_is_published_starts_no_retry(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error("503 service unavailable"), faux_assistant_message("should not be asked")])
    session = make_session(tmp_path, faux.get_model(), sleep=SleepRecorder())
    rec = Recorder(session)
    tasks = _abort_on_assistant_end(session, "error")
    await session.prompt("hi")
    await _settle(session, tasks)
    assert rec.of("auto_retry_start") == []
    assert faux.state.call_count == 1
    assert not session.is_retrying and session.retry_attempt == 0


async def test_abort_as_a_reply_above_the_threshold_is_published_starts_no_compaction(
    tmp_path: Path, faux: FauxProvider
) -> None:
    faux.set_responses([faux_assistant_message("answer"), faux_assistant_message("answer 2"),
                        faux_assistant_message(SUMMARY)])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000, keep_recent_tokens=10))
    session = make_session(tmp_path, _window(faux, 10000), settings=settings)
    rec = Recorder(session)
    await session.prompt("small")
    tasks = _abort_on_assistant_end(session, "stop")
    await session.prompt("q " * 6000)  # above 10000 - 5000 tokens: a threshold compaction would follow
    await _settle(session, tasks)
    assert rec.of("compaction_start") == []
    assert not session.is_compacting
    assert not any(line["type"] == "compaction" for line in session_lines(session))
    assert faux.state.call_count == 2


async def test_abort_during_the_before_compact_hook_writes_no_compaction(tmp_path: Path, faux: FauxProvider) -> None:
    """#9777: the stop came while the compaction waited (here on the ``session_before_compact`` hook, in pi on
    the summariser's credentials): the compaction is cancelled, nothing is written, the run is not continued."""
    faux.set_responses([faux_assistant_message("answer"), faux_assistant_message("answer 2"),
                        faux_assistant_message(SUMMARY), faux_assistant_message("continued")])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000, keep_recent_tokens=10))
    session = make_session(tmp_path, _window(faux, 10000), settings=settings)
    rec = Recorder(session)
    entered = asyncio.Event()
    release = asyncio.Event()

    async def before_compact(*_: Any) -> BeforeCompactOutcome | None:
        entered.set()
        await release.wait()
        return None

    session.hooks.session_before_compact = before_compact
    await session.prompt("small")
    run = asyncio.create_task(session.prompt("q " * 6000))
    await asyncio.wait_for(entered.wait(), 5)
    assert session.is_compacting
    stop = asyncio.create_task(session.abort())
    await asyncio.sleep(0)
    release.set()
    await asyncio.wait_for(stop, 5)
    await asyncio.wait_for(run, 5)
    end = rec.of("compaction_end")
    assert len(end) == 1 and end[0].get("aborted") is True, end
    assert not any(line["type"] == "compaction" for line in session_lines(session))
    assert faux.state.call_count == 2 and not session.is_compacting


async def test_abort_after_the_retry_wait_does_not_continue(tmp_path: Path, faux: FauxProvider) -> None:
    """#9777: the stop arrives after the back-off wait ended, before the retry continues: no new request, and
    the cycle ends as cancelled (no stale ``is_retrying``). This one passes on the old code too (the stop lands
    while the wait's tasks wake up); it guards the cycle's end event of the new per-step check."""
    faux.set_responses([_error("503 service unavailable"), faux_assistant_message("should not be asked")])
    session: Any = None
    stops: list[asyncio.Task[None]] = []

    async def sleep_then_stop(seconds: float) -> None:
        await asyncio.sleep(0)
        stops.append(asyncio.ensure_future(session.abort()))  # lands after the wait, before the continuation

    session = make_session(tmp_path, faux.get_model(), sleep=sleep_then_stop)
    rec = Recorder(session)
    await session.prompt("hi")
    await _settle(session, stops)
    assert faux.state.call_count == 1
    assert not session.is_retrying and session.retry_attempt == 0
    ends = rec.of("auto_retry_end")
    assert ends == [{"type": "auto_retry_end", "success": False, "attempt": 1, "finalError": "Retry cancelled"}]


async def test_dispose_stops_the_run_and_a_retry_wait(tmp_path: Path) -> None:
    """#5029: ``dispose()`` aborts the streaming run (no further requests) and a pending retry wait."""
    slow = register_faux_provider(tokens_per_second=200, token_size={"min": 1, "max": 1})
    try:
        slow.set_responses([faux_assistant_message("word " * 400), faux_assistant_message("never")])
        session = make_session(tmp_path, slow.get_model())
        run = asyncio.create_task(session.prompt("hi"))
        for _ in range(500):
            if session.is_streaming and slow.state.call_count == 1:
                break
            await asyncio.sleep(0.01)
        session.dispose()
        await asyncio.wait_for(run, 5)
        assert not session.agent.state.is_streaming
        assert slow.state.call_count == 1
    finally:
        slow.unregister()

    waits = asyncio.Event()

    async def long_wait(seconds: float) -> None:
        waits.set()
        await asyncio.sleep(60)

    faux = register_faux_provider(token_size={"min": 2, "max": 2})
    try:
        faux.set_responses([_error("503 service unavailable"), faux_assistant_message("never")])
        session = make_session(tmp_path / "b", faux.get_model(), sleep=long_wait)
        run = asyncio.create_task(session.prompt("hi"))
        await asyncio.wait_for(waits.wait(), 5)
        assert session.is_retrying
        session.dispose()
        await asyncio.wait_for(run, 5)
        assert not session.is_retrying and faux.state.call_count == 1
    finally:
        faux.unregister()


async def test_dispose_kills_a_user_bash_command(tmp_path: Path, faux: FauxProvider) -> None:
    session = make_session(tmp_path, faux.get_model())
    run = asyncio.create_task(session.execute_bash("sleep 30"))
    for _ in range(500):
        if session.is_bash_running:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    session.dispose()
    result = await asyncio.wait_for(run, 10)
    assert result.cancelled and not session.is_bash_running


async def test_manual_compaction_while_a_threshold_compaction_runs_writes_one(tmp_path: Path, faux: FauxProvider) -> None:
    """#7370: ``/compact`` during a threshold compaction cancels it, then compacts once."""
    release = asyncio.Event()

    async def held_summary(*_: Any) -> Any:
        await release.wait()
        return faux_assistant_message("## Goal\nthreshold summary")

    faux.set_responses([faux_assistant_message("answer"), faux_assistant_message("answer 2"), held_summary,
                        faux_assistant_message(SUMMARY)])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000, keep_recent_tokens=10))
    session = make_session(tmp_path, _window(faux, 10000), settings=settings)
    rec = Recorder(session)
    await session.prompt("small")
    run = asyncio.create_task(session.prompt("q " * 6000))
    for _ in range(500):
        if session.is_compacting and faux.state.call_count >= 3:
            break
        await asyncio.sleep(0.01)
    assert session.is_compacting and not run.done()
    manual = asyncio.create_task(session.compact())
    await asyncio.sleep(0.05)
    release.set()
    result = await asyncio.wait_for(manual, 5)
    await asyncio.wait_for(run, 5)
    assert result["summary"].startswith(SUMMARY)
    compactions = [line for line in session_lines(session) if line["type"] == "compaction"]
    assert len(compactions) == 1 and compactions[0]["summary"].startswith(SUMMARY)
    reasons = [(e["type"], e["reason"], bool(e.get("aborted"))) for e in rec.events if e["type"].startswith("compaction")]
    assert reasons == [("compaction_start", "threshold", False), ("compaction_end", "threshold", True),
                       ("compaction_start", "manual", False), ("compaction_end", "manual", False)]
    assert not session.is_compacting


async def test_threshold_check_does_not_start_while_a_manual_compaction_runs(tmp_path: Path, faux: FauxProvider) -> None:
    """The other side of #7370: no automatic compaction starts while ``/compact`` runs."""
    release = asyncio.Event()

    async def held_summary(*_: Any) -> Any:
        await release.wait()
        return faux_assistant_message(SUMMARY)

    faux.set_responses([faux_assistant_message("answer " * 20), faux_assistant_message("answer 2 " * 20), held_summary,
                        faux_assistant_message("## Original Request\nsecond")])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000, keep_recent_tokens=10))
    session = make_session(tmp_path, _window(faux, 100000), settings=settings)
    rec = Recorder(session)
    await session.prompt("first " + "x" * 400)
    await session.prompt("second")
    manual = asyncio.create_task(session.compact())
    for _ in range(500):
        if session.is_compacting and faux.state.call_count >= 3:
            break
        await asyncio.sleep(0.01)
    session.agent.state.model = _window(faux, 1000)  # the threshold check would now compact
    check = asyncio.create_task(session._compactor.check(session.messages[-1], True))  # noqa: SLF001
    await asyncio.sleep(0.05)
    release.set()
    await asyncio.wait_for(manual, 5)
    await asyncio.wait_for(check, 5)
    assert [e["reason"] for e in rec.of("compaction_start")] == ["manual"]
    assert len([line for line in session_lines(session) if line["type"] == "compaction"]) == 1


async def test_a_complete_reply_with_a_silent_overflow_is_kept_not_asked_again(
    tmp_path: Path, faux: FauxProvider
) -> None:
    """#5720: the reply is complete (``stop``) but its input was above the window: compact (reason overflow,
    ``willRetry: false``), keep the reply, send nothing more."""
    faux.set_responses([faux_assistant_message("first answer"), faux_assistant_message("the complete answer"),
                        faux_assistant_message(SUMMARY), faux_assistant_message("asked again")])
    settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=100, keep_recent_tokens=10))
    session = make_session(tmp_path, _window(faux, 100000), settings=settings, sleep=SleepRecorder())
    rec = Recorder(session)
    await session.prompt("first")
    session.agent.state.model = _window(faux, 1000)
    await session.prompt("q " * 3000)  # ~1500 input tokens > the 1000-token window, reply ``stop``
    await session.wait_for_idle()
    assert [e["reason"] for e in rec.of("compaction_start")] == ["overflow"]
    end = rec.of("compaction_end")[0]
    assert end["willRetry"] is False and end["result"]["summary"].startswith(SUMMARY)
    assert faux.state.call_count == 3
    assert session.get_last_assistant_text() == "the complete answer"
    stored = [json.dumps(line) for line in session_lines(session) if line["type"] == "message"]
    assert sum("the complete answer" in line for line in stored) == 1
    assert not any("asked again" in line for line in stored)
