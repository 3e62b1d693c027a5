"""Start-up, before the session exists (found by a new-user run, issue 9): the footer said ``no model`` for the
2-6 s the session takes to build (it says the model is loading, and ``no model`` only when there is none), and
Enter in that time lost the prompt (it is held, shown as pending and sent once the session is ready)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.widgets.footer import LOADING_TEXT

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_key_routing import keys_for


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


@pytest.mark.anyio
async def test_enter_before_the_session_exists_queues_the_prompt(tmp_path: Path) -> None:
    """Enter in the first seconds (the session is still being built) used to say "try again in a moment";
    the prompt is held, shown as pending, and sent once the session is ready; a second one steers its run."""
    session, _ = make_session(tmp_path, [faux_assistant_message("first answer")])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        await pilot.press(*keys_for("hello there"), "enter")
        await pilot.press(*keys_for("and then this"), "enter")
        await pilot.pause(0.1)
        assert app.prompt_input.text == ""
        shown = app.queue_view.render().plain
        assert "Pending: hello there" in shown and "Pending: and then this" in shown
        assert "sent once the session is ready" in shown
        assert "try again" not in transcript_text(app)
        factory.release()
        await wait_until(pilot, lambda: "first answer" in transcript_text(app))
        await session.wait_for_idle()
        users = [m.content for m in session.messages if getattr(m, "role", "") == "user"]
        assert [u if isinstance(u, str) else u[0].text for u in users] == ["hello there", "and then this"]
        text = transcript_text(app)
        # the second one was typed while the first was (to be) sent: it steers that run, as when typed live
        assert text.index("hello there") < text.index("and then this") < text.index("first answer")
        assert not app.queue_view.display


@pytest.mark.anyio
async def test_prompts_typed_before_a_failed_start_go_back_to_the_editor() -> None:
    gate = threading.Event()

    def broken() -> None:
        gate.wait(20)
        raise ValueError("Model not found: nope/nothing")

    app = make_app(None, session_factory=broken)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause(0.2)
        await pilot.press(*keys_for("keep me"), "enter")
        await pilot.pause(0.1)
        assert "Pending: keep me" in app.queue_view.render().plain
        gate.set()
        await wait_until(pilot, lambda: app.session_error is not None)
        await pilot.pause(0.1)
        assert app.prompt_input.text == "keep me" and not app.queue_view.display


@pytest.mark.anyio
async def test_type_ahead_from_before_the_hold_is_submitted_and_kept(tmp_path: Path) -> None:
    """Keys typed before the CLI held the terminal (``early_input``) arrive cooked: each line is submitted
    (held until the session is ready), the unfinished rest is in the editor."""
    session, _ = make_session(tmp_path, [faux_assistant_message("typed-ahead answer")])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    app.typed_ahead = "typed before launch\nhalf a"
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, lambda: "Pending: typed before launch" in app.queue_view.render().plain)
        assert app.prompt_input.text == "half a"
        factory.release()
        await wait_until(pilot, lambda: "typed-ahead answer" in transcript_text(app))
        assert app.prompt_input.text == "half a"


@pytest.mark.anyio
@pytest.mark.parametrize("typed", ["/exprot", "/hotkeys"])
async def test_a_slash_command_typed_during_start_up_is_not_lost(tmp_path: Path, typed: str) -> None:
    """New-user run (issue 9): ``/exprot`` Enter while the footer said 'loading model…' left an empty editor and
    no warning: what the app said before the session existed was wiped when the transcript was rebuilt."""
    session, _ = make_session(tmp_path, [])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        await pilot.pause(0.1)
        app.prompt_input.insert(typed)
        await pilot.press("enter")
        await pilot.pause(0.3)
        factory.release()
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.3)
        text = transcript_text(app)
        if typed == "/exprot":
            assert "Unknown command: /exprot" in text
            assert app.prompt_input.text == "/exprot"
        else:
            assert "/hotkeys" in text or "Ctrl" in text


@pytest.mark.anyio
async def test_the_first_frame_says_loading_not_no_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """New-user run #32: the first frame said ``no model`` until the app's first footer refresh, which a start-up
    that keeps the event loop busy (a long session opened) put off for seconds."""
    from pi_tui.tui.app import PiApp

    monkeypatch.setattr(PiApp, "refresh_footer", lambda self: None)  # the refresh that comes late
    session, _ = make_session(tmp_path, [])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        assert LOADING_TEXT in footer_text(app) and "no model" not in footer_text(app)
        factory.release()
