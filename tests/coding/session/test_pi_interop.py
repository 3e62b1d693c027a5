"""A session written by pi-tui loads in the real pi 0.73.1 with the same context (optional oracle test).

Runs only when ``PI_REF_DIR`` points at a directory where ``npm install @mariozechner/pi-coding-agent@0.73.1``
was done and ``node`` is on PATH (no network is used: the package is already installed). Example:
``PI_REF_DIR=/tmp/piref /work/venv/bin/python -m pytest tests/coding/session/test_pi_interop.py``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, ToolCall, ToolResultMessage, UserMessage
from pi_tui.coding.session import SessionManager
from pi_tui.coding.session.messages import message_to_json

PI_REF_DIR = os.environ.get("PI_REF_DIR", "")
PI_PACKAGE = Path(PI_REF_DIR) / "node_modules" / "@mariozechner" / "pi-coding-agent"

pytestmark = pytest.mark.skipif(
    not (PI_REF_DIR and PI_PACKAGE.is_dir() and shutil.which("node")),
    reason="set PI_REF_DIR to an npm install of @mariozechner/pi-coding-agent@0.73.1",
)

SCRIPT = """
import { SessionManager } from "@mariozechner/pi-coding-agent";
const [path, dir] = process.argv.slice(2);
const sm = SessionManager.open(path);
const ctx = sm.buildSessionContext();
const labels = Object.fromEntries(sm.getEntries().map((e) => [e.id, sm.getLabel(e.id) ?? null]));
const list = await SessionManager.list("/proj", dir);
console.log(JSON.stringify({ id: sm.getSessionId(), name: sm.getSessionName() ?? null, leaf: sm.getLeafId(),
  count: sm.getEntries().length, labels, model: ctx.model, thinking: ctx.thinkingLevel, messages: ctx.messages,
  listed: list.map((i) => ({ id: i.id, messageCount: i.messageCount, firstMessage: i.firstMessage })) }));
"""


def test_pi_reads_our_session_file(tmp_path: Path) -> None:
    session = SessionManager.create("/proj", tmp_path / "sessions")
    session.append_model_change("mock", "mock-model")
    session.append_thinking_level_change("high")
    first = session.append_message(UserMessage(content=[TextContent(text="héllo \u2028 world")]))
    session.append_notification("info", "UI only")
    session.append_message(
        AssistantMessage(
            content=[TextContent(text="hi"), ToolCall(id="c1", name="bash", arguments={"command": "ls"})],
            api="openai-completions",
            provider="mock",
            model="mock-model",
            stop_reason="toolUse",
        )
    )
    session.append_message(
        ToolResultMessage(tool_call_id="c1", tool_name="bash", content=[TextContent(text="a")])
    )
    session.append_artifact("Plan", "markdown", "# plan")
    session.append_custom_message_entry("ext", "custom text", True, {"k": 1})
    session.append_label_change(first, "start")
    session.append_session_info("My session")
    session.append_message(
        AssistantMessage(
            content=[TextContent(text="done")], api="openai-completions", provider="mock", model="mock-model"
        )
    )
    session.append_compaction("SUMMARY", first, 1234)
    session.append_message(
        {"role": "bashExecution", "command": "ls", "output": "x", "exitCode": 0, "timestamp": 5}
    )
    script = tmp_path / "check.mjs"
    script.write_text(SCRIPT)
    env = {**os.environ, "NODE_PATH": str(Path(PI_REF_DIR) / "node_modules")}
    runner = Path(PI_REF_DIR) / "pi-tui-interop.mjs"
    shutil.copyfile(script, runner)  # ESM resolves packages relative to the script's directory
    try:
        out = subprocess.run(
            ["node", str(runner), str(session.session_file), str(tmp_path / "sessions")],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=True,
        ).stdout
    finally:
        runner.unlink()
    pi = json.loads(next(line for line in out.split("\n") if line.startswith('{"id"')))
    ours = session.build_session_context()
    assert pi["id"] == session.session_id and pi["name"] == "My session"
    assert pi["leaf"] == session.get_leaf_id() and pi["count"] == len(session.get_entries())
    assert pi["labels"][first] == "start"
    assert pi["model"] == ours.model and pi["thinking"] == ours.thinking_level == "high"
    assert pi["messages"] == [message_to_json(m) for m in ours.messages]
    info = SessionManager.list_sessions("/proj", tmp_path / "sessions")[0]
    assert pi["listed"] == [
        {"id": info.id, "messageCount": info.message_count, "firstMessage": info.first_message}
    ]
