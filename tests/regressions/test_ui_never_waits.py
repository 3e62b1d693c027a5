"""Blocking work stays off the UI's event loop (issue 9): keys typed meanwhile reach the editor at once.

``/copy`` ran clipboard tools (2 s timeouts each), ``/resume`` read every session file, ``/export`` rendered and
wrote the whole session, start-up built the
session and the footer ran ``git``, all on the event loop: the UI froze. Each case below blocks the slow part
until the test releases it and checks the order of things: the typed key is in the editor while the slow part
is still running (on the old code the key only arrived after it; the stubs give up after a few seconds so
that the old code fails instead of hanging).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from tests.tui.helpers import make_app, make_session, transcript_text, wait_until

from .typing_helpers import type_raw

SAFETY = 5.0  # seconds a stub waits for its release before giving up (only ever reached on the old code)


class Gate:
    """A slow operation the test controls: ``run()`` blocks (in whatever thread calls it) until ``release``."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.released = threading.Event()
        self.finished = threading.Event()

    def run(self) -> None:
        self.started.set()
        self.released.wait(SAFETY)
        self.finished.set()


async def key_arrives_while_blocked(pilot: Any, gate: Gate) -> None:
    """Type a key once the slow part runs; it must reach the editor before the slow part ends."""
    app = pilot.app
    await wait_until(pilot, gate.started.is_set)
    await type_raw(pilot, "z")
    await wait_until(pilot, lambda: app.prompt_input.text.endswith("z"))
    still_blocked = not gate.finished.is_set()
    gate.released.set()
    assert still_blocked, "the key was only taken after the slow operation ended"


@pytest.mark.anyio
async def test_copy_with_a_slow_clipboard_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()

    def slow_tool(text: str, timeout: float = 2.0) -> str | None:
        gate.run()
        return "pbcopy"

    monkeypatch.setattr("pi_tui.tui.clipboard.copy_with_tool", slow_tool)
    session, _ = make_session(tmp_path, [faux_assistant_message("copy me")])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_raw(pilot, "hi\r")
        await wait_until(pilot, lambda: "copy me" in transcript_text(app) and not app.working)
        await type_raw(pilot, "/copy\r")
        await key_arrives_while_blocked(pilot, gate)
        await wait_until(pilot, lambda: "Copied last response to clipboard (pbcopy)" in transcript_text(app))


@pytest.mark.anyio
async def test_resume_with_a_slow_session_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()

    def slow_listing(directory: Path, cwd: str | None = None) -> list[Any]:
        gate.run()
        return []

    monkeypatch.setattr("pi_tui.coding.session.listing.list_sessions_in_dir", slow_listing)
    session, _ = make_session(tmp_path, [])
    session.session_manager.session_dir = tmp_path / "sessions"
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_raw(pilot, "/resume\r")
        await key_arrives_while_blocked(pilot, gate)
        from pi_tui.tui.modals.resume_picker import ResumePicker  # opens, empty: Tab would list every folder

        await wait_until(pilot, lambda: isinstance(app.screen, ResumePicker))
        # the screen is current before its widgets are composed (seen under load): query, do not query_one
        await wait_until(pilot, lambda: any(o.option_count == 1 for o in app.screen.query("OptionList")))
        assert "No sessions in this folder" in str(app.screen.query_one("OptionList").get_option_at_index(0).prompt)


@pytest.mark.anyio
async def test_start_up_with_a_slow_session_build(tmp_path: Path) -> None:
    gate = Gate()
    session, _ = make_session(tmp_path, [])

    def slow_factory() -> Any:
        gate.run()
        return session

    app = make_app(None, session_factory=slow_factory)
    async with app.run_test(size=(100, 30)) as pilot:
        await key_arrives_while_blocked(pilot, gate)
        await wait_until(pilot, lambda: app.session_ready)
        assert app.prompt_input.text == "z"


@pytest.mark.anyio
async def test_footer_with_a_slow_git(tmp_path: Path) -> None:
    gate = Gate()

    def slow_branch(cwd: str) -> str | None:
        gate.run()
        return "feature"

    session, _ = make_session(tmp_path, [])
    app = make_app(session, branch=slow_branch)
    async with app.run_test(size=(100, 30)) as pilot:
        await key_arrives_while_blocked(pilot, gate)
        await wait_until(pilot, lambda: app.footer.data.branch == "feature")


@pytest.mark.anyio
async def test_export_of_a_long_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate()
    session, _ = make_session(tmp_path, [])

    def slow_export(path: str | None = None, theme: str | None = None) -> str:
        gate.run()
        return str(tmp_path / "out.html")

    monkeypatch.setattr(session, "export_html", slow_export)
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await type_raw(pilot, "/export\r")
        await key_arrives_while_blocked(pilot, gate)
        await wait_until(pilot, lambda: "Session exported to:" in transcript_text(app))
