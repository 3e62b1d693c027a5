"""Threshold compaction when the provider reports no usage (pi 0.84.3, #8328; pi 0.80.0, #5526).

A server that sends no usage in its stream (some OpenAI-compatible gateways, llama.cpp builds) left every reply
with zero usage, so the threshold check counted 0 tokens and never compacted: the session grew until the server
refused it. The check now estimates the context when the last reply reported none. All-zero usage is also never
taken as the last known usage by the context estimate (pi 0.80.0)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pi_tui.ai.types import Model
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.compaction import estimate_context_tokens
from pi_tui.coding.compaction.prepare import CompactionSettings

from ..coding.session_core.helpers import Recorder, SleepRecorder, make_session

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402

pytestmark = pytest.mark.anyio

SUMMARY = "## Goal\nTest.\n\n## Progress\n### Done\n- [x] things"


def _no_usage_reply(text: str) -> dict[str, object]:
    """An OpenAI Chat Completions stream with no usage chunk at all."""
    chunk = {"id": "c1", "object": "chat.completion.chunk", "model": "m",
             "choices": [{"index": 0, "delta": {"role": "assistant", "content": text}, "finish_reason": None}]}
    end = {"id": "c1", "object": "chat.completion.chunk", "model": "m",
           "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    return {"type": "raw_sse", "events": [f"data: {json.dumps(chunk)}\n\n", f"data: {json.dumps(end)}\n\n",
                                          "data: [DONE]\n\n"]}


def _model(port: int) -> Model:
    return Model(id="m", api="openai-completions", provider="mock-openai", base_url=f"http://127.0.0.1:{port}/v1",
                 context_window=10000, max_tokens=1024)


async def test_threshold_compaction_runs_when_the_provider_sends_no_usage(tmp_path: Path) -> None:
    script = [_no_usage_reply("answer"), _no_usage_reply("answer 2"), _no_usage_reply(SUMMARY),
              _no_usage_reply("## Original Request\nq")]
    with MockLlmServer(script) as server:
        settings = SessionSettings(compaction=CompactionSettings(reserve_tokens=5000, keep_recent_tokens=10))
        session = make_session(tmp_path, _model(server.port), settings=settings, sleep=SleepRecorder())
        rec = Recorder(session)
        await session.prompt("small")
        assert rec.of("compaction_start") == []
        await session.prompt("q " * 12000)  # ~6000 tokens of context > 10000 - 5000, but no usage reported
        assistants = [m for m in session.messages if m.role == "assistant"]
        assert assistants and all(m.usage.total_tokens == 0 and m.usage.input == 0 for m in assistants)
        assert rec.of("compaction_start") == [{"type": "compaction_start", "reason": "threshold"}]
        assert rec.of("compaction_end")[0]["result"]["summary"].startswith(SUMMARY)


def test_all_zero_usage_is_not_the_last_known_usage() -> None:
    """pi 0.80.0: an assistant message with all-zero usage (a truncated response) is skipped by the estimate,
    which uses the last real usage plus estimates of what follows."""
    zero = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0}
    real = {"input": 500, "output": 20, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 520}
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "q"}], "timestamp": 1},
        {"role": "assistant", "content": [{"type": "text", "text": "a"}], "stopReason": "stop", "usage": real,
         "timestamp": 2},
        {"role": "user", "content": [{"type": "text", "text": "x" * 400}], "timestamp": 3},
        {"role": "assistant", "content": [{"type": "text", "text": "b" * 40}], "stopReason": "stop", "usage": zero,
         "timestamp": 4},
    ]
    estimate = estimate_context_tokens(messages)
    assert estimate.last_usage_index == 1
    assert estimate.tokens == 520 + 100 + 10
