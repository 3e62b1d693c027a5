"""Replay every pi-agent-core 0.73.1 golden trace (tests/fixtures/pi-traces/agent) against pi_tui.agent."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TRACES = sorted((ROOT / "tests" / "fixtures" / "pi-traces" / "agent").glob("*.json"))

_spec = importlib.util.spec_from_file_location(
    "replay_agent_trace", ROOT / "tests" / "conformance" / "replay_agent_trace.py"
)
assert _spec is not None and _spec.loader is not None
replayer = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(replayer)


def test_all_26_traces_present() -> None:
    assert len(TRACES) == 26


@pytest.mark.anyio
@pytest.mark.parametrize("path", TRACES, ids=[p.stem for p in TRACES])
async def test_trace_matches_pi(path: Path) -> None:
    mismatches = await replayer.check_trace(replayer.load_trace(path))
    assert mismatches == []


@pytest.mark.anyio
async def test_replayer_reports_a_changed_expectation() -> None:
    trace = json.loads((ROOT / "tests/fixtures/pi-traces/agent/parallel-completion-order.json").read_text())
    result = await replayer.replay(trace)
    trace["events"][20]["toolCallId"] = "call-9"
    trace["finalMessages"][1]["usage"]["input"] = 1
    lines = replayer.compare(trace, result)
    assert lines == [
        'parallel-completion-order: events[20].toolCallId: expected "call-9", got "call-2"',
        "parallel-completion-order: finalMessages[1].usage.input: expected 1, got 74",
    ]
