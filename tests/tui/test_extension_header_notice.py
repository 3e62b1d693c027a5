"""An extension's header (``ctx.ui.set_header``) must not hide the offline-model notice: while the built-in
offline demo model answers, the notice (what it is, how to get a real model) stays as one row below the
custom header, goes when a real model is chosen, and the built-in header shows it again after
``set_header(None)``. Real app, real session on the offline model, Pilot."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.tui.helpers import make_app, make_session, settle, wait_until

HEADER_EXTENSION = """
def activate(pi):
    pi.on("session_start", lambda event, ctx: ctx.ui.set_header(lambda tui, theme: (lambda width: ["my header"])))
    pi.register_command("plain-header", lambda args, ctx: ctx.ui.set_header(None))
"""


def _extension(tmp_path: Path) -> str:
    path = tmp_path / "header_ext.py"
    path.write_text(textwrap.dedent(HEADER_EXTENSION), encoding="utf-8")
    return str(path)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_custom_header_keeps_the_offline_notice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    from pi_tui.coding.agent_session.factory import create_agent_session

    session = create_agent_session(str(tmp_path), no_session=True, extension_paths=[_extension(tmp_path)])
    assert session.is_offline_model
    app = make_app(session)
    slot = app.extensions_controller.parts.header_slot
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: slot.active)
        await settle(pilot)
        rows = slot.render().plain.split("\n")
        assert rows[0] == "my header"
        assert rows[1].startswith("Offline demo model · Ctrl+L picks a model")
        assert slot.size.height == 2  # one row each: the notice is cut to the width, never wrapped
        await pilot.press(*"/plain-header", "enter")
        await wait_until(pilot, lambda: not slot.active)
        await settle(pilot)
        assert app.header_widget.notice and "Offline demo model" in app.header_widget.render().plain


@pytest.mark.anyio
async def test_the_notice_row_goes_with_the_offline_model(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [], extension_paths=[_extension(tmp_path)])
    app = make_app(session)
    slot = app.extensions_controller.parts.header_slot
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: slot.active)
        assert slot.render().plain == "my header"  # a real model: no notice row
        app.header_widget.set_notice("Offline demo model · test")  # as update_offline_notice does
        await settle(pilot)
        assert slot.render().plain.split("\n") == ["my header", "Offline demo model · test"]
        assert slot.size.height == 2
        app.header_widget.set_notice(None)
        await settle(pilot)
        assert slot.render().plain == "my header" and slot.size.height == 1


