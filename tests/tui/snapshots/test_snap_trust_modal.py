"""Snapshot: the project-trust modal on the first start in an untrusted folder with project resources
(pi 1.x docs/security.md; pi_tui/tui/modals/trust.py). The app's real session factory path: the modal comes
before the session is built."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.resources import trust
from pi_tui.tui.modals.trust import TrustChoiceModal, ask_project_trust
from tests.tui.helpers import make_app, offline_session, wait_until

PROJECT = Path("/tmp/pi-tui-snapshot-trust/demo-project")  # fixed: the modal shows the path


def _project() -> Path:
    shutil.rmtree(PROJECT, ignore_errors=True)
    for rel, text in ((".pi-tui/settings.json", "{}"), (".pi-tui/extensions/gate.py", "def activate(pi): ...\n"),
                      (".pi-tui/skills/review/SKILL.md", "---\nname: review\ndescription: r\n---\n"),
                      (".pi-tui/prompts/fix.md", "Fix $1")):
        (PROJECT / rel).parent.mkdir(parents=True, exist_ok=True)
        (PROJECT / rel).write_text(text)
    (PROJECT / ".git").mkdir()
    return PROJECT


def build_trust_app() -> Any:
    project = _project()
    app: Any = None

    async def factory() -> Any:
        await ask_project_trust(app, str(project))
        return offline_session(project)

    app = make_app(session_factory=factory)
    return app


def test_trust_modal(snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    trust.reset_process_decisions()
    app = build_trust_app()

    async def drive(pilot: Any) -> None:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustChoiceModal))
        await pilot.pause(0.1)

    try:
        assert snap_compare(app, run_before=drive, terminal_size=(110, 30))
    finally:
        trust.reset_process_decisions()
