"""API gaps the shipped examples showed (examples/extensions/): a message an ``agent_end`` handler sends
(``send_message(trigger_turn=True)``, ``send_user_message``) starts the next run as in pi, where the
session handles ``agent_end`` once the agent is idle, instead of being queued on the ended run and lost;
``pi.exec(env=...)`` sets variables for the child only."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.coding.extensions.setup import start_extensions
from tests.tui.helpers import make_session

FOLLOW_ON = """
def activate(pi):
    runs = []
    def ended(event, ctx):
        runs.append(1)
        if len(runs) == 1:
            pi.send_message({"custom_type": "next", "content": "custom follow-on"}, trigger_turn=True)
        elif len(runs) == 2:
            pi.send_user_message("user follow-on")
    pi.on("agent_end", ended)

    async def env_check(args, ctx):
        result = await pi.exec("sh", ["-c", 'printf "%s" "$PI_TUI_GAP_TEST"'], env={"PI_TUI_GAP_TEST": args})
        pi.notify("env=" + result.stdout)
    pi.register_command("envcheck", env_check)
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_messages_sent_from_agent_end_start_the_next_runs(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    ext = tmp_path / "follow_on.py"
    ext.write_text(textwrap.dedent(FOLLOW_ON))
    session, faux = make_session(tmp_path, [faux_assistant_message(t) for t in ("one", "two", "three")],
                                 extension_paths=[str(ext)])
    assert await start_extensions(session.extensions) == []
    await session.prompt("start")
    await session.extensions.host.wait_for_deliveries()
    assert faux.get_pending_response_count() == 0
    sent = [(m.role, m.content if isinstance(m.content, str) else m.content[0].text)
            for m in session.messages if m.role in ("user", "custom")]
    assert sent == [("user", "start"), ("custom", "custom follow-on"), ("user", "user follow-on")]
    assert not session.is_streaming

    await session.prompt("/envcheck value 1")
    notices = [m.text for m in session.messages if m.role == "notification"]
    assert notices[-1] == "env=value 1" and "PI_TUI_GAP_TEST" not in os.environ
