"""``/tree`` draws pi's shape (new-user run #33): a chain of entries stays in one column with no connector, and
only the two branches of a real branch point get ``├`` / ``└`` (every entry of a plain sequence had its own
``├─``, so a later entry looked like a sibling of an earlier one). Ctrl+Left/Right fold and unfold a branch or
jump between branch starts (pi's ``app.tree.foldOrUp`` / ``unfoldOrDown``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker

from .helpers import make_app, make_session, wait_until
from .test_tree_screen import _open_tree, _prompt, _user_ids

pytestmark = pytest.mark.anyio


def _drawn(screen: Any) -> list[str]:
    """The tree's lines as drawn (Textual's guides included), trailing blanks cut."""
    tree = screen.session_tree
    return [tree.render_line(y).text.rstrip() for y in range(tree.last_line + 1)]


async def _branched(pilot: Any) -> Any:
    """first → answer one → (second → answer two → third → answer three | second, reworded → answer)."""
    app = pilot.app
    await wait_until(pilot, lambda: app.session_ready)
    for text in ("first", "second", "third"):
        await _prompt(pilot, text)
    screen = await _open_tree(pilot)
    screen._move_to(_user_ids(app.session)["second"])
    await pilot.pause()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, FuzzyPicker))
    await pilot.press("enter")  # no summary
    await wait_until(pilot, lambda: app.prompt_input.text == "second")
    app.prompt_input.set_text("")
    await _prompt(pilot, "second, reworded")
    return await _open_tree(pilot)


async def test_a_chain_has_no_connectors_and_a_branch_point_has_two(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path, [faux_assistant_message(f"answer {n}") for n in range(1, 5)])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await _branched(pilot)
        drawn = [line.replace("▶ ", "").replace("• ", "") for line in _drawn(screen)]
        shapes = [line.split(":", 1)[0][:-2] for line in drawn]  # the prefix before the time ("HH:MM")
        assert [line.split(": ", 1)[1] for line in drawn] == [
            "first", "answer 1", "second, reworded", "answer 4", "second", "answer 2", "third", "answer 3"]
        assert shapes == ["", "", "├⊟ ", "│     ", "└⊟ ", "      ", "      ", "      "]
        # fold the old branch (Ctrl+Left on its start), unfold it again (Ctrl+Right)
        screen._move_to(_user_ids(session)["second"])
        await pilot.pause()
        await pilot.press("ctrl+left")
        assert [line.split(": ", 1)[-1] for line in _drawn(screen)][-1] == "second"
        assert _drawn(screen)[-1].startswith("└⊞ ")
        await pilot.press("ctrl+right")
        assert len(_drawn(screen)) == 8
        await pilot.press("down", "down", "ctrl+left")  # inside the branch: up to its start
        assert screen.selected_id == _user_ids(session)["second"]
