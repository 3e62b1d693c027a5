"""Snapshots: the editor's completion list for ``/`` (commands with descriptions) and for ``@`` (files)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from pi_tui.coding.file_index import FileIndex
from tests.tui.helpers import make_app, settle, snapshot_session, wait_until
from tests.tui.test_key_routing import keys_for

SIZE = (100, 30)
FILES_CWD = Path("/tmp/pi-tui-snapshot-files")
FILES = ["src/app.py", "src/app_test.py", "src/widgets/app_bar.py", "docs/apps.md", "apple notes.txt",
         "README.md", "pyproject.toml"]


def _files_tree() -> Path:
    shutil.rmtree(FILES_CWD, ignore_errors=True)
    for rel in FILES:
        path = FILES_CWD / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rel + "\n")
    return FILES_CWD


def _commands() -> list[Any]:
    """A fixed command list (built-ins as they were when recorded, a template, a skill, an extension command),
    so a command added to the app later does not change these pictures."""
    from pi_tui.coding.extensions.registries import CommandSpec

    def none(arg: str, ctx: Any) -> None:
        return None

    rows = [("model", "Select a model (fuzzy filter)", "[search]", "builtin"), ("new", "Start a new session", "",
            "builtin"), ("resume", "Resume a previous session", "", "builtin"),
            ("session", "Show session info and stats", "", "builtin"),
            ("export", "Export the session to HTML (Markdown for a .md path)", "[path]", "builtin"),
            ("hotkeys", "Show key bindings", "", "builtin"), ("quit", "Quit pi-tui", "", "builtin"),
            ("review", "Review a pull request", "<PR-URL> [focus]", "template"),
            ("skill:release-notes", "Writes release notes from the git log", "", "skill"),
            ("deploy", "Deploy to an environment", "", "extension")]
    return [CommandSpec(name, desc, none, usage=usage, source=source) for name, desc, usage, source in rows]


def _build(typed: str, ready: Any, cwd: Path | None = None) -> tuple[Any, Any, tuple[int, int]]:
    session, _ = snapshot_session()
    app = make_app(session, cwd=str(cwd) if cwd is not None else None)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        app.prompt_input.completion._index_factory = lambda root: FileIndex(root, backend="python")
        app.prompt_input.completion._commands = _commands
        for key in keys_for(typed):
            await pilot.press(key)
        await wait_until(pilot, lambda: ready(app.completion_list))
        await pilot.pause(0.1)

    return app, drive, SIZE


def test_slash_completion_list(snap_compare: Any) -> None:
    app, drive, size = _build("/", lambda view: view.is_open and len(view.items) > 5)
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_slash_completion_list_filtered(snap_compare: Any) -> None:
    app, drive, size = _build("/re", lambda view: view.is_open and view.items and view.items[0].value == "resume")
    assert snap_compare(app, run_before=drive, terminal_size=size)


def test_at_completion_list(snap_compare: Any) -> None:
    app, drive, size = _build("look at @app", lambda view: view.is_open and len(view.items) >= 5, _files_tree())
    assert snap_compare(app, run_before=drive, terminal_size=size)
