"""``--mode acp`` with a client that offers ``fs`` capabilities: ``read`` sees the editor's unsaved buffer,
``write`` and ``edit`` go through the client; without the capability (the other tests) files are local."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from acp.schema import ClientCapabilities, FileSystemCapabilities, ReadTextFileResponse, WriteTextFileResponse

from .acp_client import RecordingClient, acp_run
from .helpers import clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()


class EditorClient(RecordingClient):
    """Serves ``buffers`` (path → unsaved text) and records writes into them instead of the disk."""

    def __init__(self, buffers: dict[str, str]) -> None:
        super().__init__()
        self.buffers = buffers
        self.reads: list[str] = []
        self.writes: list[tuple[str, str]] = []

    async def read_text_file(self, session_id: str, path: str, line: int | None = None, limit: int | None = None,
                             **kwargs: Any) -> ReadTextFileResponse:
        self.reads.append(path)
        return ReadTextFileResponse(content=self.buffers[path])

    async def write_text_file(self, session_id: str, path: str, content: str, **kwargs: Any) -> WriteTextFileResponse:
        self.writes.append((path, content))
        self.buffers[path] = content
        return WriteTextFileResponse()


def test_file_tools_use_the_clients_buffers(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    notes = project / "notes.txt"
    notes.write_text("saved on disk\n", encoding="utf-8")
    (tmp_path / "agent" / "settings.json").write_text(json.dumps({"acp": {"defaultMode": "allow"}}))
    editor = EditorClient({str(notes): "unsaved buffer text\n"})
    script = [
        {"type": "tool", "calls": [{"id": "r", "name": "read", "args": {"path": "notes.txt"}}]},
        {"type": "tool", "calls": [{"id": "e", "name": "edit", "args": {
            "path": "notes.txt", "edits": [{"oldText": "unsaved", "newText": "edited"}]}}]},
        {"type": "tool", "calls": [{"id": "w", "name": "write", "args": {"path": "new.txt", "content": "fresh\n"}}]},
        {"type": "text", "text": "ok"},
    ]

    async def main() -> Any:
        async with acp_run(["--provider", "mock", "--model", "mock-model"], project, env,
                           tmp_path / "stderr.log", client=editor) as run:
            caps = ClientCapabilities(fs=FileSystemCapabilities(read_text_file=True, write_text_file=True))
            await run.conn.initialize(protocol_version=1, client_capabilities=caps)
            new = await run.conn.new_session(cwd=str(project), mcp_servers=[])
            return await run.conn.prompt(session_id=new.session_id, prompt=[{"type": "text", "text": "go"}])

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        response = asyncio.run(main())
        bodies = [r["body"] for r in server.requests]
    assert response.stop_reason == "end_turn"
    assert "unsaved buffer text" in json.dumps(bodies[1]["messages"][-1])  # the read result the model got
    assert editor.writes == [(str(notes), "edited buffer text\n"), (str(project / "new.txt"), "fresh\n")]
    assert notes.read_text() == "saved on disk\n"  # the editor owns the file now, not pi-tui
    assert not (project / "new.txt").exists()
