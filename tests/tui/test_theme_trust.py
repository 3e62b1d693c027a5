"""Project themes are gated by project trust like the other project resources (pi 1.x docs/security.md):
``<cwd>/.pi-tui/themes`` and pi's ``<cwd>/.pi/themes`` ask for a decision, load only once the folder is
trusted (saved, this time only or ``--trust-project``), and an untrusted project theme asked for by name
says why it was not loaded; the user's own and the built-in themes always load."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.coding.resources import trust
from pi_tui.tui.theme_loader import BUILTIN_DIR, ThemeError, available_themes, find_theme


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    (tmp_path / "agent").mkdir()
    trust.reset_process_decisions()
    yield
    trust.reset_process_decisions()


def _theme(folder: Path, name: str, accent: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    data = json.loads((BUILTIN_DIR / "dark.json").read_text())
    data["name"] = name
    data["colors"]["accent"] = accent
    (folder / f"{name}.json").write_text(json.dumps(data))


@pytest.mark.parametrize("folder", [".pi-tui/themes", ".pi/themes"])
def test_project_themes_load_only_when_trusted(tmp_path: Path, folder: str) -> None:
    project = tmp_path / "proj"
    _theme(project / folder, "evil", "#ff0000")
    _theme(project / folder, "dark", "#ff0000")  # would restyle the built-in
    _theme(tmp_path / "agent" / "themes", "mine", "#00ff00")
    assert str(project / folder) in trust.project_resources(project)
    assert trust.needs_decision(project)
    assert find_theme("dark", project).hex("accent") != "#ff0000"
    assert "evil" not in available_themes(project) and "mine" in available_themes(project)
    with pytest.raises(ThemeError, match="not trusted"):
        find_theme("evil", project)
    assert find_theme("mine", project).hex("accent") == "#00ff00"

    trust.decide(project, trust.TrustChoice.ONCE)
    assert find_theme("evil", project).hex("accent") == "#ff0000"
    assert find_theme("dark", project).hex("accent") == "#ff0000"
    assert "evil" in available_themes(project)


def test_a_distrusted_folder_keeps_its_themes_out_and_trust_brings_them_in(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    _theme(project / ".pi-tui" / "themes", "team", "#123456")
    trust.decide(project, trust.TrustChoice.DENY)
    trust.reset_process_decisions()
    with pytest.raises(ThemeError, match="not trusted"):
        find_theme("team", project)
    trust.decide(project, trust.TrustChoice.TRUST)
    trust.reset_process_decisions()  # the next start
    assert find_theme("team", project).hex("accent") == "#123456"
    trust.set_override(False)
    assert "team" not in available_themes(project)


@pytest.mark.anyio
async def test_trusting_at_start_up_applies_the_project_theme(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_tui.coding.agent_session.factory import create_agent_session
    from pi_tui.tui.modals.trust import TrustChoiceModal, ask_project_trust
    from tests.tui.helpers import make_app, settle, transcript_text, wait_until

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    project = tmp_path / "proj"
    _theme(project / ".pi-tui" / "themes", "team", "#123456")
    app: object = None

    async def factory() -> object:  # what pi_tui/tui/launch.py does
        if await ask_project_trust(app, str(project)):
            app.theme_after_trust("team")  # type: ignore[attr-defined]
        return create_agent_session(str(project), no_session=True)

    app = make_app(session_factory=factory, theme="team", cwd=str(project))
    assert app.pi_theme.name == "dark" and "not trusted" in (app.theme_warning or "")  # type: ignore[attr-defined]
    async with app.run_test(size=(100, 30)) as pilot:  # type: ignore[attr-defined]
        await wait_until(pilot, lambda: isinstance(app.screen, TrustChoiceModal))  # type: ignore[attr-defined]
        await pilot.press("enter")  # trust
        await settle(pilot)
        assert app.pi_theme.name == "team" and app.theme_warning is None  # type: ignore[attr-defined]
        assert "not trusted" not in transcript_text(app)  # type: ignore[arg-type]
