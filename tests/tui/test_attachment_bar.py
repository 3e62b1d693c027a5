"""The attachment bar above the editor (issue 12) in a narrow terminal: an entry is never split across lines
(seen in tmux at 60 columns: ``5.5`` and ``KB`` on two lines), at most three lines with ``+N more``, the hint only
where it fits, and a click on an entry of the second line removes that entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events

from pi_tui.tui.widgets.attachment_bar import GAP

from .helpers import make_app, make_session, settle, wait_until
from .test_image_attach import png

pytestmark = pytest.mark.anyio


def _lines(app: object) -> list[str]:
    bar = app.attachment_bar  # type: ignore[attr-defined]
    return bar.lay_out(bar.content_region.width).plain.split("\n")


async def test_entries_are_never_split_in_a_narrow_bar(tmp_path: Path) -> None:
    names = ["screenshot-one.png", "screenshot-two.png", "diagram.png"]
    paths = [png(tmp_path / name, (300 + i, 150)) for i, name in enumerate(names)]
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(" ".join(str(p) for p in paths)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 3)
        await pilot.pause()
        lines = _lines(app)
        assert 1 < len(lines) <= 3 and app.attachment_bar.size.height == len(lines)
        for n, name in enumerate(names, 1):  # each entry whole on one line: its name, size and ✕
            line = next(line for line in lines if f"[{n}] " in line)
            entry = line.split(f"[{n}] ", 1)[1]
            head = entry.split(GAP, 1)[0].rstrip()
            assert head.startswith(f"{name} ") and head.endswith("B ✕"), line
        assert all(len(line) <= 58 for line in lines)
        second = 1  # the first entry of the second line
        start = lines[second].index("[")
        number = int(lines[second][start + 1])
        await pilot.click(app.attachment_bar, offset=(1 + start + 1, second))
        assert names[number - 1] not in [a.name for a in app.image_attachments.pending]
        assert len(app.image_attachments.pending) == 2


async def test_many_entries_end_with_a_count(tmp_path: Path) -> None:
    paths = [png(tmp_path / f"capture-{i:02}.png", (200, 100)) for i in range(9)]
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(60, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(" ".join(str(p) for p in paths)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 9)
        await pilot.pause()
        lines = _lines(app)
        assert len(lines) == 3 and app.attachment_bar.size.height == 3
        assert lines[-1].rstrip().endswith("more") and "+" in lines[-1]
        shown = sum(line.count("✕") for line in lines)
        assert f"+{9 - shown} more" in lines[-1]
