"""The trust modal drives the decision and what the session then loads (pi 1.x project trust)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.resources import trust
from pi_tui.coding.session_factory import create_agent_session
from pi_tui.tui.modals.trust import TrustChoiceModal, ask_project_trust
from tests.tui.helpers import make_app, settle, wait_until


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = tmp_path / "proj"
    skill = folder / ".pi-tui" / "skills" / "proj-skill" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text("---\nname: proj-skill\ndescription: from the project\n---\nbody\n")
    trust.reset_process_decisions()
    yield folder
    trust.reset_process_decisions()


def _app(folder: Path) -> Any:
    app: Any = None

    async def factory() -> Any:
        await ask_project_trust(app, str(folder))
        return create_agent_session(str(folder), no_session=True)

    app = make_app(session_factory=factory)
    return app


def _saved(tmp: Path) -> dict[str, bool]:
    path = tmp / "agent" / "trust.json"
    return json.loads(path.read_text()) if path.exists() else {}


@pytest.mark.anyio
@pytest.mark.parametrize(("keys", "loaded", "saved"), [
    (["enter"], True, True),
    (["down", "enter"], True, None),
    (["down", "down", "enter"], False, False),
    (["escape"], False, None),
])
async def test_choice_decides_loading_and_what_is_saved(project: Path, keys: list[str], loaded: bool,
                                                        saved: bool | None) -> None:
    app = _app(project)
    async with app.run_test(size=(110, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TrustChoiceModal))
        for key in keys:
            await pilot.press(key)
        await settle(pilot)
        assert ("<name>proj-skill</name>" in app.session.agent.state.system_prompt) is loaded
    assert _saved(project.parent).get(trust.canonical_path(project)) == saved


@pytest.mark.anyio
async def test_no_question_once_decided_or_without_resources(project: Path, tmp_path: Path) -> None:
    trust.TrustStore(tmp_path / "agent").set(project, True)
    plain = tmp_path / "plain"
    plain.mkdir()
    for folder, expect in ((project, True), (plain, False)):
        app = _app(folder)
        async with app.run_test(size=(110, 30)) as pilot:
            await settle(pilot)
            assert not isinstance(app.screen, TrustChoiceModal)
            assert ("proj-skill" in app.session.agent.state.system_prompt) is expect
