"""Tester2 #5 (the MCP part): while the first prompt waits for a server still connecting, one notice says so at
once, and Esc (``AgentSession.abort``) ends the wait then, not when the wait runs out."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import FauxProvider, faux_assistant_message, register_faux_provider
from pi_tui.coding.mcp import session_link
from pi_tui.coding.session_factory import create_agent_session
from tests.coding.mcp.conftest import FAULT_SERVER
from tests.coding.mcp.helpers import collect_notices

pytestmark = pytest.mark.anyio


@pytest.fixture
def faux() -> Iterator[FauxProvider]:
    provider = register_faux_provider(provider="faux", models=[{"id": "faux-1", "name": "Faux"}])
    yield provider
    provider.unregister()


async def test_esc_ends_the_first_prompts_wait_for_a_slow_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, faux: FauxProvider
) -> None:
    agent = tmp_path / "agent"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    monkeypatch.setattr(session_link, "FIRST_PROMPT_WAIT_S", 3600.0)  # only a stop can end this wait
    slow = f"sleep 3600; exec {sys.executable} {FAULT_SERVER}"
    (agent / "mcp.json").write_text(json.dumps({"mcpServers": {"slow": {"command": "sh", "args": ["-c", slow]}}}))
    session = create_agent_session(str(tmp_path), no_session=True)
    model = faux.get_model()
    session.models.allow(faux.provider, model.id, model)
    session.set_model(model)
    faux.set_responses([faux_assistant_message("never asked")])
    shown = collect_notices(session)
    session.mcp.start()
    try:
        prompt = asyncio.ensure_future(session.prompt("waiting prompt"))
        for _ in range(2000):
            if any("Waiting up to 3600 s for MCP server slow to connect" in n for n in shown):
                break
            await asyncio.sleep(0.01)
        assert any("(Esc stops)" in n for n in shown) and not prompt.done()
        await session.abort()
        await asyncio.wait_for(prompt, 60)
        assert session.mcp.manager.connections["slow"].state == "connecting"  # it did not wait for the server
        users = [m for m in session.messages if getattr(m, "role", None) == "user"]
        assert [u.content[0].text for u in users] == ["waiting prompt"]  # the message is kept
    finally:
        await session.mcp.close()
