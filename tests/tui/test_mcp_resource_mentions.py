"""``@server:uri`` in the editor (issue 13): the completion list offers a connected MCP server's resources
(``@res:`` lists only them), Tab inserts the mention, and Enter sends a message whose content has the resource
read by the session (pi_tui/coding/mcp/resources.py; server: tests/fixtures/mcp/resource_server.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.ai.types import Context
from pi_tui.coding.file_index import FileIndex
from tests.coding.mcp.conftest import FIXTURES
from tests.tui.helpers import make_app, make_session, wait_until
from tests.tui.test_key_routing import keys_for

pytestmark = pytest.mark.anyio


async def test_at_server_colon_completes_resources_and_enter_attaches_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    server = {"command": sys.executable, "args": [str(FIXTURES / "resource_server.py")], "timeout": 30}
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {"res": server}}))
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    project = tmp_path / "project"
    project.mkdir()
    (project / "readme-notes.txt").write_text("a file\n")
    seen: list[list[dict[str, Any]]] = []

    def step(context: Context, options: Any, state: Any, model: Any) -> Any:
        seen.append(context.messages[-1].model_dump(mode="json", by_alias=True, exclude_none=True)["content"])
        return faux_assistant_message("got it")

    session, _faux = make_session(project, [step])
    app = make_app(session, cwd=str(project))
    async with app.run_test(size=(110, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.completion._index_factory = lambda root: FileIndex(root, backend="python")
        connection = session.mcp.manager.connections["res"]
        await wait_until(pilot, lambda: connection.state == "connected", limit=60)
        view = app.completion_list
        for key in keys_for("look at @res:"):
            await pilot.press(key)
        await wait_until(pilot, lambda: view.is_open and len(view.items) == 6)
        assert [i.value for i in view.items][:2] == ["@res:notes://readme", "@res:notes://dot.png"]
        assert all(i.value.startswith("@res:") for i in view.items)  # the server's resources only, no files
        for key in keys_for("rea"):
            await pilot.press(key)
        await wait_until(pilot, lambda: [i.value for i in view.items][:1] == ["@res:notes://readme"])
        await pilot.press("tab")
        await pilot.pause()
        assert app.prompt_input.text == "look at @res:notes://readme "
        for key in keys_for("please"):
            await pilot.press(key)
        await pilot.press("enter")
        await wait_until(pilot, lambda: len(seen) == 1, limit=30)
        texts = [b["text"] for b in seen[0] if b["type"] == "text"]
        assert texts[0] == "look at @res:notes://readme please"
        assert "hello from the readme resource" in texts[1]
        # a fuzzy query with no server prefix lists files first, then matching resources
        for key in keys_for("@readme"):
            await pilot.press(key)
        await wait_until(pilot, lambda: view.is_open and "@res:notes://readme" in [i.value for i in view.items])
        values = [i.value for i in view.items]
        assert values.index("@readme-notes.txt") < values.index("@res:notes://readme")
