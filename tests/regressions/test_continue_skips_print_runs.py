"""The app's ``-c`` continues the last interactive session, passing over one-shot ``-p`` runs, which ``/resume``
hides too (new-user run #39: after a quick ``pi-tui -p`` in the same folder, ``pi-tui -c`` opened that run instead
of the session the user was working in). Print mode's ``-c`` still continues the most recent session of any kind
(pi's rule: a script chains ``-p -c`` calls)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from pi_tui.coding.agent_session.factory import create_agent_session
from tests.tui.snapshots.session_scenarios import write_session


def test_the_apps_continue_passes_over_print_runs(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    work = write_session(sessions, "0aaaaaaa-0000-7000-8000-000000000001", 1, [("interactive work", "ok")],
                         cwd=str(tmp_path))
    old = time.time() - 60
    os.utime(work, (old, old))
    quick = write_session(sessions, "0bbbbbbb-0000-7000-8000-000000000002", 2, [("a quick -p question", "ok")],
                          cwd=str(tmp_path), print_run=True)
    script = create_agent_session(str(tmp_path), session_dir=str(sessions), continue_recent=True, no_mcp=True)
    assert Path(script.session_file).resolve() == quick.resolve()
    script.dispose()
    os.utime(quick, None)  # still the newest
    app = create_agent_session(str(tmp_path), session_dir=str(sessions), continue_recent=True, skip_print_runs=True,
                               no_mcp=True)
    assert Path(app.session_file).resolve() == work.resolve()
