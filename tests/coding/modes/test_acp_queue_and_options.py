"""``--mode acp``: a prompt sent while a turn runs is queued (steering by default, follow-up by setting) and
answers when the run that took it ends; model and thinking level as session config options."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from acp import RequestError

from .acp_client import AcpRun, acp_run
from .helpers import clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()
ARGS = ["--provider", "mock", "--model", "mock-model"]


def _last_user_text(body: dict[str, Any]) -> str:
    users = [m for m in body["messages"] if m["role"] == "user"]
    content = users[-1]["content"]
    return content if isinstance(content, str) else "".join(c.get("text", "") for c in content)


@pytest.mark.parametrize("queued", ["steer", "followUp"])
def test_a_prompt_during_a_turn_is_queued_not_rejected(tmp_path: Path, queued: str) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    (tmp_path / "agent" / "settings.json").write_text(json.dumps({"acp": {"defaultMode": "allow",
                                                                          "queuedPrompt": queued}}))
    script = [
        {"type": "tool", "calls": [{"id": "call_1", "name": "bash", "args": {"command": "echo go; sleep 2"}}]},
        {"type": "text", "text": "First done."},
        {"type": "text", "text": "Second done."},
    ]

    async def main() -> tuple[Any, Any, AcpRun, str]:
        async with acp_run(ARGS, project, env, tmp_path / "stderr.log") as run:
            await run.conn.initialize(protocol_version=1)
            new = await run.conn.new_session(cwd=str(project), mcp_servers=[])
            assert new.modes is not None and new.modes.current_mode_id == "allow"
            first = asyncio.ensure_future(run.conn.prompt(session_id=new.session_id,
                                                          prompt=[{"type": "text", "text": "Run it."}]))
            await run.wait_for(lambda m: m.get("method") == "session/update"
                               and "go" in json.dumps(m["params"]["update"].get("content")))
            second = await run.conn.prompt(session_id=new.session_id, prompt=[{"type": "text", "text": "And then?"}])
            return await first, second, run, new.session_id

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)
        first, second, run, session_id = asyncio.run(main())
        bodies = [r["body"] for r in server.requests]
    assert (first.stop_reason, second.stop_reason) == ("end_turn", "end_turn")
    assert run.client.permission_requests == []  # allow mode asks nothing
    text = "".join(u["content"]["text"] for u in run.updates(session_id) if u["sessionUpdate"] == "agent_message_chunk")
    if queued == "steer":  # delivered with the tool result, in the same run
        assert len(bodies) == 2 and _last_user_text(bodies[1]) == "And then?"
        assert text == "First done."
    else:  # delivered when the agent would stop
        assert len(bodies) == 3
        assert _last_user_text(bodies[1]) == "Run it." and _last_user_text(bodies[2]) == "And then?"
        assert text == "First done.Second done."


def test_model_and_thinking_level_are_config_options(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"

    async def main() -> tuple[Any, Any, Any]:
        async with acp_run(ARGS, project, env, tmp_path / "stderr.log") as run:
            await run.conn.initialize(protocol_version=1)
            new = await run.conn.new_session(cwd=str(project), mcp_servers=[])
            changed = await run.conn.set_config_option(config_id="thinking_level", session_id=new.session_id,
                                                       value="high")  # clamped: the mock model has no reasoning
            with pytest.raises(RequestError) as bad:
                await run.conn.set_config_option(config_id="model", session_id=new.session_id, value="nope/none")
            return new, changed, bad.value

    with MockLlmServer([]) as server:
        write_models_json(tmp_path, server.port)
        new, changed, bad = asyncio.run(main())
    options = {o.root.id if hasattr(o, "root") else o.id: (o.root if hasattr(o, "root") else o)
               for o in new.config_options}
    assert options["model"].current_value == "mock/mock-model"
    assert "mock/mock-model" in [o.value for o in options["model"].options]
    after = {(o.root if hasattr(o, "root") else o).id: (o.root if hasattr(o, "root") else o)
             for o in changed.config_options}
    assert after["thinking_level"].current_value == "off"
    assert [o.value for o in options["thinking_level"].options] == ["off"]
    assert bad.code == -32602 and "nope/none" in json.dumps(bad.data)
