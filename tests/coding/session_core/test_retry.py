"""Auto-retry (pi-reference §3.10, §4.3 agent-session-retry*; cases 10 variant B and 14)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message
from pi_tui.ai.types import Model
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.retry import RetrySettings, is_retryable_error, retry_delay_ms

from .helpers import Recorder, SleepRecorder, make_session, session_lines

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402

pytestmark = pytest.mark.anyio


def _error(text: str, retry_after_ms: int | None = None) -> Any:
    message = faux_assistant_message([], stop_reason="error", error_message=text)
    if retry_after_ms is not None:
        message.diagnostics = [{"type": "http_error", "timestamp": 0, "details": {"status": 429, "retryAfterMs": retry_after_ms}}]
    return message


def test_retryable_classification() -> None:
    assert is_retryable_error({"stopReason": "error", "errorMessage": "529 overloaded_error"})
    assert is_retryable_error({"stopReason": "error", "errorMessage": "Network connection lost."})
    assert is_retryable_error({"stopReason": "error", "errorMessage": "fetch failed"})
    assert not is_retryable_error({"stopReason": "error", "errorMessage": "401 invalid api key"})
    assert not is_retryable_error({"stopReason": "aborted", "errorMessage": "503"})
    assert not is_retryable_error({"stopReason": "error", "errorMessage": "prompt is too long: 300000 tokens > 200000 maximum"})


def test_delay_uses_retry_after_and_cap() -> None:
    settings = RetrySettings()
    assert [retry_delay_ms({"stopReason": "error"}, n, settings) for n in (1, 2, 3)] == [2000, 4000, 8000]
    with_header = {"diagnostics": [{"type": "http_error", "details": {"status": 429, "retryAfterMs": 3000}}]}
    assert retry_delay_ms(with_header, 1, settings) == 3000
    too_long = {"diagnostics": [{"type": "http_error", "details": {"status": 429, "retryAfterMs": 120000}}]}
    assert retry_delay_ms(too_long, 1, settings) is None


async def test_retry_then_success(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error("503 service unavailable"), faux_assistant_message("recovered")])
    sleeps = SleepRecorder()
    session = make_session(tmp_path, faux.get_model(), sleep=sleeps)
    rec = Recorder(session)
    await session.prompt("hi")
    starts, ends = rec.of("auto_retry_start"), rec.of("auto_retry_end")
    assert [(s["attempt"], s["maxAttempts"], s["delayMs"]) for s in starts] == [(1, 3, 2000)]
    assert ends == [{"type": "auto_retry_end", "success": True, "attempt": 1}]
    assert sleeps.calls == [2.0]
    assert faux.state.call_count == 2
    llm_roles = [m.role for m in session.messages if m.role != "notification"]
    assert llm_roles == ["user", "assistant"]  # the error message left the agent state …
    file_roles = [line["message"]["role"] for line in session_lines(session) if line["type"] == "message"]
    assert file_roles == ["user", "assistant", "assistant"]  # … but stays in the file
    types = rec.types()
    # pi order (observation 12): agent_end, auto_retry_start, then a run without user message events
    i = types.index("auto_retry_start")
    assert types[i - 1] == "agent_end"
    after = [t for t in types[i + 1 :] if not t.endswith(":notification")]
    assert after[:3] == ["agent_start", "turn_start", "message_start:assistant"]
    assert after[3:6] == ["message_end:assistant", "auto_retry_end", "turn_end"]
    # no notification per attempt: the app's status line shows the countdown (issue 9); the file keeps the error
    assert [m.text for m in session.messages if m.role == "notification"] == []


async def test_multiple_failures_then_success(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error("502 bad gateway"), _error("rate limit"), faux_assistant_message("ok")])
    sleeps = SleepRecorder()
    session = make_session(tmp_path, faux.get_model(), sleep=sleeps)
    rec = Recorder(session)
    await session.prompt("hi")
    assert [s["attempt"] for s in rec.of("auto_retry_start")] == [1, 2]
    assert rec.of("auto_retry_end") == [{"type": "auto_retry_end", "success": True, "attempt": 2}]
    assert sleeps.calls == [2.0, 4.0]


async def test_exhaustion(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error("500 internal error")] * 3)
    settings = SessionSettings()
    settings.retry.max_retries = 2
    session = make_session(tmp_path, faux.get_model(), sleep=SleepRecorder(), settings=settings)
    rec = Recorder(session)
    await session.prompt("hi")
    assert [s["attempt"] for s in rec.of("auto_retry_start")] == [1, 2]
    assert rec.of("auto_retry_end") == [
        {"type": "auto_retry_end", "success": False, "attempt": 2, "finalError": "500 internal error"}
    ]
    assert faux.state.call_count == 3
    assert not session.is_retrying


async def test_non_retryable_and_disabled(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error("400 bad request"), _error("503 unavailable")])
    settings = SessionSettings()
    session = make_session(tmp_path, faux.get_model(), sleep=SleepRecorder(), settings=settings)
    rec = Recorder(session)
    await session.prompt("a")
    session.set_auto_retry_enabled(False)
    await session.prompt("b")
    assert rec.of("auto_retry_start") == [] and faux.state.call_count == 2
    errors = [m.text for m in session.messages if m.role == "notification" and m.level == "error"]
    assert errors == ["400 bad request", "503 unavailable"]  # the session notifies every failed run


async def test_case14_retry_after_is_the_wait(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error("429 rate limited", 3000), _error("429 rate limited", 3000), faux_assistant_message("third")])
    sleeps = SleepRecorder()
    session = make_session(tmp_path, faux.get_model(), sleep=sleeps)
    rec = Recorder(session)
    await session.prompt("hi")
    assert sleeps.calls == [3.0, 3.0]
    assert [s["delayMs"] for s in rec.of("auto_retry_start")] == [3000, 3000]
    assert session.get_last_assistant_text() == "third"


async def test_case14_retry_after_above_cap_surfaces_error(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error("429 rate limited", 600000)])
    sleeps = SleepRecorder()
    session = make_session(tmp_path, faux.get_model(), sleep=sleeps)
    rec = Recorder(session)
    await session.prompt("hi")
    assert sleeps.calls == [] and rec.of("auto_retry_start") == []
    assert rec.of("auto_retry_end")[0]["success"] is False
    assert any(m.role == "notification" and m.level == "error" for m in session.messages)


async def test_abort_during_retry_wait(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([_error("503 unavailable"), faux_assistant_message("never")])
    started = asyncio.Event()

    async def long_sleep(seconds: float) -> None:
        started.set()
        await asyncio.sleep(30)

    session = make_session(tmp_path, faux.get_model(), sleep=long_sleep)
    rec = Recorder(session)
    run = asyncio.create_task(session.prompt("hi"))
    await asyncio.wait_for(started.wait(), 5)
    await session.abort()
    await asyncio.wait_for(run, 5)
    assert rec.of("auto_retry_end") == [
        {"type": "auto_retry_end", "success": False, "attempt": 1, "finalError": "Retry cancelled"}
    ]
    assert faux.state.call_count == 1


def _anthropic_model(port: int) -> Model:
    return Model(id="mock-model", api="anthropic-messages", provider="mock-anthropic",
                 base_url=f"http://127.0.0.1:{port}", max_tokens=1024)


OVERLOADED = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
START = ('event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant",'
         '"model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}\n\n')
BLOCK = ('event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n'
         'event: ping\ndata: {"type":"ping"}\n\n'
         'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me"}}\n\n')


@pytest.mark.parametrize("variant", ["B", "main"])
async def test_case10_overloaded_stream_error_is_retried(tmp_path: Path, variant: str) -> None:
    first = [OVERLOADED] if variant == "B" else [START, BLOCK, OVERLOADED]
    script = [{"type": "raw_sse", "events": first}, {"type": "text", "text": "OK"}]
    with MockLlmServer(script) as server:
        sleeps = SleepRecorder()
        session = make_session(tmp_path, _anthropic_model(server.port), sleep=sleeps)
        rec = Recorder(session)
        await session.prompt("hello")
        assert len(server.requests) == 2
    assert rec.of("auto_retry_start")[0]["errorMessage"].find("overloaded_error") >= 0
    assert rec.of("auto_retry_end") == [{"type": "auto_retry_end", "success": True, "attempt": 1}]
    assistants = [m for m in session.messages if m.role == "assistant"]
    assert len(assistants) == 1 and session.get_last_assistant_text() == "OK"
    all_text = " ".join(b.text for m in assistants for b in m.content if b.type == "text")
    assert "Let me" not in all_text  # the partial is never duplicated into the transcript
