"""``/tree`` in the app (Pilot, a real AgentSession on the faux provider): the screen shows the whole tree,
filters and search follow pi, Enter on an earlier user message moves the leaf to its parent and puts the text
in the editor, the next prompt makes a branch, the branch summary is offered and written, labels are set,
changed and cleared from the screen (Shift+L, remappable) and shown in the transcript."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.coding.session.entries import BranchSummaryEntry, MessageEntry
from pi_tui.tui.keymap import Keymap
from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker
from pi_tui.tui.modals.session_tree import SessionTreeScreen
from pi_tui.tui.modals.text_prompt import TextPromptModal

from .helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio


def _user_ids(session: Any) -> dict[str, str]:
    out = {}
    for entry in session.session_manager.get_entries():
        if isinstance(entry, MessageEntry) and entry.message.role == "user":
            out["".join(b.text for b in entry.message.content)] = entry.id
    return out


async def _prompt(pilot: Any, text: str) -> None:
    app = pilot.app
    app.prompt_input.set_text(text)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not app.working and not app.session.is_streaming)
    await app.session.wait_for_idle()
    await pilot.pause(0.05)


async def _open_tree(pilot: Any) -> SessionTreeScreen:
    app = pilot.app
    app.prompt_input.set_text("/tree")
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, SessionTreeScreen))
    await pilot.pause(0.05)
    screen = app.screen
    assert isinstance(screen, SessionTreeScreen)
    return screen


def _lines(screen: SessionTreeScreen) -> list[str]:
    """The tree's lines without pi's branch prefix (connectors, gutters, fold marks: ``tree_layout``)."""
    tree = screen.session_tree
    return [str(tree.get_node_at_line(i).label).lstrip(" │├└─⊟⊞")  # type: ignore[union-attr]
            for i in range(tree.last_line + 1)]


def _texts(screen: SessionTreeScreen) -> list[str]:
    """The user texts shown (markers and times left out)."""
    return [line.split("user: ")[-1] for line in _lines(screen) if "user: " in line]


async def test_tree_jump_back_and_prompt_again_makes_a_branch(tmp_path: Path) -> None:
    session, faux = make_session(tmp_path, [faux_assistant_message("answer one"),
                                            faux_assistant_message("answer two"),
                                            faux_assistant_message("answer two again")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "first question")
        await _prompt(pilot, "second question")
        screen = await _open_tree(pilot)
        lines = _lines(screen)
        assert any("user: first question" in line for line in lines)
        assert any("assistant: answer two" in line and line.startswith("▶ ") for line in lines)
        assert screen.query_one("#tree-status").render().plain.startswith("(4/4)")  # type: ignore[attr-defined]
        # move to "second question" and press Enter: the branch left has entries, so pi's question comes
        ids = _user_ids(session)
        screen._move_to(ids["second question"])
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))
        await pilot.press("enter")  # "No summary" is the first choice
        await wait_until(pilot, lambda: app.prompt_input.text == "second question")
        assert "Navigated to selected point" in transcript_text(app)
        assert "answer two" not in transcript_text(app)
        first = session.session_manager.get_entry(ids["first question"])
        assert session.session_manager.get_leaf_entry().parent_id == first.id  # type: ignore[union-attr]
        app.prompt_input.set_text("")
        await _prompt(pilot, "second question, reworded")
        assert "answer two again" in transcript_text(app)
        screen = await _open_tree(pilot)
        lines = _lines(screen)
        # the active branch first, the old one after it
        active = next(i for i, line in enumerate(lines) if "second question, reworded" in line)
        old = next(i for i, line in enumerate(lines) if "user: second question" in line and "reworded" not in line)
        assert active < old and lines[active].startswith("• ") and not lines[old].startswith(("• ", "▶ "))
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, SessionTreeScreen))


async def test_filters_search_and_the_current_leaf(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("one"), faux_assistant_message("two")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "alpha")
        await _prompt(pilot, "beta")
        screen = await _open_tree(pilot)
        await pilot.press("ctrl+u")  # user messages only
        assert _texts(screen) == ["alpha", "beta"] and len(_lines(screen)) == 2
        assert "[user]" in str(screen.query_one("#tree-status").render())
        await pilot.press("ctrl+u")  # toggles back to default
        assert len(_lines(screen)) == 4
        await pilot.press("ctrl+a")  # every entry: the model and thinking entries too
        assert any("[model: faux-1]" in line for line in _lines(screen))
        await pilot.press("ctrl+o")  # cycle: all -> default
        assert screen.filter_mode == "default"
        await pilot.press("b", "e", "t")
        assert _texts(screen) == ["beta"] and len(_lines(screen)) == 1
        await pilot.press("escape")  # clears the search first
        assert screen.search == "" and len(_lines(screen)) == 4
        screen._move_to(session.session_manager.get_leaf_id())
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Already at this point" in transcript_text(app))


async def test_labels_are_set_changed_and_cleared_from_the_tree_and_shown(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("reply")])
    keymap = Keymap()
    keymap.keys["app.tree.editLabel"] = ["f6"]  # remapped through the keymap
    app = make_app(session, keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "label me")
        screen = await _open_tree(pilot)
        target = _user_ids(session)["label me"]
        screen._move_to(target)
        await pilot.pause()
        await pilot.press("L")  # the default key is remapped away: it types into the search
        assert screen.search == "L"
        await pilot.press("backspace")
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal))
        await pilot.press(*"checkpoint", "enter")
        await wait_until(pilot, lambda: app.screen is screen)
        assert session.session_manager.get_label(target) == "checkpoint"
        assert any("[checkpoint]" in line and "label me" in line for line in _lines(screen))
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal))
        modal = app.screen
        modal.query_one("Input").value = ""  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen)
        assert session.session_manager.get_label(target) is None
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal))
        await pilot.press(*"keep", "enter")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, SessionTreeScreen))
        assert "[keep]" in transcript_text(app)


async def test_summarize_writes_a_branch_summary_at_the_new_position(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message("one"), faux_assistant_message("two"),
                                         faux_assistant_message("## Goal\nthe abandoned work")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "alpha")
        await _prompt(pilot, "beta")
        screen = await _open_tree(pilot)
        assistant_one = next(e.id for e in session.session_manager.get_entries()
                             if isinstance(e, MessageEntry) and e.message.role == "assistant")
        screen._move_to(assistant_one)
        await pilot.pause()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))
        await pilot.press("down", "enter")  # "Summarize"
        await wait_until(pilot, lambda: "Navigated to selected point" in transcript_text(app))
        summaries = [e for e in session.session_manager.get_entries() if isinstance(e, BranchSummaryEntry)]
        assert len(summaries) == 1 and summaries[0].parent_id == assistant_one
        assert "the abandoned work" in summaries[0].summary
        assert "[branch summary]" in transcript_text(app)  # shown (collapsed) where the branch continues
        assert app.prompt_input.text == ""


async def test_keys_in_one_burst_run_in_order(tmp_path: Path) -> None:
    """``Up L`` arriving together (a fast typist, tmux send-keys): the label goes on the entry the cursor
    reached, not the one it started on (Tree's own bindings ran after the screen's keys)."""
    from textual import events

    session, _ = make_session(tmp_path, [faux_assistant_message("reply one"), faux_assistant_message("reply two")])
    app = make_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _prompt(pilot, "first")
        await _prompt(pilot, "second")
        screen = await _open_tree(pilot)
        tree = screen.session_tree
        for key, char in (("up", None), ("L", "L")):
            tree.post_message(events.Key(key, char))
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal))
        await pilot.press(*"here", "enter")
        await wait_until(pilot, lambda: app.screen is screen)
        assert session.session_manager.get_label(_user_ids(session)["second"]) == "here"


async def test_hotkeys_and_the_palette_list_the_tree(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [])
    keymap = Keymap()
    keymap.keys["app.session.tree"] = ["f7"]  # pi's app.session.tree, unbound by default, bound here
    app = make_app(session, keymap=keymap)
    async with app.run_test(size=(160, 60)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.set_text("/hotkeys")
        await pilot.press("enter")
        await pilot.pause(0.1)
        text = transcript_text(app)
        assert "Shift+L" in text and "Tree: set or clear the selected entry's label" in text
        assert "/tree" in text
        await pilot.press("f7")
        await wait_until(pilot, lambda: "No entries in session" in transcript_text(app)
                         or isinstance(app.screen, SessionTreeScreen))
