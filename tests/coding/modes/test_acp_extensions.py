"""Extensions in ACP mode (issue 11/14 leftover): ``pi-tui --mode acp -e gate.py`` loads the extension
(``session_start``), its ``ctx.ui.confirm`` reaches the editor as a ``session/request_permission`` and the answer
decides the call, ``session_shutdown`` runs when the connection ends, and an extension whose ``activate`` raises is
named on stderr while the session goes on. Before, ACP mode never loaded extensions and handed its UI to an
attribute the runtime does not have."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path
from typing import Any

from .acp_client import AcpRun, acp_run
from .helpers import clean_env, load_mock_server, write_models_json

MockLlmServer = load_mock_server()

GATE = """
def activate(pi):
    async def gate(event, ctx):
        ok = await ctx.ui.confirm("Run " + event.tool_name + "?", str(event.input))
        open(LOG, "a").write(f"gate {event.tool_name} {ok} {ctx.has_ui}\\n")
        if not ok:
            return {"block": True, "reason": "Denied by the gate extension"}
    pi.on("tool_call", gate)
    pi.on("session_start", lambda event: open(LOG, "a").write("start\\n"))
    pi.on("session_shutdown", lambda event: open(LOG, "a").write("shutdown\\n"))
"""


def test_an_extension_gates_tools_through_the_editor(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    project = tmp_path / "project"
    log = tmp_path / "log.txt"
    gate = tmp_path / "gate.py"
    gate.write_text(textwrap.dedent(GATE).replace("LOG", repr(str(log))))
    broken = tmp_path / "broken.py"
    broken.write_text("def activate(pi):\n    raise ValueError('cannot start')\n")
    script = [
        {"type": "tool", "calls": [{"id": "call_1", "name": "bash", "args": {"command": "echo one"}}]},
        {"type": "tool", "calls": [{"id": "call_2", "name": "bash", "args": {"command": "echo two"}}]},
        {"type": "text", "text": "Done."},
    ]
    args = ["--provider", "mock", "--model", "mock-model", "-e", str(gate), "-e", str(broken)]

    async def scenario(run: AcpRun) -> Any:
        await run.conn.initialize(protocol_version=1)
        new = await run.conn.new_session(cwd=str(project), mcp_servers=[])
        await run.conn.set_session_mode(mode_id="allow", session_id=new.session_id)  # only the gate asks
        run.client.answers = ["yes", "no"]
        return await run.conn.prompt(session_id=new.session_id, prompt=[{"type": "text", "text": "Run both."}])

    with MockLlmServer(script) as server:
        write_models_json(tmp_path, server.port)

        async def main() -> tuple[Any, AcpRun]:
            async with acp_run(args, project, env, tmp_path / "stderr.log") as run:
                return await scenario(run), run

        response, run = asyncio.run(main())
        bodies = [r["body"] for r in server.requests]
    assert response.stop_reason == "end_turn"
    titles = [str(r["toolCall"]["title"]) for r in run.client.permission_requests]
    assert titles == ["Run bash?", "Run bash?"]
    results = [m for body in bodies[1:] for m in body["messages"] if m["role"] == "tool"]
    assert "one" in str(results[0]["content"]) and "Denied by the gate extension" in str(results[-1]["content"])
    assert log.read_text().splitlines() == ["start", "gate bash True True", "gate bash False True", "shutdown"]
    stderr = (tmp_path / "stderr.log").read_text()
    assert "broken.py" in stderr and "cannot start" in stderr
