"""Nothing typed during start-up is lost (issue 9, tester2 run): a slash command that needs the session
(``/name``, ``/session``, ``/model``, ``/tree``), typed, picked in the F1 palette or run by its key while the
session was still being built, said "The session is still starting; try again in a moment." and was dropped; an
extension's command was refused as unknown (the extension was not loaded yet); Ctrl+P/Shift+Tab did nothing;
Alt+Up could not take back the pending prompts; quitting then lost them. Each is now held, shown as pending, and
run once the session is attached and its extensions are loaded, in the order typed."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.launch import say_unsent

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_key_routing import keys_for
from .test_startup_state import SlowFactory

pytestmark = pytest.mark.anyio

STILL_STARTING = "still starting"


async def _type(pilot: Any, text: str) -> None:
    await pilot.press(*keys_for(text), "enter")


async def test_a_session_command_typed_during_start_up_runs_once_the_session_is_there(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        await _type(pilot, "/name early name")
        await _type(pilot, "/session")
        await pilot.pause(0.1)
        shown = app.queue_view.render().plain
        assert "Pending: /name early name" in shown and "Pending: /session" in shown
        assert STILL_STARTING not in transcript_text(app)
        factory.release()
        await wait_until(pilot, lambda: session.session_name == "early name")
        await wait_until(pilot, lambda: "Name: early name" in transcript_text(app))  # /session ran after /name
        assert STILL_STARTING not in transcript_text(app)
        assert not app.queue_view.display


@pytest.mark.parametrize(("key", "label", "notice"), [
    ("ctrl+p", "Next model", "Only one model available"),
    ("shift+tab", "Cycle thinking level", "Current model does not support thinking"),
])
async def test_palette_picks_and_session_keys_during_start_up_are_held(tmp_path: Path, key: str, label: str,
                                                                       notice: str) -> None:
    """The F1 palette runs ``app.run_slash('/session')`` (and ``dispatch_action`` for its actions); Ctrl+P and
    Shift+Tab are keys whose actions need the session: all of them ran against no session and were lost."""
    session, _ = make_session(tmp_path, [])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        assert app.run_slash("/session")  # a palette pick
        await pilot.press(key)
        await pilot.pause(0.1)
        shown = app.queue_view.render().plain
        assert "Pending: /session" in shown and f"Pending: {label}" in shown
        factory.release()
        await wait_until(pilot, lambda: notice in transcript_text(app) and "Messages:" in transcript_text(app))
        assert STILL_STARTING not in transcript_text(app)


async def test_the_model_key_during_start_up_opens_the_picker_once_ready(tmp_path: Path) -> None:
    from pi_tui.tui.modals.model_picker import ModelPicker

    session, _ = make_session(tmp_path, [])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        await pilot.press("ctrl+l")
        await pilot.pause(0.1)
        assert "Pending: /model" in app.queue_view.render().plain
        factory.release()
        await wait_until(pilot, lambda: isinstance(app.screen, ModelPicker))
        assert STILL_STARTING not in transcript_text(app)


async def test_an_extension_command_typed_during_start_up_runs_once_it_is_loaded(tmp_path: Path) -> None:
    """Before the session (and its extensions) existed, ``/early`` was an unknown command: refused, although
    the extension registers it a moment later."""
    ext = tmp_path / "early_ext.py"
    ext.write_text("def activate(pi):\n"
                   "    pi.register_command('early', lambda args, ctx: pi.notify('early ran with ' + args))\n")
    session, _ = make_session(tmp_path, [], extension_paths=[str(ext)])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        await _type(pilot, "/early x1")
        await pilot.pause(0.1)
        assert "Pending: /early x1" in app.queue_view.render().plain
        factory.release()
        await wait_until(pilot, lambda: "early ran with x1" in transcript_text(app))
        assert "Unknown command" not in transcript_text(app)


async def test_a_prompt_typed_while_the_extensions_load_waits_for_them(tmp_path: Path) -> None:
    """The session is attached before its extensions load: a prompt sent in between passed their hooks by (an
    ``input`` handler, a permission gate). It is held until they are loaded."""
    ext = tmp_path / "input_ext.py"
    go = tmp_path / "go"
    ext.write_text("import asyncio, os\n"
                   "async def activate(pi):\n"
                   f"    while not os.path.exists({str(go)!r}):\n"
                   "        await asyncio.sleep(0.02)\n"
                   "    def on_input(event, ctx):\n"
                   "        return {'action': 'transform', 'text': 'seen by the extension: ' + event.text}\n"
                   "    pi.on('input', on_input)\n")
    session, _ = make_session(tmp_path, [faux_assistant_message("answered")], extension_paths=[str(ext)])
    app = make_app(session)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _type(pilot, "early prompt")
        await pilot.pause(0.2)
        assert "Pending: early prompt" in app.queue_view.render().plain
        go.write_text("")
        await wait_until(pilot, lambda: "answered" in transcript_text(app))
        users = [m for m in session.messages if getattr(m, "role", "") == "user"]
        assert [u.content[0].text for u in users] == ["seen by the extension: early prompt"]


async def test_alt_up_during_start_up_takes_the_pending_prompts_back(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        await _type(pilot, "first thought")
        await _type(pilot, "/session")
        await pilot.pause(0.1)
        await pilot.press("alt+up")
        await pilot.pause(0.1)
        assert app.prompt_input.text == "first thought\n\n/session"
        assert not app.queue_view.display
        factory.release()
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.2)
        assert not [m for m in session.messages if getattr(m, "role", "") == "user"]


async def test_quitting_before_the_session_exists_keeps_what_was_typed() -> None:
    """Ctrl+D while the session was still being built exited without a word about the pending prompt."""
    gate = threading.Event()

    def slow() -> Any:
        gate.wait(20)
        raise ValueError("never built")

    app = make_app(None, session_factory=slow)
    try:
        async with app.run_test(size=(100, 24)) as pilot:
            await pilot.pause(0.2)
            await _type(pilot, "keep this one")
            await pilot.pause(0.1)
            await pilot.press("ctrl+d")
            await wait_until(pilot, lambda: not app.is_running, limit=10)
    finally:
        gate.set()
    assert app.quit_controller.unsent_at_exit == ["keep this one"]


def test_what_was_never_sent_is_printed_after_exit(capsys: pytest.CaptureFixture[str]) -> None:
    say_unsent(["keep this one", "/session"])
    err = capsys.readouterr().err
    assert "not sent" in err and "• keep this one" in err and "• /session" in err
    say_unsent([])
    assert capsys.readouterr().err == ""
