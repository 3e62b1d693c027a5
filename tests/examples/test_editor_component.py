"""``ctx.ui.set_editor_component`` in the real app (Pilot, faux provider): the vim_mode example edits through
the built-in editor (normal/insert modes, its label on the editor's border, Enter sends, Esc in normal mode
still reaches the app), ``/vim`` and ``/reload`` give the built-in editor back; a component that raises is one
error naming the extension and the built-in editor is back (the key still typed)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text

from pi_tui.ai.providers.faux import faux_assistant_message
from tests.tui.helpers import make_app, make_session, settle, wait_until

from .conftest import errors, example, role


def label(app: Any) -> str:
    subtitle = app.prompt_input.border_subtitle  # Textual keeps it as markup
    return "" if not subtitle else Text.from_markup(str(subtitle)).plain


@pytest.mark.anyio
async def test_vim_mode_edits_and_sends_through_the_built_in_editor(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("done")], extension_paths=[example("vim_mode")])
    app = make_app(session)
    host = app.extensions_controller.components.editor
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: host.active)
        assert label(app) == "-- INSERT --"
        await pilot.press(*"hello world")
        await pilot.press("escape")  # insert -> normal: not an abort, nothing typed
        await pilot.pause()
        assert label(app) == "-- NORMAL --" and app.prompt_input.text == "hello world"
        await pilot.press("0", "x", "w", "x")  # line start, delete 'h', next word, delete 'w'
        assert app.prompt_input.text == "ello orld"
        await pilot.press("q", "z")  # unbound in normal mode: not typed
        assert app.prompt_input.text == "ello orld"
        await pilot.press("I", *"Y")
        assert app.prompt_input.text == "Yello orld" and label(app) == "-- INSERT --"
        await pilot.press("enter")
        await wait_until(pilot, lambda: not app.working and len(role(session, "assistant")) == 1)
        assert role(session, "user")[0].content[0].text == "Yello orld"
        await pilot.press(*"/vim", "enter")
        await wait_until(pilot, lambda: not host.active)
        assert app.prompt_input.key_filter is None and label(app) == ""
        await pilot.press("escape", *"ab")  # the built-in editor alone: typed as usual
        await wait_until(pilot, lambda: app.prompt_input.text == "ab")
        assert errors(session) == []


@pytest.mark.anyio
async def test_reload_takes_the_editor_component_back(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [], extension_paths=[example("vim_mode")])
    app = make_app(session)
    host = app.extensions_controller.components.editor
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: host.active)
        first = host.component
        await pilot.press(*"/reload", "enter")
        await wait_until(pilot, lambda: host.active and host.component is not first)
        assert label(app) == "-- INSERT --"


BROKEN = """
from pi_tui.coding.extensions.ui_components import CustomEditor

class Broken(CustomEditor):
    def handle_input(self, key):
        if key == "z":
            raise RuntimeError("editor bug")
        return False

def activate(pi):
    pi.on("session_start", lambda event, ctx: ctx.ui.set_editor_component(Broken))
    pi.register_command("bad-factory", lambda a, ctx: ctx.ui.set_editor_component(lambda tui, theme, kb: 1 / 0))
"""


@pytest.mark.anyio
async def test_a_failing_editor_component_is_one_error_and_the_built_in_editor_is_back(tmp_path: Path) -> None:
    path = tmp_path / "broken_editor.py"
    path.write_text(textwrap.dedent(BROKEN), encoding="utf-8")
    session, _ = make_session(tmp_path, [], extension_paths=[str(path)])
    app = make_app(session)
    host = app.extensions_controller.components.editor
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: host.active)
        await pilot.press(*"abz", "z")
        await wait_until(pilot, lambda: len(errors(session)) == 1)
        assert "broken_editor" in errors(session)[0] and "ui.editor" in errors(session)[0]
        assert "RuntimeError: editor bug" in errors(session)[0]
        assert not host.active and app.prompt_input.key_filter is None
        assert app.prompt_input.text == "abzz"  # the failing key and the next reached the built-in editor
        app.prompt_input.set_text("")
        await pilot.press(*"/bad-factory", "enter")
        await wait_until(pilot, lambda: len(errors(session)) == 2)
        assert "ZeroDivisionError" in errors(session)[1] and not host.active
