"""``--mode acp``: ``session/cancel`` while a permission request is still unanswered ends the prompt as
cancelled and the tool never runs, even when the client never answers the request."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from .acp_client import RecordingClient, acp_run
from .helpers import clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()


class SilentClient(RecordingClient):
    """Records the permission request and never answers it."""

    async def request_permission(self, session_id: str, tool_call: Any, options: Any, **kwargs: Any) -> Any:
        self.permission_requests.append({"toolCall": tool_call.model_dump(by_alias=True, exclude_none=True)})
        self.permission_asked.set()
        await asyncio.sleep(3600)


def test_cancel_during_an_unanswered_permission_request(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    marker = project / "ran.txt"
    script = [{"type": "tool", "calls": [{"id": "c", "name": "bash", "args": {"command": f"touch {marker}"}}]},
              {"type": "text", "text": "not reached"}]
    client = SilentClient()

    async def main() -> Any:
        async with acp_run(["--provider", "mock", "--model", "mock-model"], project, env,
                           tmp_path / "stderr.log", client=client) as run:
            await run.conn.initialize(protocol_version=1)
            new = await run.conn.new_session(cwd=str(project), mcp_servers=[])
            prompt = asyncio.ensure_future(run.conn.prompt(session_id=new.session_id,
                                                           prompt=[{"type": "text", "text": "touch it"}]))
            await asyncio.wait_for(client.permission_asked.wait(), 60)
            await run.conn.cancel(session_id=new.session_id)
            response = await asyncio.wait_for(prompt, 30)
            updates = run.updates(new.session_id)
            return response, updates

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        response, updates = asyncio.run(main())
    assert response.stop_reason == "cancelled"
    assert not marker.exists()
    final = [u for u in updates if u.get("toolCallId") == "c"][-1]
    assert final["status"] == "failed" and "cancelled" in final["content"][0]["content"]["text"]
