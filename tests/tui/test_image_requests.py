"""An image attached in the app reaches the request body of a vision model and not of a text-only one (issue 12).

The app runs a real AgentSession on the real openai-completions provider against the loopback scripted server
(tests/conformance/mock_llm_server.py), which records every request body. The session file it writes is then
opened by the real pi 0.73.1 when ``PI_REF_DIR`` points at an npm install of it (optional oracle, as
tests/coding/session/test_pi_interop.py): pi sees the same user message, image block included.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from textual import events

from pi_tui.ai.types import Model
from tests.coding.session_core.helpers import make_session
from tests.tui.helpers import make_app, settle, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402

PI_REF_DIR = os.environ.get("PI_REF_DIR", "")
PI_PACKAGE = Path(PI_REF_DIR) / "node_modules" / "@mariozechner" / "pi-coding-agent"


def _model(port: int, vision: bool) -> Model:
    return Model(id="mock-model", name="Mock Vision" if vision else "Mock Text", api="openai-completions",
                 provider="mock", base_url=f"http://127.0.0.1:{port}/v1", max_tokens=1024,
                 input=["text", "image"] if vision else ["text"])


async def _send_with_image(tmp_path: Path, port: int, vision: bool) -> tuple[Any, Path]:
    shot = tmp_path / "shot.png"
    Image.new("RGB", (48, 24), (10, 120, 240)).save(shot)
    session = make_session(tmp_path, _model(port, vision))
    app = make_app(session, cwd=str(tmp_path))
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(str(shot)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1)
        app.prompt_input.insert("describe it")
        await pilot.press("enter")
        await wait_until(pilot, lambda: session.messages and session.messages[-1].role == "assistant"
                         and not session.is_streaming, limit=30)
        notices = [getattr(i, "text", "") for i in app.transcript.items]
    return notices, shot


def _user_parts(body: dict[str, Any]) -> list[dict[str, Any]]:
    users = [m for m in body["messages"] if m["role"] == "user"]
    content = users[-1]["content"]
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


@pytest.mark.anyio
async def test_the_image_block_reaches_a_vision_models_request(tmp_path: Path) -> None:
    with MockLlmServer([{"type": "text", "text": "a blue rectangle"}]) as server:
        _, shot = await _send_with_image(tmp_path, server.port, vision=True)
        body = server.requests[0]["body"]
    parts = _user_parts(body)
    assert [p["type"] for p in parts] == ["text", "image_url"]
    assert parts[0]["text"] == f'<file name="{shot}"></file>\ndescribe it'
    url = parts[1]["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == shot.read_bytes()  # within pi's limits: sent as it is


@pytest.mark.anyio
async def test_a_text_only_model_gets_the_text_and_no_image(tmp_path: Path) -> None:
    with MockLlmServer([{"type": "text", "text": "ok"}]) as server:
        notices, _ = await _send_with_image(tmp_path, server.port, vision=False)
        body = server.requests[0]["body"]
    raw = json.dumps(body)
    assert "image_url" not in raw and "base64," not in raw
    texts = [p.get("text", "") for p in _user_parts(body)]
    assert any("describe it" in t for t in texts)
    assert "(image omitted: model does not support images)" in raw  # pi's placeholder (pi-reference §3.3)
    assert any(n.startswith("Mock Text does not accept images: shot.png not sent to it") for n in notices)


PI_SCRIPT = """
import { SessionManager } from "@mariozechner/pi-coding-agent";
const sm = SessionManager.open(process.argv[2]);
console.log(JSON.stringify(sm.buildSessionContext().messages.filter((m) => m.role === "user")));
"""


@pytest.mark.skipif(not (PI_REF_DIR and PI_PACKAGE.is_dir() and shutil.which("node")),
                    reason="set PI_REF_DIR to an npm install of @mariozechner/pi-coding-agent@0.73.1")
def test_pi_reads_the_image_message_of_our_session_file(tmp_path: Path) -> None:
    with MockLlmServer([{"type": "text", "text": "a blue rectangle"}]) as server:
        _, shot = asyncio.run(_send_with_image(tmp_path, server.port, vision=True))
    files = sorted((tmp_path / "sessions").rglob("*.jsonl"))
    assert len(files) == 1
    script = Path(PI_REF_DIR) / "pi-tui-images-interop.mjs"  # ESM resolves packages from the script's folder
    script.write_text(PI_SCRIPT)
    try:
        out = subprocess.run(["node", str(script), str(files[0])], capture_output=True, text=True, timeout=60,
                             check=True).stdout
    finally:
        script.unlink()
    users = json.loads(out)
    content = users[-1]["content"]
    assert [b["type"] for b in content] == ["text", "image"]
    assert content[0]["text"] == f'<file name="{shot}"></file>\ndescribe it'
    assert content[1]["mimeType"] == "image/png"
    assert base64.b64decode(content[1]["data"]) == shot.read_bytes()
