"""Snapshot: the ``/tree`` screen on a branched session written by pi 0.73.1 (tests/fixtures/pi-sessions/
pi-branched.raw.jsonl: two branches from one reply, a tool call, labels, a branch summary), opened with
``/resume``'s switch and shown by typing ``/tree`` Enter; the clock is fixed (UTC) so entry times are stable."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pi_tui.tui.modals import session_tree
from pi_tui.tui.modals.session_tree import SessionTreeScreen
from tests.tui.helpers import make_app, settle, snapshot_session, wait_until

from .scenarios import SIZE

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "pi-sessions" / "pi-branched.raw.jsonl"
COPY = Path("/tmp/pi-tui-snapshot-tree/pi-branched.jsonl")


def build_session_tree() -> tuple[Any, Any, tuple[int, int]]:
    """``(app, drive, size)`` for the tree screen."""
    COPY.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FIXTURE, COPY)
    session, _ = snapshot_session()
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        await app.session.switch_session(COPY)
        app.rebuild_transcript()
        app.prompt_input.insert("/tree")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SessionTreeScreen))
        await pilot.pause(0.2)

    return app, drive, SIZE


def test_session_tree(snap_compare: Any) -> None:
    session_tree.FIXED_NOW = datetime(2026, 12, 1, 16, 0, tzinfo=UTC)
    try:
        app, drive, size = build_session_tree()
        assert snap_compare(app, run_before=drive, terminal_size=size)
    finally:
        session_tree.FIXED_NOW = None
