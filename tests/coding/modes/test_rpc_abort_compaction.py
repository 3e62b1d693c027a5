"""pi 0.85.0: RPC ``abort`` reported success without cancelling a manual compaction. In pi-tui ``abort`` cancels
a running ``compact`` (its summary request is cut, ``compaction_end{aborted:true}``, no ``compaction`` entry) and
the ``compact`` command answers with pi's ``Compaction cancelled`` error (a subprocess against a loopback server)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from .helpers import CLI, clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()
from replay_coding_trace import RpcDriver  # noqa: E402  (path set up by helpers)


def test_rpc_abort_cancels_a_manual_compaction(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    script = [
        {"type": "text", "text": "a" * 400},
        {"type": "text", "text": "b" * 400},
        {"type": "text", "text": "summary " * 400, "chunkDelayMs": 50},  # a slow summary request
    ]
    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        (tmp_path / "agent" / "settings.json").write_text(json.dumps({"compaction": {"keepRecentTokens": 50}}))
        driver = RpcDriver([*CLI, "--provider", "mock", "--model", "mock-model", "--mode", "rpc"],
                           tmp_path / "project", env)
        try:
            for n, text in enumerate(["first " + "x" * 400, "second"]):
                driver.send({"id": f"p{n}", "type": "prompt", "message": text})
                assert driver.response(f"p{n}")["success"] is True
                driver.event("agent_end")
            driver.send({"id": "c1", "type": "compact"})
            driver.event("compaction_start")
            for _ in range(500):  # until the summary request is on its way
                if len(server.requests) >= 3:
                    break
                time.sleep(0.02)
            time.sleep(0.2)
            driver.send({"id": "a1", "type": "abort"})
            end = driver.event("compaction_end")
            driver.send({"id": "s1", "type": "get_state"})
            state = driver.response("s1")["data"]
            responses = {m["id"]: m for m in driver.out if m.get("type") == "response" and "id" in m}
        finally:
            code, stderr = driver.close()
    assert code == 0, stderr
    assert responses["a1"]["success"] is True
    compact = responses["c1"]
    assert compact["success"] is False and "Compaction cancelled" in compact["error"]
    assert end["aborted"] is True
    assert state["isCompacting"] is False
    sessions = list((tmp_path / "agent" / "sessions").glob("*/*.jsonl"))
    assert not any(json.loads(line)["type"] == "compaction" for line in sessions[0].read_text().splitlines())
