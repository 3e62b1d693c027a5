"""Templates and ``/skill:`` expand in the session's prompt path (pi 0.73 ``AgentSession.prompt``/``steer``/
``followUp``), so print and RPC mode get them too: asserted on the request body a loopback server receives."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.coding.modes.helpers import CLI, clean_env, load_mock_server, write_models_json
from tests.coding.resources.helpers import skill, write


def _user_texts(server: Any) -> list[str]:
    body = server.requests[0]["body"]
    body = json.loads(body) if isinstance(body, str) else body
    texts = []
    for message in body["messages"]:
        if message["role"] == "user":
            content = message["content"]
            texts.append(content if isinstance(content, str) else "".join(p.get("text", "") for p in content))
    return texts


def _setup(root: Path) -> None:
    clean_env(root)
    write(root / "agent" / "prompts" / "rev.md", "---\ndescription: review\n---\nReview $1 then ${@:2}")
    skill(root / "agent" / "skills", "beta", body="Beta body")


def test_print_mode_expands_a_template(tmp_path: Path) -> None:
    _setup(tmp_path)
    server = load_mock_server()([{"type": "text", "text": "ok"}]).start()
    try:
        write_models_json(tmp_path, server.port)
        run = subprocess.run([*CLI, "--provider", "mock", "--model", "mock-model", "--no-session", "-p",
                              "/rev one 'two three' four"], cwd=tmp_path / "project", env=clean_env(tmp_path),
                             stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        assert _user_texts(server) == ["Review one then two three four"]
    finally:
        server.close()


def test_rpc_prompt_expands_a_skill(tmp_path: Path) -> None:
    _setup(tmp_path)
    server = load_mock_server()([{"type": "text", "text": "ok"}]).start()
    try:
        write_models_json(tmp_path, server.port)
        lines = [json.dumps({"id": "1", "type": "prompt", "message": "/skill:beta go on"})]
        proc = subprocess.Popen([*CLI, "--provider", "mock", "--model", "mock-model", "--no-session", "--mode", "rpc"],
                                cwd=tmp_path / "project", env=clean_env(tmp_path), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(lines[0] + "\n")
        proc.stdin.flush()
        for line in proc.stdout:
            if '"agent_end"' in line:
                break
        proc.stdin.close()
        proc.wait(timeout=60)
        skill_file = tmp_path / "agent" / "skills" / "beta" / "SKILL.md"
        assert _user_texts(server) == [
            f'<skill name="beta" location="{skill_file}">\nReferences are relative to {skill_file.parent}.\n\n'
            "Beta body\n</skill>\n\ngo on"]
    finally:
        server.close()
