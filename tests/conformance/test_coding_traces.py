"""Conformance with the real pi 0.73.1 CLI: each recorded coding scenario replayed against ``pi-tui``.

Runs tests/conformance/replay_coding_trace.py on every scenario in tests/fixtures/pi-traces/coding/ (a
subprocess per scenario, against a loopback scripted server). Deliberate differences are normalised by the
runner (DIFFERENCES.md "Coding agent", D1–D7); any other mismatch fails the test.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from replay_coding_trace import replay  # noqa: E402

SCENARIOS = sorted(p for p in (Path(__file__).resolve().parents[1] / "fixtures/pi-traces/coding").iterdir() if p.is_dir())


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_coding_trace_conforms(scenario: Path) -> None:
    problems = replay(scenario)
    assert problems == [], "\n".join(problems)


def test_pi_session_files_load_and_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pi's own session files (from these scenarios) open in pi-tui: resume rebuilds the transcript."""
    import asyncio
    import json

    from pi_tui.coding.agent_session.factory import create_agent_session

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
