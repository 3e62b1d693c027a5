"""``/model provider/id`` and a unique exact id switch at once; the picker's filter understands ``provider/id``
(new-user run #15: ``/model kw-s`` Tab inserted ``kw/kw-small``, which the picker then could not match, "No
matching models"; ``/model kw-small`` opened a one-row picker instead of switching).

pi 0.73.1 ``handleModelCommand``: ``findExactModelReferenceMatch`` over the scoped models (else the available
ones) switches directly; anything else opens the selector filtered by the term, and the selector matches
``id provider provider/id``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import register_faux_provider
from pi_tui.tui.modals.fuzzy_picker import filter_entries
from pi_tui.tui.modals.model_picker import ModelPicker, model_entries

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_key_routing import keys_for

pytestmark = pytest.mark.anyio


def _kw_session(tmp_path: Path) -> Any:
    session, _ = make_session(tmp_path, [])
    kw = register_faux_provider(provider="kw", models=[{"id": "kw-model"}, {"id": "kw-small"}])
    for model in kw.models:
        session.models.offer(model)  # usable and listed (as a models.json provider with a key)
    session.set_model(next(m for m in kw.models if m.id == "kw-model"), announce=False)
    return session


async def test_tab_completion_of_model_switches_at_once(tmp_path: Path) -> None:
    session = _kw_session(tmp_path)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys_for("/model kw-s"))
        view = app.completion_list
        await wait_until(pilot, lambda: view.is_open and [i.value for i in view.items] == ["kw/kw-small"])
        await pilot.press("tab")
        await wait_until(pilot, lambda: app.prompt_input.text.strip() == "/model kw/kw-small")
        await pilot.press("enter")
        await wait_until(pilot, lambda: session.model.id == "kw-small")
        await pilot.pause(0.1)
        assert not isinstance(app.screen, ModelPicker)
        assert "Switched to kw-small" in transcript_text(app)


async def test_a_unique_exact_id_switches_and_an_ambiguous_term_opens_the_picker(tmp_path: Path) -> None:
    session = _kw_session(tmp_path)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        # typed, not completed (Escape closes the completion list): pi matches case-insensitively
        await pilot.press(*keys_for("/model KW-SMALL"), "escape", "enter")
        await wait_until(pilot, lambda: session.model.id == "kw-small")
        assert not isinstance(app.screen, ModelPicker)
        await pilot.press(*keys_for("/model kw/"), "escape", "enter")  # no model id: the picker, filtered
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        picker = app.screen
        assert isinstance(picker, ModelPicker)
        assert [e.label for e in picker.shown] == ["kw-model", "kw-small"]
        for _ in "kw/":
            await pilot.press("backspace")
        await pilot.press(*keys_for("kw/kw-model"))
        await wait_until(pilot, lambda: [e.label for e in picker.shown][:1] == ["kw-model"])
        await pilot.press("enter")
        await wait_until(pilot, lambda: session.model.id == "kw-model")


def test_the_model_filter_matches_provider_slash_id(tmp_path: Path) -> None:
    session = _kw_session(tmp_path)
    entries = model_entries(session.available_models(), session.model)
    assert [e.label for e in filter_entries(entries, "kw/kw-small")] == ["kw-small"]
    assert [e.label for e in filter_entries(entries, "KW/KW-SMALL")] == ["kw-small"]
    # the exact provider/id ranks first, as an exact id does
    assert [e.label for e in filter_entries(entries, "kw/kw-model")][:1] == ["kw-model"]
    assert [e.label for e in filter_entries(entries, "small kw")] == ["kw-small"]  # pi: "opus anthropic"
