"""``ctx.ui.custom`` in the real app (Pilot, faux provider): the quick_pick example's component takes the
keys and its ``done(value)`` is what ``custom`` returns (at the bottom, or floating with ``overlay``); Esc
cancels with None; a component whose factory, render or key handler raises is one error naming the
extension, the screen closes with None and the editor is back."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from pi_tui.tui.extension_custom import CustomComponentScreen
from tests.tui.helpers import make_app, make_session, settle, wait_until

from .conftest import errors, example


@pytest.mark.anyio
@pytest.mark.parametrize("overlay", [False, True])
async def test_quick_pick_returns_the_chosen_value(tmp_path: Path, overlay: bool) -> None:
    session, _ = make_session(tmp_path, [], extension_paths=[example("quick_pick")])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: session.commands.get("pick") is not None)
        await pilot.press(*("/pick overlay" if overlay else "/pick"), "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CustomComponentScreen))
        screen = app.screen
        assert isinstance(screen, CustomComponentScreen) and screen.has_class("-overlay") is overlay
        assert "› Fix a bug" in screen.view.render().plain
        await pilot.press("down", "down")
        assert "› Refactor" in screen.view.render().plain
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.prompt_input.text == "Refactor, keeping behaviour: ")
        assert not isinstance(app.screen, CustomComponentScreen)
        await pilot.press(*"x")  # the editor has the keys again
        assert app.prompt_input.text.endswith(": x")
        app.prompt_input.set_text("")
        await pilot.press(*"/pick", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CustomComponentScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, CustomComponentScreen))
        await settle(pilot)
        assert errors(session) == []


BROKEN = """
class Bad:
    def __init__(self, where):
        self.where = where
    def render(self, width):
        if self.where == "render":
            raise RuntimeError("render bug")
        return ["press a key"]
    def handle_input(self, key):
        raise RuntimeError("key bug")

def activate(pi):
    async def run(args, ctx):
        def factory(tui, theme, keybindings, done):
            if args == "factory":
                raise ValueError("factory bug")
            return Bad(args)
        value = await ctx.ui.custom(factory)
        ctx.ui.set_editor_text(f"result={value!r}")
    pi.register_command("bad", run)
"""


@pytest.mark.anyio
@pytest.mark.parametrize(("where", "message"), [("factory", "ValueError: factory bug"),
                                                ("render", "RuntimeError: render bug"),
                                                ("key", "RuntimeError: key bug")])
async def test_a_failing_component_is_one_error_and_returns_none(tmp_path: Path, where: str, message: str) -> None:
    path = tmp_path / "bad_custom.py"
    path.write_text(textwrap.dedent(BROKEN), encoding="utf-8")
    session, _ = make_session(tmp_path, [], extension_paths=[str(path)])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: session.commands.get("bad") is not None)
        await pilot.press(*f"/bad {where}", "enter")
        if where == "key":
            await wait_until(pilot, lambda: isinstance(app.screen, CustomComponentScreen))
            await pilot.press("a")
        await wait_until(pilot, lambda: app.prompt_input.text == "result=None")
        assert not isinstance(app.screen, CustomComponentScreen)
        assert len(errors(session)) == 1
        assert "bad_custom" in errors(session)[0] and "ui.custom" in errors(session)[0]
        assert message in errors(session)[0]
