"""Snapshot: the ``/resume`` picker with the preview of a forked session (issue 12; session_scenarios.py):
the open session marked, a fork under its named parent, the ``-p`` run hidden."""

from __future__ import annotations

from typing import Any

from .session_scenarios import build_resume_picker


def test_resume_picker(snap_compare: Any) -> None:
    app, drive, size = build_resume_picker()
    assert snap_compare(app, run_before=drive, terminal_size=size)
