"""Snapshot: three pending images in a 60-column terminal (issue 12): the attachment bar keeps each entry whole
on its line and leaves out the hint where it does not fit."""

from __future__ import annotations

from typing import Any

from textual import events

from tests.tui.helpers import SNAPSHOT_CWD, make_app, settle, snapshot_session, wait_until
from tests.tui.snapshots.test_snap_image_card import _picture

SIZE = (60, 16)


def build_attachment_bar() -> tuple[Any, Any, tuple[int, int]]:
    folder = SNAPSHOT_CWD / "images"
    folder.mkdir(parents=True, exist_ok=True)
    paths = [_picture(folder / name, size) for name, size in
             (("screenshot-one.png", (320, 120)), ("screenshot-two.png", (300, 200)), ("diagram.png", (90, 60)))]
    session, _ = snapshot_session([])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        app.post_message(events.Paste(" ".join(str(p) for p in paths)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 3)
        await pilot.pause()

    return app, drive, SIZE


def test_attachment_bar_narrow(snap_compare: Any) -> None:
    app, drive, size = build_attachment_bar()
    assert snap_compare(app, run_before=drive, terminal_size=size)
