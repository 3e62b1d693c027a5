"""The same failing call whose output differs only in a timing or a timestamp is still a loop (issue 10 class
5, found by a new-user run).

A model rerunning ``pytest`` on unchanged code gets ``1 failed in 0.12s``, then ``in 0.14s``...: the error texts
differed, so the guard saw a new failure every time and never stopped (the classic loop of HKUDS/nanobot#2298,
where the same failing ``exec`` ran 172 times). Durations, clock times, dates, addresses and long numbers are
masked before failures are compared; a real change in the output still counts as progress.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, faux_tool_call
from pi_tui.coding.tools import create_coding_tools

from ..coding.session_core.helpers import Recorder, make_session

pytestmark = pytest.mark.anyio

# Prints a different duration, clock time and epoch time on every run, then fails.
FLAKY_SUMMARY = (
    "python3 -c \"import time, random; print('FAILED test_x.py::test_a - assert 3 == 4'); "
    "print(time.strftime('%H:%M:%S'), int(time.time() * 1000), hex(id(object())) + '0000'); "
    "print(f'1 failed, 2 passed in {random.random() * 9:.2f}s'); raise SystemExit(1)\""
)


def _calls(command: str, n: int) -> list[Any]:
    return [faux_assistant_message([faux_tool_call("bash", {"command": command}, id=f"c{i}")], stop_reason="toolUse")
            for i in range(n)]


async def test_same_failure_with_changing_timings_stops_at_the_limit(tmp_path: Path, faux: FauxProvider) -> None:
    faux.set_responses([*_calls(FLAKY_SUMMARY, 20), faux_assistant_message("never reached")])
    session = make_session(tmp_path, faux.get_model(), tools=list(create_coding_tools(str(tmp_path)).values()))
    rec = Recorder(session)
    await session.prompt("make the tests pass")
    assert len(rec.of("tool_execution_end")) == 5
    last = [e["message"] for e in rec.of("message_end") if e["message"]["role"] == "assistant"][-1]
    assert '"bash" call 5 times' in last["errorMessage"]


async def test_output_that_really_changes_is_not_a_loop(tmp_path: Path, faux: FauxProvider) -> None:
    counter = tmp_path / "n"
    counter.write_text("0")
    # The same command, but the failing assertion moves on each run (the model's edits are working).
    command = ("python3 -c \"import pathlib; p = pathlib.Path('n'); n = int(p.read_text()) + 1; p.write_text(str(n)); "
               "print('assert', n, '== 99'); raise SystemExit(1)\"")
    faux.set_responses([*_calls(command, 8), faux_assistant_message("done")])
    session = make_session(tmp_path, faux.get_model(), tools=list(create_coding_tools(str(tmp_path)).values()))
    await session.prompt("go")
    assert faux.get_pending_response_count() == 0
    assert session.messages[-1].stop_reason == "stop"
