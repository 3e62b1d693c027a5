"""A trusted project's UI settings (``theme``, ``hideThinkingBlock``) apply in the run where the trust question is
answered (new-user run #14: /settings said ``Theme nord project`` while the screen kept the global dark colours
until the next start)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.coding.resources import trust

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def _fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PI_TUI_THEME", raising=False)
    (tmp_path / "agent").mkdir()
    (tmp_path / "agent" / "settings.json").write_text(json.dumps({"theme": "dark"}))
    trust.reset_process_decisions()
    yield
    trust.reset_process_decisions()


@pytest.mark.parametrize("explicit", [None, "light"])
async def test_trusting_applies_the_project_theme_and_thinking_setting_at_once(tmp_path: Path,
                                                                              explicit: str | None) -> None:
    from pi_tui.coding.agent_session.factory import create_agent_session
    from pi_tui.tui.modals.trust import TrustChoiceModal, ask_project_trust
    from pi_tui.tui.trusted_ui import apply_trusted_ui
    from tests.tui.helpers import make_app, settle, wait_until

    project = tmp_path / "proj"
    (project / ".pi-tui").mkdir(parents=True)
    (project / ".pi-tui" / "settings.json").write_text(json.dumps({"theme": "nord", "hideThinkingBlock": True}))
    app: object = None

    async def factory() -> object:  # the order of pi_tui/tui/launch.py's factory
        trusted = await ask_project_trust(app, str(project))
        session = create_agent_session(str(project), no_session=True, persist_settings=True)  # as the CLI
        if trusted:
            apply_trusted_ui(app, session.settings_manager, explicit)
        return session

    app = make_app(session_factory=factory, theme=explicit or "dark", cwd=str(project))
    async with app.run_test(size=(100, 30)) as pilot:  # type: ignore[attr-defined]
        await wait_until(pilot, lambda: isinstance(app.screen, TrustChoiceModal))  # type: ignore[attr-defined]
        await pilot.press("enter")  # trust
        await settle(pilot)
        assert app.pi_theme.name == (explicit or "nord")  # type: ignore[attr-defined]
        assert app.ctx.hide_thinking is True  # type: ignore[attr-defined]
        assert app.session.settings_manager.theme == "nord"  # type: ignore[attr-defined]  # what /settings shows


def test_launch_applies_the_trusted_ui_after_building_the_session() -> None:
    """launch.run_app's factory calls :func:`apply_trusted_ui` once the folder is trusted (read from its source:
    the factory is a closure over the running app)."""
    import inspect

    from pi_tui.tui import launch

    source = inspect.getsource(launch.run_app)
    assert source.index("to_thread(create_agent_session, **opts)") < source.index("apply_trusted_ui(app, session.settings_manager")
