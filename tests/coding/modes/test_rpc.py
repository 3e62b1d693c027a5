"""``pi-tui --mode rpc`` as a subprocess against a loopback OpenAI-compatible server (pi-reference §3.19)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from .helpers import CLI, clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()
from replay_coding_trace import RpcDriver  # noqa: E402  (path set up by helpers)


def _users(messages: list[dict[str, Any]]) -> list[str]:
    return ["".join(b["text"] for b in m["content"] if b["type"] == "text") for m in messages if m["role"] == "user"]


def test_rpc_prompt_steer_follow_up_abort_state_messages(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    script = [
        {"type": "tool", "calls": [{"id": "call_1", "name": "bash", "args": {"command": "sleep 1 && echo slept"}}]},
        {"type": "text", "text": "Slept; and hello."},
        {"type": "text", "text": "Summary done."},
        {"type": "text", "text": "Once upon a time there was a very long story that kept going.", "chunkDelayMs": 100},
    ]
    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        driver = RpcDriver([*CLI, "--provider", "mock", "--model", "mock-model", "--mode", "rpc"],
                           tmp_path / "project", env)
        try:
            driver.send({"id": "s1", "type": "get_state"})
            state = driver.response("s1")["data"]
            assert state["model"]["id"] == "mock-model" and state["isStreaming"] is False
            assert state["messageCount"] == 0 and state["thinkingLevel"] == "off"

            driver.send({"id": "p1", "type": "prompt", "message": "Run a slow command."})
            assert driver.response("p1")["success"] is True
            driver.event("tool_execution_update")
            driver.send({"id": "st1", "type": "steer", "message": "Also say hello."})
            queued = driver.event("queue_update")
            assert queued == {"type": "queue_update", "steering": ["Also say hello."], "followUp": []}
            assert driver.response("st1")["success"] is True
            driver.send({"id": "f1", "type": "follow_up", "message": "Then summarise."})
            assert driver.response("f1")["success"] is True
            driver.event("agent_end")

            driver.send({"id": "p2", "type": "prompt", "message": "Tell me a long story."})
            driver.wait_for(lambda m: m.get("type") == "message_update"
                            and m["assistantMessageEvent"]["type"] == "text_delta", nth=2)
            driver.send({"id": "a1", "type": "abort"})
            assert driver.response("a1")["success"] is True
            driver.send({"id": "s2", "type": "get_state"})
            state = driver.response("s2")["data"]
            assert state["isStreaming"] is False and state["pendingMessageCount"] == 0
            driver.send({"id": "m1", "type": "get_messages"})
            messages = driver.response("m1")["data"]["messages"]
            driver.send("not json")  # type: ignore[arg-type]
        finally:
            code, stderr = driver.close()
        bodies = [r["body"] for r in server.requests]
    assert code == 0, stderr
    assert _users(messages) == ["Run a slow command.", "Also say hello.", "Then summarise.", "Tell me a long story."]
    roles = [m["role"] for m in messages if m["role"] not in ("notification", "artifact")]
    assert roles == ["user", "assistant", "toolResult", "user", "assistant", "user", "assistant", "user", "assistant"]
    assert messages[-1]["stopReason"] == "aborted"
    # request 2 carries the steering message right after the tool result; request 3 the follow-up
    assert [m["role"] for m in bodies[1]["messages"]][-2:] == ["tool", "user"]
    assert bodies[1]["messages"][-1]["content"][0]["text"] == "Also say hello."
    assert bodies[2]["messages"][-1]["content"][0]["text"] == "Then summarise."
    parse_errors = [m for m in driver.out if m.get("command") == "parse"]
    assert parse_errors and parse_errors[0]["success"] is False
    sessions = list((tmp_path / "agent" / "sessions").glob("*/*.jsonl"))
    lines = [json.loads(line) for line in sessions[0].read_text().splitlines()]
    file_roles = [line["message"]["role"] for line in lines if line["type"] == "message"]
    assert file_roles == roles
    assert [line["type"] for line in lines[:3]] == ["session", "model_change", "thinking_level_change"]


def test_rpc_framing_lf_only(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    commands = (
        '{"id":"n1","type":"set_session_name","name":"a\u2028b"}\r\n'
        '{"id":"g1","type":"get_state"}\n'
        '{"id":"x1","type":"no_such_command"}\n'
        '{"id":"t1","type":"get_last_assistant_text"}\n'
    ).encode()
    run = subprocess.run([*CLI, "--mode", "rpc"], cwd=tmp_path / "project", env=env, input=commands,
                         capture_output=True, timeout=60)
    out = [json.loads(line) for line in run.stdout.decode().split("\n") if line]
    by_id = {m.get("id"): m for m in out if m.get("type") == "response"}
    assert by_id["n1"]["success"] is True
    assert by_id["g1"]["data"]["sessionName"] == "a\u2028b"  # U+2028 did not split the command
    assert by_id["x1"] == {"id": "x1", "type": "response", "command": "no_such_command", "success": False,
                           "error": "Unknown command: no_such_command"}
    assert by_id["t1"]["data"] == {"text": None}
    assert run.returncode == 0
