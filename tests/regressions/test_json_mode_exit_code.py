"""``--mode json`` exits 1 when the run failed, as print mode does (new-user run #37: an HTTP 400 ended the JSON
stream and the exit status was 0). DIFFERENCES D23."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(("reply", "code"), [
    ({"type": "http_error", "status": 400, "body": {"error": {"message": "bad request: context_length_exceeded?"}}}, 1),
    ({"type": "text", "text": "fine"}, 0),
])
async def test_json_mode_exit_code_follows_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], reply: dict, code: int
) -> None:
    from pi_tui.coding.modes import print_mode

    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    with MockLlmServer([reply, reply, reply, reply]).start() as server:
        (agent / "models.json").write_text(json.dumps({"providers": {"local": {
            "baseUrl": f"http://127.0.0.1:{server.port}/v1", "api": "openai-completions", "apiKey": "none",
            "models": [{"id": "m"}]}}}))
        (agent / "settings.json").write_text(json.dumps({"retry": {"enabled": False}}))
        options = {"cwd": str(tmp_path), "session_dir": str(tmp_path / "s"), "provider": "local", "model": "m"}
        assert await print_mode._run(options, ["hello"], json_mode=True, images=[]) == code
    out = capsys.readouterr().out
    assert '"type":"agent_end"' in out.replace(" ", "")
