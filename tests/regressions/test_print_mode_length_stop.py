"""``pi-tui -p`` with a reply cut off at the output token limit (pi 1.2.0, earendil-works/pi#10799).

pi 0.73.1 printed the partial text and exited 0, so a script could not tell a truncated answer from a finished
one. Now the partial text is still printed, a warning goes to stderr and the exit code is 1.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from ..coding.modes.helpers import CLI, clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()


def _chunk(delta: dict[str, object], finish: str | None = None, usage: dict[str, int] | None = None) -> str:
    body: dict[str, object] = {"id": "c1", "object": "chat.completion.chunk", "model": "mock-model",
                               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    if usage is not None:
        body["usage"] = usage
    return f"data: {json.dumps(body)}\n\n"


def _run(tmp_path: Path, finish: str) -> subprocess.CompletedProcess[str]:
    events = [
        _chunk({"role": "assistant", "content": "The first half of the ans"}),
        _chunk({}, finish, {"prompt_tokens": 10, "completion_tokens": 7, "total_tokens": 17}),
        "data: [DONE]\n\n",
    ]
    env = clean_env(tmp_path)
    with MockLlmServer([{"type": "raw_sse", "events": events}]) as server:
        write_models_json(tmp_path, server.port)
        return subprocess.run(
            [*CLI, "--provider", "mock", "--model", "mock-model", "--no-session", "-p", "write a long answer"],
            cwd=tmp_path / "project", env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=60,
        )


def test_reply_cut_at_the_output_limit_prints_it_warns_and_exits_1(tmp_path: Path) -> None:
    run = _run(tmp_path, "length")
    assert run.stdout.strip() == "The first half of the ans"
    assert run.returncode == 1
    assert "output token limit" in run.stderr


def test_finished_reply_still_exits_0_without_a_warning(tmp_path: Path) -> None:
    run = _run(tmp_path, "stop")
    assert run.returncode == 0 and run.stderr.strip() == ""
    assert run.stdout.strip() == "The first half of the ans"
