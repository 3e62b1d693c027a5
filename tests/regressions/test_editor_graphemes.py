"""The prompt editor edits user-perceived characters (grapheme clusters), issue 10 class 8.

Cases from real reports: a ZWJ family loses one member per Backspace (microsoft/vscode#22486), a flag loses
one regional indicator (microsoft/vscode#334807), ``〽️`` needs two Backspaces (Textualize/textual#4694),
``🤷🏻‍♂️`` needs six Left presses (bustle/mobiledoc-kit#629), the polar bear turns into a bear
(element-hq/element-web#20688), a variation selector shifts the cursor (ajaxorg/ace#4434), and iOS Termius'
``ㄱ`` DEL ``가`` composition must arrive in order (anthropics/claude-code#15705). Keys reach the app as the
terminal driver delivers them: bytes parsed by Textual's ``XTermParser``, one ``Key`` per code point.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from pi_tui.tui.keymap import Keymap
from pi_tui.tui.widgets.graphemes import is_boundary
from pi_tui.tui.widgets.prompt_input import PromptInput

from .typing_helpers import type_raw


class EditorApp(App[None]):
    """Just the prompt editor (the app's own actions are not needed to edit text)."""

    def compose(self) -> ComposeResult:
        yield PromptInput(Keymap(), escape_delay=0.0, id="prompt")

    def on_prompt_input_action_requested(self, message: PromptInput.ActionRequested) -> None:
        message.stop()


def editor(app: App[Any]) -> PromptInput:
    return app.query_one(PromptInput)


def assert_on_boundary(ed: PromptInput) -> None:
    row, col = ed.cursor_location
    line = ed.document[row]
    assert is_boundary(line, col), f"cursor inside a cluster: {line!r} col {col}"


async def typed(pilot: Pilot[Any], text: str) -> PromptInput:
    await type_raw(pilot, text)
    ed = editor(pilot.app)
    assert ed.text == text
    return ed


FAMILY = "👩\u200d👩\u200d👧\u200d👧"
SHRUG = "🤷🏻\u200d♂️"
POLAR_BEAR = "🐻\u200d❄️"


@pytest.mark.anyio
@pytest.mark.parametrize(
    "text, after_one_backspace",
    [
        (FAMILY, ""),  # vscode#22486
        ("🇺🇸🇬🇧", "🇺🇸"),  # vscode#334807
        ("〽️", ""),  # textual#4694
        (SHRUG, ""),  # mobiledoc-kit#629
        (POLAR_BEAR, ""),  # element-web#20688
        ("👍🏽", ""),  # skin tone
        ("cafe\u0301", "caf"),  # combining accent
        ("\u1100\u1161\u11a8", ""),  # Hangul 각 as conjoining jamo
        ("中文字", "中文"),  # wide CJK keeps working
    ],
)
async def test_one_backspace_removes_one_visible_character(text: str, after_one_backspace: str) -> None:
    app = EditorApp()
    async with app.run_test(size=(60, 10)) as pilot:
        ed = await typed(pilot, text)
        await pilot.press("backspace")
        assert ed.text == after_one_backspace
        assert_on_boundary(ed)


@pytest.mark.anyio
async def test_left_right_and_delete_step_over_whole_clusters() -> None:
    app = EditorApp()
    async with app.run_test(size=(60, 10)) as pilot:
        ed = await typed(pilot, f"a{SHRUG}b")
        await pilot.press("left", "left")  # mobiledoc-kit#629: one press per visible character
        assert ed.cursor_location == (0, 1)
        await pilot.press("delete")
        assert ed.text == "ab"
        await pilot.press("home", "right")
        assert ed.cursor_location == (0, 1)


@pytest.mark.anyio
async def test_cursor_after_variation_selector_lands_between_digits() -> None:
    """ace#4434: in ``🗓️134`` the place between 1 and 3 is three Rights from the start, not two."""
    app = EditorApp()
    async with app.run_test(size=(60, 10)) as pilot:
        ed = await typed(pilot, "🗓️134")
        await pilot.press("home", "right", "right")
        await type_raw(pilot, "2")
        assert ed.text == "🗓️1234"


@pytest.mark.anyio
async def test_up_down_and_word_jumps_never_land_inside_a_cluster() -> None:
    app = EditorApp()
    async with app.run_test(size=(60, 10)) as pilot:
        ed = editor(app)
        ed.text = f"{FAMILY}{FAMILY} x\nabcdefghij"
        for col in range(11):
            ed.move_cursor((1, col))
            await pilot.press("up")
            assert_on_boundary(ed)
        ed.move_cursor((0, len(ed.document[0])))
        for _ in range(4):
            await pilot.press("ctrl+left")
            assert_on_boundary(ed)
        ed.move_cursor((0, 3))  # inside the first family: moved out to the nearer edge
        assert ed.cursor_location in ((0, 0), (0, len(FAMILY)))


@pytest.mark.anyio
async def test_an_edit_that_merges_clusters_leaves_the_cursor_on_a_boundary() -> None:
    """Typing a regional indicator before another joins them into a flag; the cursor stays outside it."""
    app = EditorApp()
    async with app.run_test(size=(60, 10)) as pilot:
        ed = await typed(pilot, "\U0001f1f5x")
        await pilot.press("home")
        await type_raw(pilot, "\U0001f1ef")
        assert ed.text == "🇯🇵x"
        assert_on_boundary(ed)


@pytest.mark.anyio
async def test_termius_delete_and_reinsert_composition_arrives_in_order() -> None:
    """claude-code#15705: iOS Termius sends ``ㄱ`` DEL ``가`` in one chunk; the result is ``가``."""
    app = EditorApp()
    async with app.run_test(size=(60, 10)) as pilot:
        await type_raw(pilot, "한ㄱ\x7f가")
        assert editor(app).text == "한가"


# ---------------------------------------------------------------- property: random keys
_PIECES = ["a", "Z", " ", "中", "字", "é", "e\u0301", "\u0301", "\u200d", "👍", "🏽", "❤", "\ufe0f", "🇯", "🇵",
           FAMILY, SHRUG, "\u1100", "\u1161"]
_KEYS = ["left", "right", "backspace", "delete", "home", "end", "up", "down", "ctrl+left", "ctrl+right",
         "ctrl+j", "shift+left", "shift+right"]
_ACTION = st.one_of(st.sampled_from(_PIECES).map(lambda p: ("type", p)), st.sampled_from(_KEYS).map(lambda k: ("key", k)))


def _expected_after_backspace(line: str, col: int) -> str:
    from pi_tui.tui.widgets.graphemes import prev_boundary

    return line[: prev_boundary(line, col)] + line[col:]


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(_ACTION, min_size=1, max_size=30))
def test_random_keys_never_leave_the_cursor_inside_a_cluster(actions: list[tuple[str, str]]) -> None:
    import asyncio

    async def run() -> None:
        app = EditorApp()
        async with app.run_test(size=(40, 12)) as pilot:
            ed = editor(app)
            for kind, value in actions:
                before, (row, col), sel_empty = ed.text, ed.cursor_location, ed.selection.is_empty
                if kind == "type":
                    await type_raw(pilot, value)
                else:
                    await pilot.press(value)
                assert_on_boundary(ed)
                ed.text.encode("utf-8")  # valid text: no lone surrogates
                if value == "backspace" and sel_empty and col > 0:
                    lines = before.split("\n")
                    lines[row] = _expected_after_backspace(lines[row], col)
                    assert ed.text == "\n".join(lines)
            sel = ed.selection
            for loc in (sel.start, sel.end):
                assert is_boundary(ed.document[loc[0]], loc[1])

    asyncio.run(run())
