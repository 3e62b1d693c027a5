"""The app title built from a session name holds no control sequence (pi 1.x 1.5.0: "terminal titles containing
control characters being able to inject terminal escape sequences")."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.tui.session_title import app_title

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio

EVIL = "fix \x1b]0;PWNED\x07bug\x1b[2J\nnext\x9b31m"


def test_app_title_cleans_the_name() -> None:
    title = app_title(EVIL, "/home/u/project")
    assert title == "π - fix bug next - project"
    assert app_title(None, "/home/u/project/") == "π - project"
    assert app_title("\x1b]0;x\x07", "/") == "π - /"  # nothing visible left: no empty name part


async def test_a_session_named_with_escapes_gives_a_clean_title(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [], no_session=False)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        session.set_session_name(EVIL)
        app.update_title()
        assert "\x1b" not in app.title and "\x07" not in app.title and "\x9b" not in app.title
        assert "PWNED" not in app.title and "fix bug" in app.title
