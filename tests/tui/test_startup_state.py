"""Start-up, before the session exists (found by a new-user run, issue 9): the footer said ``no model`` for the
2-6 s the session takes to build; it says the model is loading, and ``no model`` only when there is none."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from pi_tui.tui.widgets.footer import LOADING_TEXT

from .helpers import make_app, make_session, wait_until


def footer_text(app: Any) -> str:
    return app.footer.render().plain


class SlowFactory:
    """A session factory that blocks (in the app's thread) until ``release()``: a slow start-up."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.gate = threading.Event()
        self.called = threading.Event()

    def __call__(self) -> Any:
        self.called.set()
        self.gate.wait(20)
        return self.session

    def release(self) -> None:
        self.gate.set()


@pytest.mark.anyio
async def test_footer_says_loading_until_the_model_is_known(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        await pilot.pause(0.1)
        assert LOADING_TEXT in footer_text(app) and "no model" not in footer_text(app)
        factory.release()
        await wait_until(pilot, lambda: app.session_ready)
        await wait_until(pilot, lambda: "faux-1" in footer_text(app))
        assert LOADING_TEXT not in footer_text(app)


@pytest.mark.anyio
async def test_footer_stops_saying_loading_when_the_session_cannot_start() -> None:
    def broken() -> None:
        raise ValueError("Model not found: nope/nothing")

    app = make_app(None, session_factory=broken)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_error is not None)
        await pilot.pause(0.1)
        assert LOADING_TEXT not in footer_text(app) and "no model" in footer_text(app)
