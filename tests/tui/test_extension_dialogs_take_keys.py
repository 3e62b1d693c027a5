"""tester3 #4 (high): an extension's dialog, opened on its own while the arrival guard is on (as it always is for a
user), takes the keyboard once it has been on screen a moment: Down/Enter choose, Escape cancels and the
extension gets None/False; keys typed as it appeared still go to the editor. The select dialog (a FuzzyPicker)
never started its grace, so it held every key for good: it could be neither answered nor cancelled, and the run
waiting on it hung."""

from __future__ import annotations

import asyncio
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from pi_tui.tui.modals import arrival_guard

from .helpers import make_app, make_session, wait_until

pytestmark = [pytest.mark.anyio, pytest.mark.arrival_guard]

EXT = textwrap.dedent("""
    import json
    answers = []
    OUT = "{out}"

    def activate(pi):
        async def ask(args, ctx):
            kind = args.strip()
            if kind == "select":
                answers.append(await ctx.ui.select("Pick one", ["alpha", "beta", "gamma"]))
            elif kind == "confirm":
                answers.append(await ctx.ui.confirm("Sure?", "really"))
            elif kind == "input":
                answers.append(await ctx.ui.input("Name?"))
            elif kind == "editor":
                answers.append(await ctx.ui.editor("Plan", "step"))
            open(OUT, "w").write(json.dumps(answers))
        pi.register_command("ask", ask, "Ask something")
""")


def _dialog(app: Any) -> bool:
    return app.screen is not app.screen_stack[0]


async def _open(pilot: Any, app: Any, kind: str) -> None:
    app.prompt_input.set_text(f"/ask {kind}")
    await pilot.press("enter")
    await wait_until(pilot, lambda: _dialog(app), limit=10)
    await asyncio.sleep(arrival_guard.GRACE_S + 0.3)  # the user reads it
    await pilot.pause()


def _answers(out: Path) -> list[Any]:
    return json.loads(out.read_text()) if out.exists() else []


@pytest.mark.parametrize(("kind", "keys", "expected"), [
    ("select", ["down", "enter"], "beta"),
    ("select", ["escape"], None),
    ("confirm", ["y"], True),
    ("confirm", ["escape"], False),
    ("input", ["o", "k", "enter"], "ok"),
    ("input", ["escape"], None),
    ("editor", ["end", "!", "ctrl+s"], "step!"),
    ("editor", [" ", "2", "ctrl+s"], "step 2"),  # the cursor starts at the end of the prefill (tester3 #17)
])
async def test_each_dialog_takes_its_keys_once_shown(tmp_path: Path, kind: str, keys: list[str], expected: Any) -> None:
    ext = tmp_path / "ask.py"
    out = tmp_path / "answers.json"
    ext.write_text(EXT.replace("{out}", str(out)))
    session, _ = make_session(tmp_path, [], extension_paths=[str(ext)])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        await _open(pilot, app, kind)
        await pilot.press(*keys)
        await wait_until(pilot, lambda: not _dialog(app), limit=5)
        await wait_until(pilot, lambda: len(_answers(out)) == 1, limit=5)
        assert _answers(out) == [expected]
        assert app.prompt_input.text == ""  # nothing went to the editor behind it


async def test_a_registered_dialog_that_never_reports_its_paint_takes_keys_after_the_cap(tmp_path: Path) -> None:
    from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry

    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        chosen: list[Any] = []
        picker = FuzzyPicker("Pick", [PickerEntry(label=x, value=x) for x in ("alpha", "beta")])
        arrival_guard.register(picker)  # and no painted(): the cap still ends the hold
        app.push_screen(picker, callback=chosen.append)
        await wait_until(pilot, lambda: app.screen is picker)
        await pilot.press("x")  # typed as it appeared: the editor's
        await pilot.pause()
        assert app.prompt_input.text == "x" and app.screen is picker
        await asyncio.sleep(arrival_guard.MAX_HOLD_S + 0.2)
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: chosen == ["beta"], limit=5)
