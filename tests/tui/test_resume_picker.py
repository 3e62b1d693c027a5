"""The ``/resume`` picker (issue 12): the open session marked, a lazily loaded preview, delete with a confirmation
(never the open session), rename (pi's ``session_info`` entry), one-shot ``-p`` runs hidden until Ctrl+O, named
sessions only (Ctrl+N), every folder behind Tab; keys from the keymap, listed in /hotkeys; ``-r`` opens it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import register_faux_provider
from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.tui.modals.confirm import ConfirmModal
from pi_tui.tui.modals.resume_picker import ResumePicker
from pi_tui.tui.modals.resume_rows import session_label
from pi_tui.tui.modals.text_prompt import TextPromptModal

from .helpers import make_app, transcript_text, wait_until
from .snapshots.session_scenarios import write_session

pytestmark = pytest.mark.anyio


def _folder(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "agent" / "sessions" / "--project--"
    cwd = str(tmp_path)
    return {
        "named": write_session(folder, "a0000000-0000-4000-8000-000000000001", 20,
                               [("named question", "named answer")], name="Named one", cwd=cwd),
        "current": write_session(folder, "b0000000-0000-4000-8000-000000000002", 22,
                                 [("current question", "current answer")], cwd=cwd),
        "old": write_session(folder, "c0000000-0000-4000-8000-000000000003", 12,
                             [("old question", "old answer"), ("old follow-up", "the last old answer")], cwd=cwd),
        "print": write_session(folder, "d0000000-0000-4000-8000-000000000004", 23,
                               [("scripted question", "scripted answer")], print_run=True, cwd=cwd),
        "elsewhere": write_session(tmp_path / "agent" / "sessions" / "--elsewhere--",
                                   "e0000000-0000-4000-8000-000000000005", 21,
                                   [("question in another folder", "answer")], cwd="/somewhere/else"),
    }


def _open(tmp_path: Path, path: Path) -> Any:
    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1"}])
    session = create_agent_session(str(tmp_path), session_path=str(path))
    model = faux.get_model()
    session.models.allow(model.provider, model.id, model)
    session.set_model(model, announce=False)
    return session


async def _picker(pilot: Any) -> ResumePicker:
    app = pilot.app
    await wait_until(pilot, lambda: app.session_ready)
    app.prompt_input.insert("/resume")
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, ResumePicker))
    assert isinstance(app.screen, ResumePicker)
    return app.screen


def _labels(picker: ResumePicker) -> list[str]:
    return [session_label(r.info) for r in picker.rows]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    return tmp_path


async def test_the_open_session_is_marked_and_the_preview_shows_the_last_messages(home: Path) -> None:
    files = _folder(home)
    app = make_app(_open(home, files["current"]))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        assert _labels(picker) == ["current question", "Named one", "old question"]  # the -p run is hidden
        assert [r.current for r in picker.rows] == [True, False, False]
        assert picker.highlighted_row is not None and picker.highlighted_row.info.name == "Named one"
        await pilot.press("down")
        await wait_until(pilot, lambda: "the last old answer" in str(picker.query_one("#resume-preview-text")
                                                                      .render()))
        preview = str(picker.query_one("#resume-preview-text").render())
        assert "old follow-up" in preview and "You:" in preview
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Resumed session" in transcript_text(app))
        assert str(app.session.session_file) == str(files["old"])


async def test_previews_are_read_only_for_the_highlighted_session(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = home / "agent" / "sessions" / "--many--"
    for n in range(300):
        write_session(folder, f"{n:08x}-0000-4000-8000-000000000000", 1 + n % 28, [(f"question {n}", "answer")],
                      cwd=str(home))
    read: list[str] = []
    from pi_tui.coding.session import preview

    real = preview.session_preview

    def counting(path: Any, limit: int = 6) -> Any:
        read.append(str(path))
        return real(path, limit)

    monkeypatch.setattr(preview, "session_preview", counting)
    current = write_session(folder, "ffffffff-0000-4000-8000-000000000000", 28, [("mine", "yes")], cwd=str(home))
    app = make_app(_open(home, current))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        assert len(picker.rows) == 301
        await wait_until(pilot, lambda: len(picker.previews) == 1)
        await pilot.pause(0.2)
        assert len(read) == 1 and read[0] == str(picker.highlighted_row.info.path)


async def test_print_runs_and_named_filters(home: Path) -> None:
    files = _folder(home)
    app = make_app(_open(home, files["current"]))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        await pilot.press("ctrl+o")
        assert "scripted question" in _labels(picker)
        await pilot.press("ctrl+o", "ctrl+n")
        assert _labels(picker) == ["current question", "Named one"]  # the open session is never hidden
        await pilot.press("ctrl+n", "ctrl+s")
        assert picker.filters.sort == "recent" and len(picker.rows) == 3


async def test_tab_shows_the_sessions_of_every_folder(home: Path) -> None:
    files = _folder(home)
    app = make_app(_open(home, files["current"]))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        assert "question in another folder" not in _labels(picker)
        await pilot.press("tab")
        await wait_until(pilot, lambda: "question in another folder" in _labels(picker))
        assert picker.scope == "all" and app.screen is picker
        await pilot.press("tab")
        assert "question in another folder" not in _labels(picker)


async def test_delete_asks_first_and_never_deletes_the_open_session(home: Path) -> None:
    files = _folder(home)
    app = make_app(_open(home, files["current"]))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        await pilot.press("up")  # the open session
        assert picker.highlighted_row is not None and picker.highlighted_row.current
        await pilot.press("ctrl+d")
        await pilot.pause(0.05)
        assert app.screen is picker and "Cannot delete the open session" in str(
            picker.query_one("#resume-status").render())
        assert files["current"].exists()
        await pilot.press("down", "down")  # the old session
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("n")  # cancel: nothing happens
        await wait_until(pilot, lambda: app.screen is picker)
        assert files["old"].exists()
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("y")
        await wait_until(pilot, lambda: not files["old"].exists())
        await wait_until(pilot, lambda: "old question" not in _labels(picker))
        assert app.screen is picker


async def test_delete_refuses_a_session_another_pi_tui_holds(home: Path) -> None:
    import os

    from pi_tui.coding.session.lock import lock_path_for

    files = _folder(home)
    lock_path_for(files["old"]).write_text(json.dumps({"pid": os.getppid(), "host": os.uname().nodename,
                                                       "startedAt": ""}))
    app = make_app(_open(home, files["current"]))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        await pilot.press("down", "ctrl+d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal))
        await pilot.press("y")
        await wait_until(pilot, lambda: "open in another pi-tui" in str(picker.query_one("#resume-status").render()))
        assert files["old"].exists()


async def test_rename_writes_a_session_info_entry(home: Path) -> None:
    files = _folder(home)
    session = _open(home, files["current"])
    app = make_app(session)
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        await pilot.press("down", "ctrl+r")  # the old session
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal))
        await pilot.press(*"Themes docs", "enter")
        await wait_until(pilot, lambda: "Themes docs" in _labels(picker))
        lines = [json.loads(line) for line in files["old"].read_text().splitlines()]
        assert lines[-1]["type"] == "session_info" and lines[-1]["name"] == "Themes docs"
        assert lines[-1]["parentId"] == lines[-2]["id"]
        await pilot.press("up", "up", "ctrl+r")  # the open session: renamed through the session
        await wait_until(pilot, lambda: isinstance(app.screen, TextPromptModal))
        await pilot.press(*"CI on macOS", "enter")
        await wait_until(pilot, lambda: session.session_name == "CI on macOS")
        assert "CI on macOS" in _labels(picker)


async def test_picker_keys_come_from_the_keymap_and_are_listed(home: Path) -> None:
    files = _folder(home)
    (home / "agent").mkdir(parents=True, exist_ok=True)
    (home / "agent" / "keybindings.json").write_text(json.dumps({"app.session.togglePrintRuns": "ctrl+y"}))
    from pi_tui.tui.keymap import load_keymap

    keymap = load_keymap()
    assert keymap.screen_keys["app.session.togglePrintRuns"] == ["ctrl+y"]
    assert keymap.action_for("ctrl+y") is None and keymap.action_for("ctrl+d") == "app.exit"  # not global
    app = make_app(_open(home, files["current"]))
    app.keymap = keymap
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        await pilot.press("ctrl+o")
        assert "scripted question" not in _labels(picker)
        await pilot.press("ctrl+y")
        assert "scripted question" in _labels(picker)
        assert "Ctrl+Y -p runs" in str(picker.query_one("#resume-hint").render())
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is not picker)
        app.prompt_input.insert("/hotkeys")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Session picker: show / hide one-shot -p runs" in transcript_text(app))
        row = next(line for line in transcript_text(app).splitlines() if "one-shot -p runs" in line)
        assert "Ctrl+Y" in row


async def test_resume_flag_opens_the_picker_at_start(home: Path) -> None:
    files = _folder(home)
    app = make_app(_open(home, files["current"]))
    app.open_resume_on_start = True
    async with app.run_test(size=(120, 34)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ResumePicker) and bool(app.screen.rows))


async def test_resuming_a_session_of_another_folder_says_where_tools_run(home: Path) -> None:
    files = _folder(home)
    app = make_app(_open(home, files["current"]))
    async with app.run_test(size=(120, 34)) as pilot:
        picker = await _picker(pilot)
        await pilot.press("tab")
        await wait_until(pilot, lambda: "question in another folder" in _labels(picker))
        while picker.highlighted_row is not None and "another folder" not in session_label(picker.highlighted_row.info):
            await pilot.press("down")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "This session was started in /somewhere/else" in transcript_text(app))
        assert str(home) in transcript_text(app).replace("\n ", "")
