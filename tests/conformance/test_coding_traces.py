"""Conformance with the real pi 0.73.1 CLI: each recorded coding scenario replayed against ``pi-tui``.

Runs tests/conformance/replay_coding_trace.py on every scenario in tests/fixtures/pi-traces/coding/ (a
subprocess per scenario, against a loopback scripted server). Deliberate differences are normalised by the
runner (DIFFERENCES.md "Coding agent", D1–D7). Mismatches caused by open provider-layer issues (listed in
DIFFERENCES.md as P1–P3, owned by pi_tui.ai) are matched by :data:`PENDING_PROVIDER_ISSUES`; anything else
fails the test.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay_coding_trace import replay  # noqa: E402

SCENARIOS = sorted(p for p in (Path(__file__).resolve().parents[1] / "fixtures/pi-traces/coding").iterdir() if p.is_dir())

PENDING_PROVIDER_ISSUES = [
    # P1: the provider's ``start`` partial is the live output object, so message_start shows later content/usage.
    re.compile(r"(events|rpc out)\[\d+\]\.message\.(content|responseId|usage\.\w+|stopReason)"),
    # P2: openai-completions sends tool-call arguments as json.dumps with spaces (pi: compact JSON.stringify).
    re.compile(r"requests\[\d+\]\.body\.messages\[\d+\]\.tool_calls\[\d+\]\.function\.arguments"),
    # P3: abort mid-stream: no text_end for the open block; pre-request abort text lacks pi/SDK's final period.
    re.compile(r"rpc out\[\d+\]: expected event .*\"text_end\""),
    re.compile(r"errorMessage: expected \"Request was aborted\.\", got \"Request was aborted\""),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_coding_trace_conforms(scenario: Path) -> None:
    problems = replay(scenario)
    unexpected = [p for p in problems if not any(r.search(p) for r in PENDING_PROVIDER_ISSUES)]
    assert unexpected == [], "\n".join(unexpected)


def test_pi_session_files_load_and_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pi's own session files (from these scenarios) open in pi-tui: resume rebuilds the transcript."""
    import asyncio
    import json

    from pi_tui.coding.session_factory import create_agent_session

    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    for scenario in SCENARIOS:
        text = (scenario / "session.jsonl").read_text(encoding="utf-8")
        path = tmp_path / f"{scenario.name}.jsonl"
        path.write_text(text.replace("<PROJECT>", str(tmp_path)), encoding="utf-8")
        session = create_agent_session(str(tmp_path), session_path=str(path))
        expected = [
            json.loads(line)["message"]
            for line in text.splitlines()[1:]
            if json.loads(line).get("type") == "message"
        ]
        got = [m.to_json_dict() for m in session.messages]
        assert [m["role"] for m in got] == [m["role"] for m in expected], scenario.name
        assert [m.get("content") for m in got] == [m.get("content") for m in expected], scenario.name
        asyncio.run(session.abort())
