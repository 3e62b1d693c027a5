"""``pi-tui --mode acp`` driven by a second, independent client: the official TypeScript SDK
(``@agentclientprotocol/sdk``) from ``tests/fixtures/acp/client.mjs`` (issue 14 acceptance). ``.ci/run``
installs the pinned SDK with ``npm ci`` and sets ``PI_ACP_TS_DIR``; without node or that install the test is
skipped with the reason."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .helpers import REPO, clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()
TS_DIR = os.environ.get("PI_ACP_TS_DIR", "")


def _statuses(updates: list[dict[str, Any]], call_id: str) -> list[str]:
    out: list[str] = []
    for update in updates:
        if update.get("toolCallId") == call_id and update.get("status") and (not out or out[-1] != update["status"]):
            out.append(update["status"])
    return out


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.skipif(not TS_DIR or not (Path(TS_DIR) / "node_modules" / "@agentclientprotocol" / "sdk").is_dir(),
                    reason="the TypeScript ACP SDK is not installed (PI_ACP_TS_DIR; .ci/run runs npm ci)")
def test_typescript_sdk_client_drives_the_whole_scenario(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    (project / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    script = [
        {"type": "tool", "calls": [{"id": "call_read", "name": "read", "args": {"path": "notes.txt"}}]},
        {"type": "tool", "calls": [{"id": "call_edit", "name": "edit",
                                    "args": {"path": "notes.txt", "edits": [{"oldText": "beta", "newText": "gamma"}]}}]},
        {"type": "tool", "calls": [{"id": "call_bash", "name": "bash", "args": {"command": "echo rejected-one"}}]},
        {"type": "text", "text": "Done with the edit."},
        {"type": "tool", "calls": [{"id": "call_1", "name": "bash", "args": {"command": "echo one"}}]},
        {"type": "tool", "calls": [{"id": "call_2", "name": "bash", "args": {"command": "echo two"}}]},
        {"type": "text", "text": "Both ran."},
        {"type": "tool", "calls": [{"id": "call_slow", "name": "bash", "args": {"command": "echo started; sleep 30"}}]},
    ]
    runner = Path(TS_DIR) / "client.mjs"
    shutil.copy(REPO / "tests" / "fixtures" / "acp" / "client.mjs", runner)  # resolves the SDK next to it
    agent = [sys.executable, "-m", "pi_tui.cli", "--mode", "acp", "--provider", "mock", "--model", "mock-model"]
    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        run = subprocess.run(["node", str(runner), str(project), "--", *agent], cwd=project, env=env,
                             capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    updates = summary["updates"]
    assert summary["loadSession"] is True and summary["parseError"] == -32700
    assert (summary["stop1"], summary["stop2"], summary["stop3"]) == ("end_turn", "end_turn", "cancelled")
    assert summary["unknownSession"] == -32602 and summary["exit1"] == 0
    assert [p["toolCallId"] for p in summary["permissions"]] == ["call_edit", "call_bash", "call_1"]
    assert summary["permissions"][0]["options"] == ["allow_once", "allow_always", "reject_once"]
    assert _statuses(updates, "call_read") == ["pending", "in_progress", "completed"]
    assert _statuses(updates, "call_edit") == ["pending", "in_progress", "completed"]
    assert _statuses(updates, "call_bash") == ["pending", "failed"]
    assert _statuses(updates, "call_2") == ["pending", "in_progress", "completed"]
    assert _statuses(updates, "call_slow")[-1] == "failed"
    diff = next(c for u in updates if u.get("toolCallId") == "call_edit" for c in u.get("content") or []
                if c["type"] == "diff")
    assert (diff["oldText"], diff["newText"]) == ("alpha\nbeta\n", "alpha\ngamma\n")
    assert (project / "notes.txt").read_text() == "alpha\ngamma\n"
    replayed = [kind for kind in summary["replayed"] if kind != "available_commands_update"]
    assert replayed[0] == "user_message_chunk" and replayed.count("user_message_chunk") == 3
    assert replayed.count("tool_call") == 7  # six calls and the edit's stored diff artifact as a card
