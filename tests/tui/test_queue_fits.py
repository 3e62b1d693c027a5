"""Issue 9 #9: at 60x16 the queue showed 2 of 4 queued messages with no "+2 more" and no Alt+Up hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.tui.keymap import Keymap
from pi_tui.tui.widgets.queue_view import queue_lines
from pi_tui.tui.widgets.transcript_items import ToolItem

from .helpers import make_app, make_session, wait_until
from .test_key_routing import keys_for


def test_queue_lines_keep_the_hint_and_count_the_rest() -> None:
    four = ["a", "b", "c"], ["d"]
    assert [k for k, _ in queue_lines(*four, "Alt+Up")] == ["steer", "steer", "steer", "follow", "hint"]
    fitted = queue_lines(*four, "Alt+Up", max_rows=2)
    assert fitted == [("steer", "Steering: a"), ("hint", "↳ +3 more · Alt+Up to edit all queued messages")]
    assert len(queue_lines(*four, "Alt+Up", max_rows=5)) == 5 and "more" not in queue_lines(*four, "Alt+Up", 5)[-1][1]
    assert queue_lines(*four, "Alt+Up", max_rows=0) == []
    assert queue_lines([], [], "Alt+Up", max_rows=2) == []


@pytest.mark.parametrize("size", [(60, 16), (120, 40)])
@pytest.mark.anyio
async def test_every_queued_message_is_shown_or_counted(tmp_path: Path, size: tuple[int, int]) -> None:
    km = Keymap()
    km.keys["app.message.dequeue"] = ["ctrl+g"]  # the hint names the keymap's key, not the default
    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 30"}), stop_reason="toolUse"),
        faux_assistant_message("never"),
    ])
    app = make_app(session, keymap=km)
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys_for("go"), "enter")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.status == "running"
                                            for i in app.transcript.items))
        for n in range(1, 11):
            app.prompt_input.insert(f"later {n}")
            await pilot.press("ctrl+f")  # follow-ups wait for the run's end
        await wait_until(pilot, lambda: len(app.queue_view.follow_up) == 10)
        await pilot.pause(0.1)
        rows = app.queue_view.render().plain.split("\n")
        assert len(rows) == app.queue_view.size.height  # what is drawn fits the rows the widget has
        shown = sum(1 for r in rows if r.startswith("Follow-up:"))
        assert rows[-1].startswith("↳") and "Ctrl+G to edit all queued messages" in rows[-1]
        assert f"+{10 - shown} more" in rows[-1]
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: "later 10" in app.prompt_input.text)
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.working)


def test_one_row_holds_a_summary_of_the_whole_queue() -> None:
    assert queue_lines(["a", "b"], ["c"], "Alt+Up", max_rows=1) == [
        ("hint", "↳ 3 queued (2 steering, 1 follow-up) · Alt+Up to edit")]
    assert queue_lines([], ["c"], "Alt+Up", max_rows=1) == [("hint", "↳ Follow-up: c · Alt+Up to edit")]
    assert queue_lines(["a"], [], "Alt+Up", max_rows=1) == [("hint", "↳ Steering: a · Alt+Up to edit")]


@pytest.mark.parametrize("size,start", [((60, 8), (60, 8)), ((80, 6), (80, 6)), ((60, 8), (60, 16))])
@pytest.mark.anyio
async def test_a_tiny_terminal_still_shows_that_messages_are_queued(tmp_path: Path, size: tuple[int, int],
                                                                    start: tuple[int, int]) -> None:
    """Below 9 rows the queue was hidden entirely (found by a new-user run): the status line carries a
    summary (also after shrinking the terminal while messages are queued)."""
    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 30"}), stop_reason="toolUse"),
        faux_assistant_message("never"),
    ])
    app = make_app(session)
    async with app.run_test(size=start) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await pilot.press(*keys_for("go"), "enter")
        await wait_until(pilot, lambda: any(isinstance(i, ToolItem) and i.status == "running"
                                            for i in app.transcript.items))
        app.prompt_input.insert("steer me")
        await pilot.press("enter")
        app.prompt_input.insert("later")
        await pilot.press("ctrl+f")
        await wait_until(pilot, lambda: len(app.queue_view.follow_up) == 1 and len(app.queue_view.steering) == 1)
        if start != size:
            await pilot.pause(0.1)
            await pilot.resize_terminal(*size)
        await pilot.pause(0.2)
        screen = _screen_text(app)
        assert "2 queued · Alt+Up to edit" in screen
        assert "Working" in screen  # the status keeps its place on the same line
        rows = screen.split("\n")
        assert len(rows) == size[1] and "faux-1" in rows[-1]  # the footer is still on screen
        assert "Enter: steer" in screen  # and the editor
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.working)


def _screen_text(app: object) -> str:
    """The visible screen as plain text (the compositor's lines)."""
    from textual.app import App
    assert isinstance(app, App)
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())
