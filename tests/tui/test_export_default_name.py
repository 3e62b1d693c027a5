"""``/export`` with no path names the file after the whole session file (pi 0.73.1 ``exportSessionToHtml``:
``pi-session-<session file basename>.html``), so two sessions never share a default export (new-user run #21:
the name used the first 8 hex digits of the UUIDv7, the same for every session started within ~65 s; a quick
``/new`` + ``/export`` silently replaced the first session's export)."""

from __future__ import annotations

from itertools import count
from pathlib import Path
from typing import Any

import pytest

from pi_tui.ai.providers.faux import faux_assistant_message, register_faux_provider
from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.session import session_manager

from .helpers import make_app, transcript_text, wait_until

pytestmark = pytest.mark.anyio

# two UUIDv7s of the same minute, as in the tester's run (01a232c6-60a6-… and 01a232c6-7dd0-…)
IDS = ["01a232c6-60a6-78bd-8000-000000000001", "01a232c6-7dd0-7bd3-8000-000000000002",
       "01a232c6-7dd0-7bd3-8000-000000000003", "01a232c6-7dd0-7bd3-8000-000000000004"]


@pytest.fixture
def same_minute_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    ids = iter(IDS)
    fallback = count()
    monkeypatch.setattr(session_manager, "new_session_id",
                        lambda: next(ids, f"01a232c6-ffff-7000-8000-{next(fallback):012d}"))


def _session(tmp_path: Path) -> Any:
    faux = register_faux_provider(provider="faux", models=[{"id": "faux-1"}])
    faux.set_responses([faux_assistant_message("alpha reply"), faux_assistant_message("beta reply")])
    session = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"))
    model = faux.get_model()
    session.models.allow(model.provider, model.id, model)
    session.set_model(model, announce=False)
    return session


async def _send(pilot: Any, text: str) -> None:
    app = pilot.app
    app.prompt_input.set_text(text)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not app.working and not app.session.is_streaming)
    await app.session.wait_for_idle()


async def test_exports_of_sessions_of_the_same_minute_do_not_overwrite_each_other(
        tmp_path: Path, same_minute_ids: None) -> None:
    session = _session(tmp_path)
    app = make_app(session)
    async with app.run_test(size=(120, 34)) as pilot:
        await wait_until(pilot, lambda: app.session_ready)
        written: list[Path] = []
        ids8: list[str] = []
        for word in ("alpha", "beta"):
            if word == "beta":
                before = app.session.session_id
                app.prompt_input.set_text("/new")
                await pilot.press("enter")
                await wait_until(pilot, lambda before=before: app.session.session_id != before)
            await _send(pilot, f"session {word} msg")
            stem = Path(str(app.session.session_file)).stem
            target = tmp_path / f"pi-tui-session-{stem}.html"
            app.prompt_input.set_text("/export")
            await pilot.press("enter")
            await wait_until(pilot, lambda target=target: f"Sessionexportedto:{target}"
                             in "".join(transcript_text(app).split()))  # the path wraps on screen
            written.append(target)
            ids8.append(app.session.session_id[:8])
        assert written[0] != written[1] and len(set(ids8)) == 1  # the sessions share their first 8 hex digits
        assert "session alpha msg" in written[0].read_text(encoding="utf-8")
        assert "session beta msg" in written[1].read_text(encoding="utf-8")
        assert "session alpha msg" not in written[1].read_text(encoding="utf-8")
        assert "replaced" not in transcript_text(app)
        # writing over an existing file (here alpha's export, named on purpose) is said, never silent
        app.prompt_input.set_text(f"/export {written[0]}")
        await pilot.press("enter")
        await wait_until(pilot, lambda: "(replaced the file there)" in transcript_text(app))
        assert "session beta msg" in written[0].read_text(encoding="utf-8")


def test_the_markdown_default_is_per_session_too(tmp_path: Path, same_minute_ids: None) -> None:
    first = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"))
    second = create_agent_session(str(tmp_path), session_dir=str(tmp_path / "sessions"))
    assert first.session_id[:8] == second.session_id[:8]
    paths = {first.export_markdown(), second.export_markdown()}
    assert len(paths) == 2 and all(Path(p).is_file() for p in paths)
    in_memory = create_agent_session(str(tmp_path), no_session=True)  # no file: the whole session id
    assert Path(in_memory.export_markdown()).name == f"pi-tui-session-{in_memory.session_id}.md"
