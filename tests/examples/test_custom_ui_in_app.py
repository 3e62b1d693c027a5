"""Custom UI from extensions in the real app (Pilot; pi 0.73 docs/extensions.md "Custom UI"): the
custom_header and custom_footer examples replace the header and footer and give them back; the working row
takes an extension's text, frames or is hidden; tool expansion and pastes go through ``ctx.ui``; a factory or a
render that raises is one error naming the extension and the slot, and the built-in part stays."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.widgets.status_line import WORKING
from tests.tui.helpers import make_app, make_session, settle, wait_until

from .conftest import errors, example


def _extension(tmp_path: Path, body: str, name: str = "ui_ext.py") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return str(path)


def shown(widget: Any) -> bool:
    """The widget takes part in the layout now (its CSS display, classes included)."""
    return bool(widget.styles.display != "none")


@pytest.mark.anyio
async def test_the_header_and_footer_examples_replace_and_restore_the_built_in_parts(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("done")],
                              extension_paths=[example("custom_header"), example("custom_footer")])
    app = make_app(session)
    parts = app.extensions_controller.parts
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: parts.header_slot.active)
        await settle(pilot)
        assert not shown(app.header_widget) and shown(parts.header_slot)
        assert "pi-tui in " + str(tmp_path) in parts.header_slot.render().plain
        await pilot.press(*"/footer", "enter")
        await wait_until(pilot, lambda: parts.footer_slot.active)
        await settle(pilot)
        line = parts.footer_slot.render().plain
        assert line.startswith("↑0 ↓0 $0.000") and line.endswith("faux-1 (main)")
        assert not shown(app.footer)
        await pilot.press(*"hi", "enter")
        await wait_until(pilot, lambda: not app.working and session.messages[-1].role == "assistant")
        await settle(pilot)
        assert parts.footer_slot.render().plain.startswith("↑")  # rendered again after the reply
        assert parts.footer_slot.render().plain != line
        await pilot.press(*"/footer", "enter")
        await wait_until(pilot, lambda: not parts.footer_slot.active)
        await pilot.press(*"/builtin-header", "enter")
        await wait_until(pilot, lambda: not parts.header_slot.active)
        await settle(pilot)
        assert shown(app.header_widget) and shown(app.footer) and not shown(parts.footer_slot)
        assert errors(session) == []


@pytest.mark.anyio
async def test_a_raising_render_or_factory_is_one_error_and_the_built_in_part_stays(tmp_path: Path) -> None:
    body = """
    calls = {"n": 0}

    class Broken:
        def render(self, width):
            calls["n"] += 1
            raise RuntimeError("footer bug")

    def bad_factory(tui, theme):
        raise ValueError("header bug")

    def activate(pi):
        pi.register_command("broken-footer", lambda a, ctx: ctx.ui.set_footer(lambda tui, theme, data: Broken()))
        pi.register_command("broken-header", lambda a, ctx: ctx.ui.set_header(bad_factory))
        pi.register_command("not-lines", lambda a, ctx: ctx.ui.set_header(lambda tui, theme: (lambda w: 42)))
        pi.register_command("calls", lambda a, ctx: ctx.ui.notify(str(calls["n"])))
    """
    session, _ = make_session(tmp_path, [], extension_paths=[_extension(tmp_path, body, "breaks.py")])
    app = make_app(session)
    parts = app.extensions_controller.parts
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: session.commands.get("broken-footer") is not None)
        await pilot.press(*"/broken-footer", "enter")
        await wait_until(pilot, lambda: len(errors(session)) == 1)
        await settle(pilot)
        assert "breaks" in errors(session)[0] and "ui.footer" in errors(session)[0]
        assert "RuntimeError: footer bug" in errors(session)[0]
        assert not parts.footer_slot.active and shown(app.footer) and not shown(parts.footer_slot)
        app.refresh_footer()  # the footer is drawn again: the broken component is gone, no second error
        await settle(pilot)
        assert len(errors(session)) == 1
        await pilot.press(*"/broken-header", "enter")
        await wait_until(pilot, lambda: len(errors(session)) == 2)
        assert "ui.header" in errors(session)[1] and "ValueError: header bug" in errors(session)[1]
        await pilot.press(*"/not-lines", "enter")
        await wait_until(pilot, lambda: len(errors(session)) == 3)
        assert "render(width) must return a list of str" in errors(session)[2]
        await settle(pilot)
        assert shown(app.header_widget) and not parts.header_slot.active
        await pilot.press(*"hello", "enter")  # the app goes on
        await wait_until(pilot, lambda: not app.working)


ROWS_EXTENSION = """
def activate(pi):
    def start(event, ctx):
        mode = pi.get_flag("row") or ""
        if mode == "text":
            ctx.ui.set_working_message("Reading the code...")
        elif mode == "dots":
            ctx.ui.set_working_indicator({"frames": ["\\x1b[31m●\\x1b[39m"], "intervalMs": 200})
        elif mode == "hidden":
            ctx.ui.set_working_visible(False)

    pi.register_flag("row", "working row mode", type="string", default="")
    pi.on("agent_start", start)
    pi.register_command("expand", lambda a, ctx: ctx.ui.set_tools_expanded(a == "on"))
    pi.register_command("expanded", lambda a, ctx: pi.notify(f"expanded={ctx.ui.get_tools_expanded()}"))
    pi.register_command("paste", lambda a, ctx: ctx.ui.paste_to_editor("\\n".join(f"line {i}" for i in range(12))))
"""


@pytest.mark.anyio
@pytest.mark.parametrize(("mode", "expect"), [("text", "Reading the code..."), ("dots", WORKING), ("hidden", None)])
async def test_the_working_row_tool_expansion_and_pastes(tmp_path: Path, mode: str, expect: str | None) -> None:
    path = _extension(tmp_path, ROWS_EXTENSION, "rows.py")
    session, _faux = make_session(tmp_path, [faux_assistant_message("a long answer " * 40)],
                                  tokens_per_second=200, extension_paths=[path], extension_flags=[f"--row={mode}"])
    app = make_app(session, spin=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: session.commands.get("expand") is not None)
        await pilot.press(*"go", "enter")
        await wait_until(pilot, lambda: app.working)
        await pilot.pause(0.05)
        line = app.status_line
        if expect is None:
            assert not line.display and line.message == ""
        else:
            assert line.display and line.message == expect
        if mode == "dots":
            assert line.render().plain.startswith("● ") and line.working_interval == 0.2
        await wait_until(pilot, lambda: not app.working, limit=30)
        if mode != "text":
            return
        await pilot.press(*"/expand on", "enter")
        await wait_until(pilot, lambda: app.ctx.expand_tools)
        await pilot.press(*"/expanded", "enter")
        await wait_until(pilot, lambda: any(getattr(m, "text", "") == "expanded=True" for m in session.messages))
        await pilot.press(*"/paste", "enter")
        await wait_until(pilot, lambda: app.prompt_input.text.startswith("[paste #1 +12 lines]"))
        assert app.prompt_input.expanded_text().endswith("line 11")
