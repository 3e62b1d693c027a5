"""Keys typed while a /tree jump is carried out are neither lost nor merged out of order (new-user run, issue 9's
class "nothing the user typed is lost": the chosen user message's text reached the editor about 1 s late, after
what the user had typed, and ``steer now/tree`` was sent; keys typed right after Enter went into the closing
tree's search and vanished). The editor text is set first; what was typed meanwhile follows it, in order."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual import events

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.modals.session_tree import SessionTreeScreen

from .helpers import make_app, make_session, wait_until
from .test_tree_screen import _open_tree, _prompt, _user_ids

pytestmark = pytest.mark.anyio


def _slow_navigation(session: Any) -> asyncio.Event:
    """Navigation waits for the returned event (a slow disk, a big transcript); no summary question."""
    gate = asyncio.Event()
    original = session.navigate_tree

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await original(*args, **kwargs)

    session.navigate_tree = slow
    session.branch_entries_to_summarize = lambda _entry_id: 0
    return gate


@pytest.mark.parametrize("when", ["queued behind enter", "after the tree closed"])
async def test_typing_during_a_tree_jump_follows_the_editor_text(tmp_path: Path, when: str) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("answer one"), faux_assistant_message("answer two")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "first question")
        await _prompt(pilot, "second question")
        gate = _slow_navigation(session)
        screen = await _open_tree(pilot)
        screen._move_to(_user_ids(session)["second question"])
        await pilot.pause()
        if when == "queued behind enter":
            await pilot.press("enter", *"steer now")  # in the tree's queue before it handles Enter
            await wait_until(pilot, lambda: not isinstance(app.screen, SessionTreeScreen))
        else:
            await pilot.press("enter")
            await wait_until(pilot, lambda: not isinstance(app.screen, SessionTreeScreen))
            await pilot.press(*"steer now")
        await pilot.pause(0.1)
        gate.set()
        await wait_until(pilot, lambda: "second question" in app.prompt_input.text and "now" in app.prompt_input.text)
        await pilot.pause(0.1)
        assert app.prompt_input.text == "second questionsteer now"
        assert app.prompt_input.cursor_location == app.prompt_input.document.end


async def test_typing_while_a_fork_is_made_follows_the_forked_text(tmp_path: Path) -> None:
    """The sibling in /fork: its text replaced whatever was typed while the new file was written."""
    from pi_tui.tui.modals.fork_picker import ForkPicker

    session, _ = make_session(tmp_path, [faux_assistant_message("answer one"), faux_assistant_message("answer two")])
    gate = asyncio.Event()
    original = session.fork

    async def slow_fork(*args: Any, **kwargs: Any) -> Any:
        await gate.wait()
        return await original(*args, **kwargs)

    session.fork = slow_fork
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "first question")
        await _prompt(pilot, "second question")
        app.prompt_input.set_text("/fork")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ForkPicker))
        await pilot.press("enter")  # the newest: "second question"
        await wait_until(pilot, lambda: not isinstance(app.screen, ForkPicker))
        await pilot.press(*" again")
        await pilot.pause(0.1)
        gate.set()
        await wait_until(pilot, lambda: app.prompt_input.text.endswith("again") and "second" in app.prompt_input.text)
        assert app.prompt_input.text == "second question again"


async def test_keys_queued_behind_a_pickers_enter_do_not_change_the_choice(tmp_path: Path) -> None:
    """Pickers (``FuzzyPicker``: /fork, /model, ...): Textual's Input ran its Enter binding only after the keys
    typed behind it had reached the filter, so ``Up Enter again`` filtered the list to nothing and chose
    nothing (or another entry); and the keys went into the closing picker. Enter now chooses at once, in key
    order, and /fork hands the keys behind it to the editor, after the forked text."""
    from pi_tui.tui.modals.fork_picker import ForkPicker

    session, _ = make_session(tmp_path, [faux_assistant_message("answer one"), faux_assistant_message("answer two")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "first question")
        await _prompt(pilot, "second question")
        app.prompt_input.set_text("/fork")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ForkPicker))
        fork_picker = app.screen
        assert isinstance(fork_picker, ForkPicker)
        burst = [("up", None), ("enter", "\r"), *((("space" if c == " " else c), c) for c in " again")]
        for key, character in burst:  # one burst, as a terminal delivers it: all queued before any is handled
            app.post_message(events.Key(key, character))
        await pilot.pause(0.5)
        picker = app.screen
        assert not isinstance(picker, ForkPicker), picker.query_one("#picker-filter").value  # type: ignore[attr-defined]
        await pilot.pause(0.5)
        assert app.prompt_input.text == "first question again", (app.prompt_input.text, fork_picker.late_keys)
