"""Snapshots: an extension's header and footer in place of the built-in ones (``ctx.ui.set_header`` /
``set_footer``), and the app after a footer whose render raised (the built-in footer stays, one error line)."""

from __future__ import annotations

from typing import Any

from pi_tui.coding.agent_session.factory import create_agent_session
from tests.tui.helpers import SNAPSHOT_CWD, make_app, settle, snapshot_session, wait_until

from .extension_scenarios import _extension
from .scenarios import SIZE, Scenario, _type

CUSTOM_UI_EXTENSION = """
class Footer:
    def __init__(self, theme, data):
        self.theme, self.data = theme, data

    def render(self, width):
        left = "● custom footer"
        right = f"branch {self.data.get_git_branch()} · {len(self.data.get_extension_statuses())} status"
        pad = " " * max(1, width - len(left) - len(right))
        return [self.theme.fg("accent", left) + pad + self.theme.fg("dim", right)]

def activate(pi):
    def start(event, ctx):
        ctx.ui.set_status("mode", "plan")
        ctx.ui.set_header(lambda tui, theme: (lambda width: [theme.fg("accent", "▌ my header ▐"),
                                                             theme.fg("muted", "  made by an extension")]))
        ctx.ui.set_footer(lambda tui, theme, data: Footer(theme, data))

    pi.on("session_start", start)
"""

BROKEN_FOOTER_EXTENSION = """
class Broken:
    def render(self, width):
        raise RuntimeError("footer bug")

def activate(pi):
    pi.register_command("broken", lambda args, ctx: ctx.ui.set_footer(lambda tui, theme, data: Broken()))
"""


def build_custom_header_and_footer() -> Scenario:
    session, _ = snapshot_session([], extension_paths=[_extension("custom_ui.py", CUSTOM_UI_EXTENSION)])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        parts = app.extensions_controller.parts
        await wait_until(pilot, lambda: parts.header_slot.active and parts.footer_slot.active)
        await pilot.pause(0.1)

    return app, drive, SIZE


def build_broken_footer() -> Scenario:
    session, _ = snapshot_session([], extension_paths=[_extension("broken_footer.py", BROKEN_FOOTER_EXTENSION)])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: session.commands.get("broken") is not None)
        await _type(pilot, "/broken")
        await wait_until(pilot, lambda: any(getattr(m, "level", "") == "error" for m in session.messages))
        await settle(pilot)

    return app, drive, SIZE


def test_extension_header_and_footer(snap_compare: Any) -> None:
    app, drive, size = build_custom_header_and_footer()
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_extension_footer_that_raises_keeps_the_built_in_footer(snap_compare: Any) -> None:
    app, drive, size = build_broken_footer()
    assert snap_compare(app, run_before=drive, terminal_size=size)


OFFLINE_HEADER_EXTENSION = """
def activate(pi):
    pi.on("session_start", lambda event, ctx: ctx.ui.set_header(
        lambda tui, theme: (lambda width: [theme.fg("accent", "▌ my header ▐")])))
"""


def build_custom_header_on_the_offline_model() -> Scenario:
    """A custom header while the offline demo model answers: the offline notice stays below it."""
    SNAPSHOT_CWD.mkdir(parents=True, exist_ok=True)
    session = create_agent_session(str(SNAPSHOT_CWD), no_session=True,
                                   extension_paths=[_extension("offline_header.py", OFFLINE_HEADER_EXTENSION)])
    assert session.is_offline_model
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await wait_until(pilot, lambda: app.extensions_controller.parts.header_slot.active)
        await settle(pilot)

    return app, drive, SIZE


def test_extension_header_keeps_the_offline_notice(snap_compare: Any) -> None:
    app, drive, size = build_custom_header_on_the_offline_model()
    assert snap_compare(app, run_before=drive, terminal_size=size)
