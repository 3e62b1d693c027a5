"""Ctrl+G: the prompt in $VISUAL / $EDITOR (pi_tui/tui/external_editor.py), with fake editor scripts.

The headless test driver cannot suspend, so ``App.suspend`` is replaced by a context manager that records that
the editor ran inside it (a real terminal is covered by trying it in tmux)."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pi_tui.tui.external_editor import NO_EDITOR, editor_command
from tests.tui.helpers import make_app, make_session, transcript_text, wait_until

pytestmark = pytest.mark.anyio


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "fake-editor"
    path.write_text('#!/bin/sh\nfor f in "$@"; do :; done\n' + body.replace('"$1"', '"$f"'))  # $f: the last argument
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def _suspend_recorder(app: Any, log: list[str]) -> None:
    @contextlib.contextmanager
    def suspend() -> Iterator[None]:
        log.append("suspended")
        yield
        log.append("resumed")

    app.suspend = suspend


async def _start(tmp_path: Path) -> Any:
    session, _ = make_session(tmp_path)
    return make_app(session, cwd=str(tmp_path))


async def test_ctrl_g_replaces_the_text_with_what_the_editor_saved(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    seen = tmp_path / "seen.txt"
    where = tmp_path / "where.txt"
    editor = _script(tmp_path, f'cp "$1" "{seen}"\necho "$1" > "{where}"\nprintf "edited\\nsecond line\\n" > "$1"\n')
    monkeypatch.setenv("VISUAL", f"{editor} --wait")
    monkeypatch.setenv("EDITOR", "/nonexistent-editor")  # VISUAL wins
    app = await _start(tmp_path)
    log: list[str] = []
    async with app.run_test(size=(90, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        _suspend_recorder(app, log)
        app.prompt_input.set_text("draft text")
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: app.prompt_input.text == "edited\nsecond line")
        assert seen.read_text() == "draft text"  # the editor got the text
        assert log == ["suspended", "resumed"]
        assert app.prompt_input.cursor_location == (1, len("second line"))
        temp = Path(where.read_text().strip())
        assert temp.name.startswith("pi-editor-") and temp.name.endswith(".pi.md")
        assert not os.path.exists(temp)  # noqa: ASYNC240 - removed afterwards


async def test_pastes_are_expanded_for_the_editor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = tmp_path / "seen.txt"
    monkeypatch.setenv("VISUAL", str(_script(tmp_path, f'cp "$1" "{seen}"\n')))
    app = await _start(tmp_path)
    async with app.run_test(size=(90, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        _suspend_recorder(app, [])
        big = "\n".join(f"line {i}" for i in range(20))
        app.prompt_input.pastes[1] = big
        app.prompt_input.set_text("see [paste #1 +20 lines]")
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: seen.exists())
        assert seen.read_text() == "see " + big
        await wait_until(pilot, lambda: app.prompt_input.text == "see " + big)


@pytest.mark.parametrize(("visual", "message"), [
    ("", NO_EDITOR),
    ("/nonexistent/editor-xyz", "Could not run the editor '/nonexistent/editor-xyz'"),
    ("FAIL", "exited with status 3; the text was not changed"),
    ("BADEXEC", "Could not run the editor"),  # found, but exec fails (bad interpreter): inside the suspend
])
async def test_failures_keep_the_text_and_say_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  visual: str, message: str) -> None:
    if visual == "FAIL":
        visual = str(_script(tmp_path, 'echo garbage > "$1"\nexit 3\n'))
    if visual == "BADEXEC":
        bad = tmp_path / "bad-editor"
        bad.write_text("#!/nonexistent/interpreter\n")
        bad.chmod(0o755)
        visual = str(bad)
    monkeypatch.setenv("VISUAL", visual)
    monkeypatch.delenv("EDITOR", raising=False)
    app = await _start(tmp_path)
    async with app.run_test(size=(90, 24)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        log: list[str] = []
        _suspend_recorder(app, log)
        app.prompt_input.set_text("keep me")
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: message in " ".join(transcript_text(app).split()))
        assert app.prompt_input.text == "keep me"
        # never suspended, or resumed: Textual resumes only when the block ends normally, and a missing editor
        # left the screen blank for good (new-user run)
        assert log in ([], ["suspended", "resumed"])


async def test_a_terminal_that_cannot_suspend_is_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VISUAL", str(_script(tmp_path, "exit 0\n")))
    app = await _start(tmp_path)
    async with app.run_test(size=(90, 24)) as pilot:  # the headless driver cannot suspend
        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.set_text("keep me")
        await pilot.press("ctrl+g")
        await wait_until(pilot, lambda: "cannot be suspended" in transcript_text(app))
        assert app.prompt_input.text == "keep me"


async def test_the_key_is_remappable_and_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_tui.tui.keymap import load_keymap

    bindings = tmp_path / "keybindings.json"
    bindings.write_text('{"app.editor.external": "ctrl+e"}')
    keymap = load_keymap(bindings)
    assert keymap.action_for("ctrl+e") == "app.editor.external" and keymap.action_for("ctrl+g") is None
    monkeypatch.setenv("VISUAL", str(_script(tmp_path, 'printf "via ctrl+e" > "$1"\n')))
    session, _ = make_session(tmp_path)
    app = make_app(session, cwd=str(tmp_path), keymap=keymap)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        _suspend_recorder(app, [])
        await pilot.press("ctrl+e")
        await wait_until(pilot, lambda: app.prompt_input.text == "via ctrl+e")
        app.run_slash("/hotkeys")
        await wait_until(pilot, lambda: "Edit the prompt in $VISUAL / $EDITOR" in transcript_text(app))
        assert "Ctrl+E" in transcript_text(app)


def test_editor_command() -> None:
    assert editor_command({"VISUAL": "code --wait", "EDITOR": "vi"}) == ["code", "--wait"]
    assert editor_command({"EDITOR": "'/opt/my editor/bin' -n"}) == ["/opt/my editor/bin", "-n"]
    assert editor_command({"EDITOR": "  "}) is None
    assert editor_command({}) is None
