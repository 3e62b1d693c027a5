"""``/model nonexistent`` opened an empty picker with no message (found by a new-user run, issue 9). pi 0.73's
model selector says ``No matching models``; the pickers say so for a filter that matches nothing, and Enter on it
picks nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from pi_tui.tui.modals.model_picker import ModelPicker

from .helpers import make_app, make_session, wait_until
from .test_key_routing import keys_for


@pytest.mark.anyio
async def test_model_filter_matching_nothing_says_so(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys_for("/model nonexistent"), "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        await pilot.pause(0.1)
        picker = app.screen
        assert isinstance(picker, ModelPicker)
        options = picker.query_one(OptionList)
        assert options.option_count == 1
        option = options.get_option_at_index(0)
        assert "No matching models" in str(option.prompt) and option.disabled
        await pilot.press("enter")  # nothing to pick: the picker stays, the model is unchanged
        await pilot.pause(0.1)
        assert app.screen is picker and session.model.id == "faux-1"
        for _ in range("nonexistent".__len__()):
            await pilot.press("backspace")
        await pilot.press(*keys_for("faux"))
        await wait_until(pilot, lambda: options.option_count == 1 and not options.get_option_at_index(0).disabled)
        assert "faux-1" in str(options.get_option_at_index(0).prompt)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ModelPicker))
