"""Issue 13, "the servers must not delay start-up": the app starts the MCP servers only after the attached session
is on screen (the footer names the model), so their processes and the SDK import do not compete with the first
paints; a prompt sent earlier starts them itself (the first prompt waits for them)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from tests.coding.mcp.conftest import FAULT_SERVER
from tests.tui.helpers import make_app, settle, wait_until

pytestmark = pytest.mark.anyio

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


async def test_servers_start_after_the_session_is_painted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    for name in [n for n in list(__import__("os").environ) if n.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {"fault": {"command": sys.executable,
                                                                         "args": [str(FAULT_SERVER)]}}}))
    session = create_agent_session(str(tmp_path), no_session=True)
    model = session.agent.state.model.id
    app = make_app(session, cwd=str(tmp_path))
    painted: list[str] = []
    seen_at_start: list[bool] = []
    link = session.mcp
    original_start = link.start

    def start() -> None:
        seen_at_start.append(any(model in frame for frame in painted))
        original_start()

    link.start = start  # type: ignore[method-assign]
    display = app._display

    def record(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        render = getattr(renderable, "render_segments", None)
        if render is not None:
            painted.append(ANSI.sub("", render(app.console)))

    app._display = record  # type: ignore[method-assign]
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: link.started)
        assert seen_at_start == [True]  # started once, after a frame showed the attached session
        await link.manager.wait_ready(90)
        assert link.manager.connections["fault"].state == "connected"
    await link.close()
