"""The status line styles each drawn state once (issue 15): while a reply streams, the spinner steps ten times a
second and Textual styled its row again at every step (about 1 ms each); the spinner cycles through a few glyphs,
so the row of a state drawn before is reused. Every screen equals the one Textual's own rendering gives."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widget import Widget

from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets.status_line import WORKING, StatusLine


class PlainStatusLine(StatusLine):
    """The same status line drawn by Textual every time (the reference)."""

    render_lines = Widget.render_lines  # type: ignore[assignment]


class Host(App[None]):
    def __init__(self, plain: bool) -> None:
        super().__init__()
        self.plain = plain

    def compose(self) -> ComposeResult:
        self.status = (PlainStatusLine if self.plain else StatusLine)(find_theme("dark"), clock=lambda: 0.0)
        yield self.status


def _screen(app: App[Any]) -> list[list[tuple[str, str]]]:
    return [[(seg.text, str(seg.style)) for seg in strip] for strip in app.screen._compositor.render_strips()]


@pytest.mark.anyio
async def test_each_spinner_state_is_styled_once_and_drawn_as_textual_draws_it() -> None:
    screens: dict[bool, list[Any]] = {}
    styled: dict[bool, int] = {}
    for plain in (False, True):
        app = Host(plain)
        async with app.run_test(size=(50, 6)) as pilot:
            st = app.status
            st.show(WORKING)
            await pilot.pause()
            if st._timer is not None:
                st._timer.stop()  # the steps below are the only ones
                st._timer = None
            count = 0
            render_line = st.render_line

            def counting(y: int, render_line: Any = render_line) -> Any:
                nonlocal count
                count += 1
                return render_line(y)

            st.render_line = counting  # type: ignore[method-assign]
            shots = []
            for step in range(30):  # three turns of the ten-glyph spinner, then another message, then the first
                st._advance(float(step))
                await pilot.pause()
                shots.append(_screen(app))
            st.show("Compacting context... (esc to cancel)")
            await pilot.pause()
            shots.append(_screen(app))
            st.show(WORKING)
            await pilot.pause()
            shots.append(_screen(app))
            app.screen.styles.background = "red"  # the widget's look changed: styled afresh, not reused
            await pilot.pause()
            shots.append(_screen(app))
            screens[plain], styled[plain] = shots, count
    assert screens[False] == screens[True]
    assert styled[True] >= 30
    assert styled[False] <= 13, styled  # ten glyphs, the other message, the new background
