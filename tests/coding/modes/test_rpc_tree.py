"""RPC ``get_session_tree`` / ``navigate_tree`` (beyond pi 0.73.1, pi issue #5119): ``pi-tui --mode rpc`` as a
subprocess on a loopback OpenAI-compatible server; the same navigation and branch summary as the TUI's /tree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .helpers import CLI, clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()
from replay_coding_trace import RpcDriver  # noqa: E402  (path set up by helpers)


def _node(nodes: list[dict[str, Any]], text: str) -> dict[str, Any]:
    return next(n for n in nodes if n["text"] == text)


def test_rpc_tree_listing_navigation_and_branch_summary(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    script = [
        {"type": "text", "text": "Answer one."},
        {"type": "text", "text": "Answer two."},
        {"type": "text", "text": "## Goal\nTry two."},
        {"type": "text", "text": "Answer two, again."},
    ]
    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        driver = RpcDriver([*CLI, "--provider", "mock", "--model", "mock-model", "--mode", "rpc"],
                           tmp_path / "project", env)
        try:
            for n, text in enumerate(["First.", "Second."]):
                driver.send({"id": f"p{n}", "type": "prompt", "message": text})
                assert driver.response(f"p{n}")["success"] is True
                driver.event("agent_end")
            driver.send({"id": "t1", "type": "get_session_tree"})
            tree = driver.response("t1")["data"]
            nodes = tree["nodes"]
            assert tree["filter"] == "all" and tree["leafId"] == nodes[-1]["id"] == tree["currentId"]
            assert [n["type"] for n in nodes][:2] == ["model_change", "thinking_level_change"]
            first, answer = _node(nodes, "user: First."), _node(nodes, "assistant: Answer one.")
            assert first["role"] == "user" and answer["parentId"] == first["id"] and answer["onActivePath"]
            driver.send({"id": "t2", "type": "get_session_tree", "filter": "user-only"})
            users = driver.response("t2")["data"]["nodes"]
            assert [n["text"] for n in users] == ["user: First.", "user: Second."]
            driver.send({"id": "t3", "type": "get_session_tree", "filter": "bogus"})
            assert driver.response("t3")["success"] is False

            driver.send({"id": "n1", "type": "navigate_tree", "targetId": _node(nodes, "user: Second.")["id"],
                         "summarize": True, "customInstructions": "be brief", "label": "first try"})
            assert driver.event("branch_summary_start")["entryCount"] == 1  # "Answer two." (the target is shared)
            event = driver.event("session_tree")
            result = driver.response("n1")
            assert result["success"] is True, result
            data = result["data"]
            assert data["editorText"] == "Second." and data["summaryEntry"]["type"] == "branch_summary"
            assert data["summaryEntry"]["parentId"] == answer["id"]
            assert event["oldLeafId"] == tree["leafId"] and event["summaryEntry"]["id"] == data["summaryEntry"]["id"]

            driver.send({"id": "p9", "type": "prompt", "message": "Second, again."})
            assert driver.response("p9")["success"] is True
            driver.event("agent_end")
            driver.send({"id": "t4", "type": "get_session_tree", "filter": "labeled-only"})
            labelled = driver.response("t4")["data"]["nodes"]
            assert [(n["type"], n["label"]) for n in labelled] == [("branch_summary", "first try")]
            driver.send({"id": "n2", "type": "navigate_tree", "targetId": "nope"})
            assert driver.response("n2")["error"] == "Entry nope not found"
        finally:
            code, stderr = driver.close()
        bodies = [r["body"] for r in server.requests]
    assert code == 0, stderr
    summary_prompt = bodies[2]["messages"][-1]["content"]
    summary_text = summary_prompt if isinstance(summary_prompt, str) else summary_prompt[0]["text"]
    assert "[Assistant]: Answer two." in summary_text and summary_text.endswith("Additional focus: be brief")
    # the prompt after the jump continues from "Answer one." with the summary in the context
    sent = [m for m in bodies[3]["messages"] if m["role"] == "user"]
    texts = [m["content"] if isinstance(m["content"], str) else m["content"][0]["text"] for m in sent]
    assert texts[0] == "First." and "Try two." in texts[1] and texts[2] == "Second, again."
    sessions = list((tmp_path / "agent" / "sessions").glob("*/*.jsonl"))
    lines = [json.loads(line) for line in sessions[0].read_text().splitlines()]
    assert sum(1 for line in lines if line["type"] == "branch_summary") == 1
