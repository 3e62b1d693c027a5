"""``ctx.ui.add_autocomplete_provider`` in the real app (Pilot, faux provider): the issue_autocomplete example's
``#`` completions show in the editor's completion list and Tab inserts them; what the provider does not
recognise goes to the built-in completion (``/mo`` still offers ``/model``; a command is still inserted as
``/name ``); a provider that raises is one error naming the extension and the built-in completion goes on;
``/reload`` takes the provider away and puts it back."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.tui.helpers import make_app, make_session, settle, wait_until

from .conftest import errors, example


def values(app: Any) -> list[str]:
    return [item.value for item in app.completion_list.items]


@pytest.mark.anyio
async def test_issue_numbers_complete_after_a_hash_and_the_rest_is_built_in(tmp_path: Path) -> None:
    (tmp_path / ".pi-tui").mkdir()
    (tmp_path / ".pi-tui" / "issues.txt").write_text("#12 Crash on start\n#130 Footer wraps\n#7 Docs typo\n")
    session, _ = make_session(tmp_path, [], extension_paths=[example("issue_autocomplete")])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        stack = app.extensions_controller.components.providers
        await wait_until(pilot, lambda: stack.active)
        await pilot.press(*"see #1")
        await wait_until(pilot, lambda: values(app) == ["#12", "#130"])
        assert app.completion_list.items[0].description == "Crash on start"
        await pilot.press("down", "tab")
        assert app.prompt_input.text == "see #130"
        await wait_until(pilot, lambda: not app.completion_list.is_open)
        await pilot.press(*" and #foot")  # matched by title
        await wait_until(pilot, lambda: values(app) == ["#130"])
        await pilot.press("tab")
        assert app.prompt_input.text == "see #130 and #130"
        app.prompt_input.set_text("")
        await pilot.press(*"/mo")  # not the provider's: the built-in command completion
        await wait_until(pilot, lambda: "model" in values(app))
        while app.completion_list.selected_item.value != "model":
            await pilot.press("down")
        await pilot.press("tab")
        assert app.prompt_input.text == "/model "
        assert errors(session) == []


BROKEN = """
class Bad:
    def __init__(self, current):
        self.current = current
    def get_suggestions(self, lines, line, col, options):
        if "!" in lines[line][:col]:
            raise RuntimeError("provider bug")
        return self.current.get_suggestions(lines, line, col, options)

def activate(pi):
    pi.on("session_start", lambda event, ctx: ctx.ui.add_autocomplete_provider(Bad))
"""


@pytest.mark.anyio
async def test_a_failing_provider_is_one_error_and_the_built_in_completion_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "bad_provider.py"
    path.write_text(textwrap.dedent(BROKEN), encoding="utf-8")
    session, _ = make_session(tmp_path, [], extension_paths=[str(path)])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        stack = app.extensions_controller.components.providers
        await wait_until(pilot, lambda: stack.active)
        await pilot.press(*"/mo")
        await wait_until(pilot, lambda: "model" in values(app))  # delegated to the built-in
        app.prompt_input.set_text("")
        await pilot.press(*"hi!")
        await wait_until(pilot, lambda: len(errors(session)) == 1)
        assert "bad_provider" in errors(session)[0] and "ui.autocomplete" in errors(session)[0]
        assert "RuntimeError: provider bug" in errors(session)[0]
        assert not stack.active
        app.prompt_input.set_text("")
        await pilot.press(*"/mo")
        await wait_until(pilot, lambda: "model" in values(app))
        assert len(errors(session)) == 1


@pytest.mark.anyio
async def test_reload_takes_the_provider_back_and_gives_it_again(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [], extension_paths=[example("issue_autocomplete")])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        stack = app.extensions_controller.components.providers
        await wait_until(pilot, lambda: len(stack.specs) == 1)
        await pilot.press(*"/reload", "enter")
        await wait_until(pilot, lambda: any("Reloaded" in getattr(m, "text", "") for m in session.messages))
        assert len(stack.specs) == 1  # cleared on unload, registered again on session_start(reload)
        await pilot.press(*"#29")
        await wait_until(pilot, lambda: values(app) == ["#2983"])
