"""/tree after the terminal shrinks keeps the selected row in view, and draws no stray block (new-user run, issue
12 leftovers): the Tree did not scroll to its cursor on a resize, and its horizontal scrollbar (long lines are cut
at the right by design) showed as a lone ``▌`` under the rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.types import AssistantMessage, TextContent, UserMessage
from pi_tui.tui.modals.session_tree import SessionTreeScreen

from .helpers import make_app, make_session, wait_until

pytestmark = pytest.mark.anyio


def _fill(session: object, exchanges: int) -> None:
    manager = session.session_manager  # type: ignore[attr-defined]
    for n in range(exchanges):
        manager.append_message(UserMessage(content=f"question {n} " + "with a long tail of words " * 8))
        manager.append_message(AssistantMessage(content=[TextContent(text=f"answer {n} " + "and more text " * 20)],
                                                api="faux", provider="faux", model="faux-1"))


def _cursor_in_view(screen: SessionTreeScreen) -> bool:
    tree = screen.session_tree
    top = tree.scroll_offset.y
    return top <= tree.cursor_line < top + tree.scrollable_content_region.height


@pytest.mark.parametrize("start", ["current", "first"])
async def test_the_selected_row_stays_in_view_when_the_terminal_shrinks(tmp_path: Path, start: str) -> None:
    session, _ = make_session(tmp_path)
    _fill(session, 25)
    app = make_app(session)
    async with app.run_test(size=(120, 50)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.builtin_commands.tree_command.open()
        await wait_until(pilot, lambda: isinstance(app.screen, SessionTreeScreen))
        screen = app.screen
        assert isinstance(screen, SessionTreeScreen)
        await pilot.pause(0.2)
        if start == "first":
            await pilot.press("home")
            for _ in range(20):
                await pilot.press("down")
        await pilot.pause(0.1)
        assert _cursor_in_view(screen)
        for size in ((120, 20), (80, 14), (60, 12), (120, 50), (100, 16)):
            await pilot.resize_terminal(*size)
            await pilot.pause(0.3)
            assert _cursor_in_view(screen), (size, screen.session_tree.cursor_line, screen.session_tree.scroll_offset)


async def test_no_horizontal_scrollbar_under_long_rows(tmp_path: Path) -> None:
    session, _ = make_session(tmp_path)
    _fill(session, 3)
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        app.builtin_commands.tree_command.open()
        await wait_until(pilot, lambda: isinstance(app.screen, SessionTreeScreen))
        await pilot.pause(0.2)
        screen = app.screen
        assert isinstance(screen, SessionTreeScreen)
        tree = screen.session_tree
        assert not tree.show_horizontal_scrollbar
        lines = [str(tree.render_line(y).text) for y in range(tree.size.height)]
        assert not any("▌" in line for line in lines), lines
