"""With a broken ``models.json`` the user was stuck (new-user run, issue 9's class "nothing the user typed or saw
is ever lost"): no model, /model listed nothing, and the help text named ``~/.pi-tui/agent`` although
``PI_TUI_DIR`` pointed elsewhere. Now the error names the file and the parse error, the built-in offline demo
model is offered in /model (not chosen: it never answers in place of the configured model), and every path the
user is shown comes from the real config dir."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.agent_session.settings import login_help
from pi_tui.coding.offline_model import OFFLINE_MODEL_ID
from pi_tui.tui.modals.model_picker import ModelPicker

from .helpers import make_app, settle, transcript_text, wait_until
from .test_key_routing import keys_for

pytestmark = pytest.mark.anyio


def _flat(text: str) -> str:
    return " ".join(text.split())


async def test_broken_models_json_names_the_error_and_offers_the_offline_model(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = tmp_path / "cfg"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    monkeypatch.setenv("PI_TUI_OFFLINE_TPS", "0")
    (agent / "models.json").write_text('{"providers": {\n')
    app = make_app(session=None, session_factory=lambda: create_agent_session(str(tmp_path), no_session=True))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        assert app.session is not None and app.session.model is None  # the demo does not answer in its place
        text = _flat(transcript_text(app))
        assert str(agent / "models.json") in text and "Expecting" in text  # the file and the parse error
        await pilot.press(*keys_for("hi"), "enter")
        await wait_until(pilot, lambda: "No model selected" in transcript_text(app))
        refused = _flat(transcript_text(app))
        assert "/model" in refused and "offline" in refused
        assert "~/.pi-tui" not in refused and str(agent / "auth.json") in refused
        app.prompt_input.text = ""
        await pilot.press(*keys_for("/model"), "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        await pilot.pause(0.1)
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any(OFFLINE_MODEL_ID in label for label in labels), labels
        await pilot.press(*keys_for("offline"), "enter")
        await wait_until(pilot, lambda: app.session.model is not None)
        assert app.session.is_offline_model
        await pilot.press(*keys_for("hello"), "enter")
        await wait_until(pilot, lambda: "offline demo model" in transcript_text(app))


def test_login_help_names_the_real_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "elsewhere"))
    text = login_help()
    assert f"{tmp_path / 'elsewhere'}/auth.json" in text and f"{tmp_path / 'elsewhere'}/models.json" in text
    assert "~/.pi-tui" not in text
    monkeypatch.delenv("PI_TUI_DIR")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert "~/.pi-tui/agent/models.json" in login_help()
