"""User ``!cmd`` / ``!!cmd`` against pi's fixes after 0.73.1 (tests/conformance/PI_FIXES.md).

- pi 0.83.0: user bash commands running at the same time were not all cancelled by Esc / ``abort_bash``.
  pi-tui runs one at a time: a second is refused while one runs, and the abort kills the one that runs.
- pi 1.5.1 (#10165): when early output chunks had been discarded (the output went over the limits), the result
  lost its truncation notice and the full-output file. pi-tui decides truncation from the totals, not from
  what is kept.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import FauxProvider
from pi_tui.coding.messages import bash_execution_to_text
from pi_tui.coding.tools.shell import DEFAULT_MAX_BYTES

from ..coding.session_core.helpers import make_session

pytestmark = pytest.mark.anyio


def _read(path: str) -> str:
    return Path(path).read_text(encoding="utf-8", errors="replace")


def _bash_entries(session: Any) -> list[dict[str, Any]]:
    """The stored bashExecution messages (the file itself is written from the first reply on, pi)."""
    lines = [e.to_json_dict() for e in session.session_manager.get_entries()]
    return [line["message"] for line in lines if line.get("message", {}).get("role") == "bashExecution"]


async def _until_running(session: Any) -> None:
    for _ in range(500):
        if session.is_bash_running:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the command never started")


async def test_a_second_user_command_is_refused_and_abort_kills_the_running_one(
    tmp_path: Path, faux: FauxProvider
) -> None:
    session = make_session(tmp_path, faux.get_model())
    first = asyncio.create_task(session.execute_bash("sleep 30"))
    await _until_running(session)
    with pytest.raises(RuntimeError, match="already running"):
        await session.execute_bash("sleep 30")
    await asyncio.sleep(0.2)
    session.abort_bash()
    result = await asyncio.wait_for(first, 10)
    assert result.cancelled and not session.is_bash_running
    stored = _bash_entries(session)
    assert len(stored) == 1 and stored[0]["cancelled"] is True


@pytest.mark.parametrize(
    "command",
    [
        # one huge first line, then a short tail: the kept tail alone is within the limits
        f"head -c {DEFAULT_MAX_BYTES * 5} /dev/zero | tr '\\0' a; echo; echo the end",
        # many lines early, a few at the end
        "seq 1 5000; echo the end",
        # the early output arrives in many small chunks
        "for i in $(seq 1 40); do head -c 4000 /dev/zero | tr '\\0' b; echo; done; echo the end",
    ],
)
async def test_dropped_early_output_keeps_the_truncation_notice_and_the_full_file(
    tmp_path: Path, faux: FauxProvider, command: str
) -> None:
    session = make_session(tmp_path, faux.get_model())
    result = await session.execute_bash(command)
    assert result.output.rstrip().endswith("the end")
    assert result.truncated and result.full_output_path
    full = _read(result.full_output_path)
    assert full.rstrip().endswith("the end") and len(full) > len(result.output)
    stored = _bash_entries(session)
    assert stored[-1]["truncated"] is True and stored[-1]["fullOutputPath"] == result.full_output_path
    assert f"[Output truncated. Full output: {result.full_output_path}]" in bash_execution_to_text(stored[-1])
