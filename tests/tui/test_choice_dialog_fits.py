"""The lock and trust questions fit every terminal size: their choices and key hint are on screen (new-user
run, issue 9: at 60x16 the trust question ran off the bottom edge, its hint row was not visible)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.widgets import OptionList, Static

from pi_tui.tui.modals.choice_dialog import ChoiceDialog
from pi_tui.tui.modals.lock_choice import LockChoice
from pi_tui.tui.modals.trust import TrustChoiceModal

SIZES = [(60, 16), (60, 12), (80, 24), (120, 40), (200, 50)]


def _dialogs() -> list[tuple[str, Any]]:
    return [
        ("trust", lambda: TrustChoiceModal("/tmp/tester-proj", [
            "/tmp/tester-proj/.pi-tui/skills/greet/SKILL.md", "/tmp/tester-proj/.pi-tui/prompts/review.md"])),
        ("lock", lambda: LockChoice(
            "2026-12-01T13-01-57-452Z_01a231b2-7c4e-4d47-9e1a-2b1f6f0d9c3e.jsonl is being written by pi-tui "
            "(pid 4242, started 13:01) in another terminal.")),
    ]


@pytest.mark.anyio
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("name", "make"), _dialogs())
async def test_choices_and_hint_are_on_screen(size: tuple[int, int], name: str, make: Any) -> None:
    results: list[str | None] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(make(), results.append)

    app = Host()
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.1)
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        width, height = size
        options = dialog.query_one(OptionList)
        hint = dialog.query_one(f"#{name}-hint", Static)
        title = dialog.query_one(f"#{name}-title", Static)
        for widget in (options, hint, title):
            region = widget.region
            assert region.height >= 1 and region.y >= 0 and region.bottom <= height - 1, (widget, region)
        assert options.region.height >= options.option_count  # every choice has its row
        # the hint's last line is inside the border (at 60x12 its second line was under the bottom edge)
        assert hint.region.bottom <= dialog.query_one("Vertical").region.bottom - 1
        await pilot.press("down", "enter")
        await pilot.pause(0.05)
    assert results == [["once", "fork"][["trust", "lock"].index(name)]]
