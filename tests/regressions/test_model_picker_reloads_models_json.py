"""``/model`` reads an edited models.json again (pi 0.82.0, pi #6999).

A user who added a model to models.json while pi-tui ran did not see it in ``/model`` until ``/reload`` or a
restart: the picker listed the models read at start. Now opening ``/model`` re-reads models.json (extension
providers are applied again on top).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.tui.modals.model_picker import ModelPicker
from tests.tui.helpers import make_app, settle, wait_until
from tests.tui.test_key_routing import keys_for

pytestmark = pytest.mark.anyio


def _models_json(path: Path, *ids: str) -> None:
    provider = {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions", "apiKey": "k",
                "models": [{"id": i} for i in ids]}
    path.write_text(json.dumps({"providers": {"lab": provider}}), encoding="utf-8")


async def test_a_model_added_to_models_json_while_running_is_offered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    agent = tmp_path / "cfg"
    agent.mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    _models_json(agent / "models.json", "first-model")
    app = make_app(session=None, session_factory=lambda: create_agent_session(str(tmp_path), no_session=True))
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        _models_json(agent / "models.json", "first-model", "added-later")
        await pilot.press(*keys_for("/model"), "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        await pilot.pause(0.1)
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("added-later" in label for label in labels), labels
