"""Opening a long session shows its end before the session is built (issue 15: a 10,000-message session on
screen within a second): the transcript shows the end of the file's branch (``SessionPreview``) while the session
factory still runs; keys are taken meanwhile and nothing typed is lost; once the session is attached its full
transcript replaces the preview, every message reachable, a scrolled-up reader still at the same place."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.coding.session.session_manager import SessionManager
from pi_tui.tui.controllers.session_preview import preview_items, preview_path
from tests.coding.session.helpers import assistant, user

from .helpers import make_app, make_session, transcript_text, wait_until
from .test_key_routing import keys_for


class SlowFactory:
    """A session factory that blocks (in the app's thread) until ``release()``."""

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


def _long_session(directory: Path, turns: int, same: bool = False, pad: int = 600) -> Path:
    """``turns`` prompts and replies naming their number (``pad`` more characters each: 300 turns are more than
    the preview reads); with ``same`` every one but the last reply is the same."""
    manager = SessionManager.create(str(directory), directory)
    for k in range(turns):
        last = k == turns - 1
        manager.append_message(user("the same question" if same else f"question MSG-{k:04d}"))
        manager.append_message(assistant(("the same answer\n\nwith more" if same and not last
                                          else f"answer MSG-{k:04d}\n\nsome more text for answer {k}") + " z" * (pad // 2)))
    path = manager.get_session_file()
    assert path is not None
    return path


def _app_for(tmp_path: Path, path: Path, reply: str = "new reply") -> tuple[Any, SlowFactory]:
    session, _ = make_session(tmp_path, [faux_assistant_message(reply)], session_path=str(path), no_session=False)
    factory = SlowFactory(session)
    app = make_app(None, session_factory=factory)
    app.startup.preview.locate = lambda: str(path)
    return app, factory


@pytest.mark.anyio
async def test_the_end_of_the_session_shows_before_it_is_built_and_typing_is_kept(tmp_path: Path) -> None:
    path = _long_session(tmp_path, 400)
    app, factory = _app_for(tmp_path, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, factory.called.is_set)
        await wait_until(pilot, lambda: "answer MSG-0399" in app.transcript.visible_text())
        assert not app.session_ready
        preview_count = len(app.transcript.items)
        assert 0 < preview_count < 800  # the end only
        await pilot.press(*keys_for("sent meanwhile"), "enter")
        await pilot.press(*keys_for("half typed"))
        await pilot.pause(0.05)
        assert "Pending: sent meanwhile" in app.queue_view.render().plain
        factory.release()
        await wait_until(pilot, lambda: "new reply" in transcript_text(app))
        await app.session.wait_for_idle()
        assert app.prompt_input.text == "half typed"
        text = transcript_text(app)
        assert all(f"answer MSG-{k:04d}" in text for k in range(400))  # every message, each once
        assert text.count("answer MSG-0399") == 1 and text.count("question MSG-0000") == 1
        assert text.index("answer MSG-0399") < text.index("sent meanwhile") < text.index("new reply")


@pytest.mark.anyio
async def test_a_reader_scrolled_up_in_the_preview_keeps_the_place(tmp_path: Path) -> None:
    """The item at the top line is found again counting from the end (every prompt and reply has the same text:
    counted from the start, the 10th-last of the preview would have been found as the 10th of the session)."""
    path = _long_session(tmp_path, 300, same=True)
    app, factory = _app_for(tmp_path, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "answer MSG-0299" in app.transcript.visible_text())
        tr = app.transcript
        for _ in range(3):
            await pilot.press("pageup")
            await pilot.pause(0.05)
        assert len(tr.items) < 600  # the end only
        before = tr.visible_text()
        assert "MSG-0299" not in before and not tr.following

        def last_message() -> int:  # notices the app adds come after the session's items
            return max(k for k, i in enumerate(tr.items) if type(i).__name__ in ("UserItem", "AssistantItem"))

        index, row = tr.item_at_line(int(tr.scroll_y))
        from_end = last_message() - index
        factory.release()
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.pause(0.2)
        assert sum(1 for i in tr.items if type(i).__name__ in ("UserItem", "AssistantItem")) == 600
        assert last_message() == 599 and tr.item_at_line(int(tr.scroll_y)) == (599 - from_end, row)
        # the same lines (the last one may now say that the app's notices arrived below)
        assert tr.visible_text().split("\n")[:-1] == before.split("\n")[:-1]


@pytest.mark.anyio
async def test_what_the_app_said_before_the_preview_stays_once(tmp_path: Path) -> None:
    path = _long_session(tmp_path, 50)
    app, factory = _app_for(tmp_path, path)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "answer MSG-0049" in app.transcript.visible_text())
        await pilot.press(*keys_for("/nonsense-command"), "enter")
        # held until the session and its extensions exist (an extension may register it), then refused once
        await wait_until(pilot, lambda: "Pending: /nonsense-command" in app.queue_view.render().plain)
        factory.release()
        await wait_until(pilot, lambda: app.session_ready)
        await wait_until(pilot, lambda: "nonsense-command" in transcript_text(app))
        await pilot.pause(0.1)
        text = transcript_text(app)
        assert text.count("answer MSG-0049") == 1 and text.count("answer MSG-0000") == 1
        assert text.count("nonsense-command") == 1 and text.index("answer MSG-0049") < text.index("nonsense-command")


def test_preview_items_are_the_end_of_the_full_items(tmp_path: Path) -> None:
    from pi_tui.tui.transcript_builder import items_for_session

    path = _long_session(tmp_path, 300)
    session, _ = make_session(tmp_path, [], session_path=str(path), no_session=False)
    full = [type(i).__name__ + ":" + i.plain_text() for i in items_for_session(session)]
    tail = [type(i).__name__ + ":" + i.plain_text() for i in preview_items(str(path))]
    assert tail and len(tail) < len(full)
    assert full[len(full) - len(tail):] == tail


def test_only_a_session_file_named_outright_is_previewed(tmp_path: Path) -> None:
    path = _long_session(tmp_path, 2)
    assert preview_path({"session_path": str(path)}, "/elsewhere") == str(path)
    assert preview_path({"session_path": path.name}, str(tmp_path)) == str(path)
    assert preview_path({"session_path": str(path), "no_session": True}, str(tmp_path)) is None
    assert preview_path({"session_path": "0193ab"}, str(tmp_path)) is None  # a partial id: the factory finds it
    assert preview_path({"continue_recent": False}, str(tmp_path)) is None


def test_continue_recent_previews_the_session_the_factory_continues(tmp_path: Path) -> None:
    """``-c``: the most recent session of the folder in the session dir (the CLI's, else settings'), print runs
    passed over when the app asks so; the session the factory then opens is that one."""
    import os

    older = _long_session(tmp_path, 2)
    newer = _long_session(tmp_path, 3)
    os.utime(older, (1_000, 1_000))
    options = {"continue_recent": True, "session_dir": str(tmp_path)}
    assert preview_path(options, str(tmp_path)) == str(newer)
    assert preview_path({"continue_recent": True}, str(tmp_path), settings_session_dir=str(tmp_path)) == str(newer)
    assert preview_path({**options, "no_session": True}, str(tmp_path)) is None
    assert preview_path({"continue_recent": True, "session_dir": str(tmp_path / "none")}, str(tmp_path)) is None
    assert preview_path({"session_path": str(tmp_path / "missing.jsonl")}, str(tmp_path)) is None
