"""examples/extensions/custom_compaction.py and notifier.py in a real session: ``/compact`` saves the
extension's local summary (no summarisation request reaches the model); the notifier runs the desktop
notification command after a finished run, not after a short one or an aborted one."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call

from .conftest import errors, started


@pytest.mark.anyio
async def test_compaction_uses_the_local_summary(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    steps = [faux_assistant_message([faux_tool_call("read", {"path": "a.txt"}, id="r1")], stop_reason="toolUse"),
             faux_assistant_message("a.txt says alpha."),
             faux_assistant_message("Second answer."),
             faux_assistant_message("Third answer.")]
    session, ui = await started(tmp_path, "custom_compaction", steps)
    session.settings.compaction.keep_recent_tokens = 10  # keep only the last turn
    for text in ("read a.txt please", "and then?", "last one"):
        await session.prompt(text)
        await session.wait_for_idle()
    pending_before = session.agent.state.messages[:]
    await session.compact()
    assert errors(session) == []
    entry = [e for e in session.session_manager.get_entries() if e.type == "compaction"][-1]
    assert entry.details == {"by": "custom_compaction"}
    assert "## The user asked\n- read a.txt please\n- and then?" in entry.summary
    assert "- read " in entry.summary and "a.txt" in entry.summary
    assert entry.summary.endswith("## Last reply\na.txt says alpha.")  # the kept turn is not summarised
    assert len(session.agent.state.messages) < len(pending_before)
    assert ui.notices[-1][1].startswith("Custom compaction: ")


def _recorder(tmp_path: Path) -> tuple[Path, Path]:
    log = tmp_path / "notified.txt"
    script = tmp_path / "fake-notify"
    script.write_text(f'#!/bin/sh\nprintf "%s|%s\\n" "$1" "$2" >> {log}\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script, log


@pytest.mark.anyio
async def test_notifier_notifies_when_a_run_finishes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script, log = _recorder(tmp_path)
    monkeypatch.setenv("PI_TUI_NOTIFY_COMMAND", str(script))
    session, ui = await started(tmp_path, "notifier", [faux_assistant_message("All tests pass.\nDetails...")],
                                extension_flags=["--notify-after=0"])
    titles: list[str] = []
    ui.set_title = titles.append  # type: ignore[method-assign]
    await session.prompt("run the tests")
    await session.wait_for_idle()
    assert errors(session) == []
    assert log.read_text() == "pi-tui: ready|All tests pass.\n"
    assert titles == ["✓ pi-tui: All tests pass."]


@pytest.mark.anyio
async def test_notifier_stays_quiet_for_short_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script, log = _recorder(tmp_path)
    monkeypatch.setenv("PI_TUI_NOTIFY_COMMAND", str(script))
    session, _ = await started(tmp_path, "notifier", [faux_assistant_message("quick")])  # default: 10 s
    await session.prompt("hi")
    await session.wait_for_idle()
    assert not log.exists()
    assert os.environ["PI_TUI_NOTIFY_COMMAND"] == str(script)
