"""Scenarios of the session pickers (issue 12): the ``/fork`` picker and the ``/resume`` picker with its preview.

Session files are written with fixed ids, times and folders (the screen shows dates, folders and names), and the app's session is opened from one of them, so every run draws the same screen.
"""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pi_tui.ai.providers.faux import register_faux_provider
from pi_tui.coding.agent_session.factory import create_agent_session
from tests.tui.helpers import SNAPSHOT_CWD, make_app, wait_until


def _sessions_dir() -> Path:
    """A fresh folder per scenario (never shown on screen; runs in parallel worktrees must not share it)."""
    return Path(tempfile.mkdtemp(prefix="pi-tui-snapshot-sessions-")) / "--tmp-pi-tui-snapshot-cwd--"
SIZE = (120, 34)


def write_session(directory: Path, sid: str, day: int, turns: list[tuple[str, str]], *, name: str | None = None,
                  parent: Path | None = None, print_run: bool = False, cwd: str = str(SNAPSHOT_CWD)) -> Path:
    """A pi v3 session file: ``turns`` of (user text, assistant text) from 2026-11-``day`` 09:00 on, one
    minute apart; ``name`` as a ``session_info`` entry; ``parent`` as ``parentSession``."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = f"2026-11-{day:02d}T09:00:00.000Z"
    header: dict[str, Any] = {"type": "session", "version": 3, "id": sid, "timestamp": stamp, "cwd": cwd}
    if parent is not None:
        header["parentSession"] = str(parent)
    if print_run:
        header["runMode"] = "print"
    lines: list[dict[str, Any]] = [header]
    parent_id: str | None = None
    n = 0
    base_ms = int(datetime(2026, 11, day, 9, tzinfo=UTC).timestamp() * 1000)
    for user, answer in turns:
        for role, text in (("user", user), ("assistant", answer)):
            n += 1
            entry_id = f"{sid[:4]}{n:04x}"
            message: dict[str, Any] = {"role": role, "content": [{"type": "text", "text": text}],
                                       "timestamp": base_ms + n * 60000}
            if role == "assistant":
                message.update({"api": "faux", "provider": "faux", "model": "faux-1", "stopReason": "stop",
                                "usage": {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0,
                                          "totalTokens": 15, "cost": {"input": 0, "output": 0, "cacheRead": 0,
                                                                      "cacheWrite": 0, "total": 0}}})
            lines.append({"type": "message", "id": entry_id, "parentId": parent_id,
                          "timestamp": f"2026-11-{day:02d}T09:{n:02d}:00.000Z", "message": message})
            parent_id = entry_id
    if name:
        lines.append({"type": "session_info", "id": f"{sid[:4]}ffff", "parentId": parent_id,
                      "timestamp": f"2026-11-{day:02d}T10:00:00.000Z", "name": name})
    path = directory / f"2026-11-{day:02d}T09-00-00-000Z_{sid}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def session_folder() -> dict[str, Path]:
    """A folder of sessions: a named one, a fork of it, the open one, an older one and a ``-p`` run."""
    sessions = _sessions_dir()
    SNAPSHOT_CWD.mkdir(parents=True, exist_ok=True)
    auth = write_session(sessions, "a1b2c3d4-0000-4000-8000-000000000001", 20, [
        ("Refactor the auth module into smaller files", "I split `auth.py` into `tokens.py` and `session.py`."),
        ("Add tests for token refresh", "Added `test_refresh_expired_token` and `test_refresh_race`."),
    ], name="Auth refactor")
    fork = write_session(sessions, "b1b2c3d4-0000-4000-8000-000000000002", 21, [
        ("Refactor the auth module into smaller files", "I split `auth.py` into `tokens.py` and `session.py`."),
        ("Keep one file but split the classes instead", "Kept `auth.py`; `TokenStore` and `Session` are apart."),
    ], parent=auth)
    current = write_session(sessions, "c1b2c3d4-0000-4000-8000-000000000003", 22, [
        ("Why does the CI job time out on macOS?", "The cache step restores 4 GB; skip it on macOS."),
    ])
    old = write_session(sessions, "d1b2c3d4-0000-4000-8000-000000000004", 12, [
        ("Write a README section about themes", "Added **Themes** with the seven built-in names."),
    ])
    write_session(sessions, "e1b2c3d4-0000-4000-8000-000000000005", 23, [
        ("summarise CHANGELOG.md", "Three fixes and one feature since 1.2."),
    ], print_run=True)
    return {"auth": auth, "fork": fork, "current": current, "old": old}


def _open(path: Path) -> Any:
    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1", "name": "Faux One"}])
    session = create_agent_session(str(SNAPSHOT_CWD), session_path=str(path))
    model = faux.get_model()
    assert model is not None
    session.models.allow(model.provider, model.id, model)
    session.set_model(model, announce=False)
    # the file's faux model had no key when it was opened: drop that warning, the screen starts clean
    session.agent.state.messages = [m for m in session.agent.state.messages if m.role != "notification"]
    session.startup_warnings.clear()
    session.agent.state.system_prompt = "You are a helpful coding assistant (snapshot test)."
    return session


def build_resume_picker() -> tuple[Any, Any, tuple[int, int]]:
    """``/resume`` in the folder above, the named session highlighted with its preview loaded."""
    files = session_folder()
    session = _open(files["current"])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        from pi_tui.tui.modals.resume_picker import ResumePicker

        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("/resume")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ResumePicker))
        picker = app.screen
        assert isinstance(picker, ResumePicker)
        await pilot.press("down")  # from the named session (the first other row) to its fork, under it
        await wait_until(pilot, lambda: any(p for p in picker.previews.values()))
        await pilot.pause(0.2)

    return app, drive, SIZE


def build_fork_picker() -> tuple[Any, Any, tuple[int, int]]:
    """``/fork`` in a session with three prompts: the newest highlighted."""
    SNAPSHOT_CWD.mkdir(parents=True, exist_ok=True)
    path = write_session(_sessions_dir(), "f1b2c3d4-0000-4000-8000-000000000006", 22, [
        ("Plan a migration from setup.py to pyproject.toml", "Three steps: metadata, build backend, CI."),
        ("Do step one", "Moved the metadata into `[project]`."),
        ("Now switch the build backend to hatchling\nand keep the version dynamic",
         "Done: `hatchling` with `dynamic = [\"version\"]`."),
    ])
    session = _open(path)
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        from pi_tui.tui.modals.fork_picker import ForkPicker

        await wait_until(pilot, lambda: app.session_ready)
        app.prompt_input.insert("/fork")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ForkPicker))
        await pilot.pause(0.2)

    return app, drive, SIZE


SESSION_SCENARIOS = {"resume_picker": build_resume_picker, "fork_picker": build_fork_picker}
"""The scenarios of this file by name (``scripts/make_screenshots.py`` adds them to its set)."""
