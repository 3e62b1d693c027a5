"""Every picker and screen keeps its list usable on a short terminal (new-user run #11: at 60x16 the ``/resume``
picker showed one session row, its preview taking the rest, its key help wrapping to three lines; ``/tree``
gave 5 of 16 lines to its title and help). On a short screen the preview and the help give way first: the list
shows at least :data:`MIN_ROWS` rows (or every row when there are fewer), at 60x16 as at 200x50."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from textual.widget import Widget
from textual.widgets import OptionList, Tree

from pi_tui.coding.mcp.config import McpConfigLoad, McpServerConfig
from pi_tui.coding.mcp.manager import McpManager
from pi_tui.coding.mcp.session_link import McpSessionLink
from pi_tui.tui.keymap import Keymap
from pi_tui.tui.modals.fork_picker import ForkPicker
from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry
from pi_tui.tui.modals.mcp import McpScreen
from pi_tui.tui.modals.model_picker import ModelPicker
from pi_tui.tui.modals.resume_picker import ResumePicker
from pi_tui.tui.modals.scoped_models import ScopedModelsScreen
from pi_tui.tui.modals.session_tree import SessionTreeScreen
from pi_tui.tui.modals.settings_screen import SettingsScreen

from .helpers import make_app, make_session, wait_until
from .snapshots.session_scenarios import write_session
from .test_resume_picker import _open

pytestmark = pytest.mark.anyio

SIZES = [(60, 16), (80, 24), (200, 50)]
MIN_ROWS = {16: 8, 24: 12, 50: 25}
"""Rows of the list that must be visible, by terminal height."""

Opener = Callable[[Any, Path], Awaitable[Widget]]


def _models(n: int) -> list[Any]:
    return [SimpleNamespace(provider="local", id=f"model-{i:02d}", name=f"Model {i}", reasoning=False)
            for i in range(n)]


async def _slash(pilot: Any, command: str, screen_type: type) -> Any:
    app = pilot.app
    await wait_until(pilot, lambda: app.session_ready)
    app.prompt_input.insert(command)
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, screen_type))
    return app.screen


async def _resume(pilot: Any, home: Path) -> Widget:
    return (await _slash(pilot, "/resume", ResumePicker)).query_one("#resume-list")


async def _tree(pilot: Any, home: Path) -> Widget:
    return (await _slash(pilot, "/tree", SessionTreeScreen)).query_one(Tree)


async def _settings(pilot: Any, home: Path) -> Widget:
    return (await _slash(pilot, "/settings", SettingsScreen)).query_one("#settings-list")


async def _push(pilot: Any, screen: Any) -> Any:
    app = pilot.app
    await wait_until(pilot, lambda: app.session_ready)
    app.push_screen(screen)
    await wait_until(pilot, lambda: app.screen is screen and bool(screen.query(OptionList)))
    return screen


async def _model(pilot: Any, home: Path) -> Widget:
    return (await _push(pilot, ModelPicker(_models(40)))).query_one(OptionList)


async def _fork(pilot: Any, home: Path) -> Widget:
    messages = [{"entryId": f"e{i}", "text": f"message number {i}"} for i in range(40)]
    return (await _push(pilot, ForkPicker(messages))).query_one(OptionList)


async def _extension_select(pilot: Any, home: Path) -> Widget:
    """An extension's ``ui.select`` with a three-line question (the permission gate's shape)."""
    entries = [PickerEntry(label=f"choice {i}", value=i) for i in range(40)]
    title = "Run this command?\n  rm -rf build && make all\nin /tmp/project"
    return (await _push(pilot, FuzzyPicker(title, entries))).query_one(OptionList)


async def _scoped(pilot: Any, home: Path) -> Widget:
    screen = ScopedModelsScreen(_models(40), None, Keymap(), on_change=lambda _e: None, on_save=lambda _e: None)
    return (await _push(pilot, screen)).query_one(OptionList)


async def _mcp(pilot: Any, home: Path) -> Widget:
    servers = [McpServerConfig(name=f"server-{i:02d}", transport="stdio", command="unused", enabled=False)
               for i in range(40)]  # never started: no process
    manager = McpManager(McpConfigLoad(servers={s.name: s for s in servers}), log_dir=home / "logs")
    link = McpSessionLink(manager, set_tools=lambda tools: None, notify=lambda level, text: None)
    return (await _push(pilot, McpScreen(link))).query_one(OptionList)


OPENERS: dict[str, Opener] = {
    "resume": _resume, "tree": _tree, "settings": _settings, "model": _model, "fork": _fork,
    "extension-select": _extension_select, "scoped-models": _scoped, "mcp": _mcp,
}


def _visible_rows(widget: Widget) -> int:
    return widget.content_region.height


def _row_count(widget: Widget) -> int:
    if isinstance(widget, Tree):
        return widget.last_line + 1
    assert isinstance(widget, OptionList)
    return len(widget._lines)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    return tmp_path


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("which", list(OPENERS))
async def test_the_list_keeps_its_rows(home: Path, which: str, size: tuple[int, int]) -> None:
    folder = home / "agent" / "sessions" / "--project--"
    files = [write_session(folder, f"a{n:07d}-0000-4000-8000-000000000000", 1 + n,
                           [(f"question {n}.{t}", f"answer {n}.{t}") for t in range(15)], cwd=str(home))
             for n in range(30)]
    if which in ("resume", "tree"):
        app = make_app(_open(home, files[-1]))
    else:
        session, _ = make_session(home, [])
        app = make_app(session)
    async with app.run_test(size=size) as pilot:
        widget = await OPENERS[which](pilot, home)
        await pilot.pause(0.3)
        rows = _row_count(widget)
        assert rows > MIN_ROWS[size[1]], "the test needs more rows than must be seen"
        assert _visible_rows(widget) >= MIN_ROWS[size[1]], (which, size, _visible_rows(widget))


async def test_an_extension_question_is_shown_whole_at_60x16(home: Path) -> None:
    """tester2 #16: at 60x16 the permission gate's select dialog cut the command it asked about (its end, the part
    that matters, was not shown)."""
    session, _ = make_session(home, [])
    app = make_app(session)
    command = ("rm -rf /tmp/tester2-proj/nothing-here-but-a-very-long-path/that/keeps/going/and/going/and/ends/"
               "with/IMPORTANT-TAIL")
    async with app.run_test(size=(60, 16)) as pilot:
        entries = [PickerEntry(label=label, value=label) for label in ("Allow once", "Always allow", "Block")]
        screen = await _push(pilot, FuzzyPicker(f"Run this command?\n\n  {command}", entries))
        await pilot.pause(0.2)
        title = screen.query_one("#picker-title")
        lines = title.render_lines(title.region.reset_offset)
        shown = "".join(strip.text.strip() for strip in lines)
        assert shown.endswith("IMPORTANT-TAIL") and len(screen.query_one(OptionList)._lines) == 3
        assert screen.query_one(OptionList).content_region.height >= 3
