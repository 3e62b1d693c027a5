"""Snapshot: a prompt sent with an image (card + half-block preview in the transcript) and another image pending
above the editor (issue 12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw
from textual import events

from pi_tui.ai.providers.faux import faux_assistant_message
from tests.tui.helpers import SNAPSHOT_CWD, make_app, settle, snapshot_session, wait_until

SIZE = (100, 34)


def _picture(path: Path, size: tuple[int, int]) -> Path:
    """A deterministic picture: a blue-to-orange gradient with a white disc."""
    image = Image.new("RGB", size)
    draw = ImageDraw.Draw(image)
    for x in range(size[0]):
        t = x / max(1, size[0] - 1)
        draw.line([(x, 0), (x, size[1])], fill=(int(40 + 200 * t), int(80 + 60 * t), int(220 - 180 * t)))
    r = min(size) // 3
    cx, cy = size[0] // 2, size[1] // 2
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(250, 250, 250))
    image.save(path, "PNG")
    return path


def build_image_card() -> tuple[Any, Any, tuple[int, int]]:
    folder = SNAPSHOT_CWD / "images"
    folder.mkdir(parents=True, exist_ok=True)
    shot = _picture(folder / "screenshot.png", (320, 120))
    pending = _picture(folder / "diagram.png", (90, 60))
    session, _ = snapshot_session([faux_assistant_message("A white disc on a blue-to-orange gradient.")])
    app = make_app(session)

    async def drive(pilot: Any) -> None:
        await settle(pilot)
        app.ctx.image_previews = True  # deterministic: not taken from the test's terminal
        app.ctx.image_width_cells = 40
        app.post_message(events.Paste(str(shot)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1)
        app.prompt_input.insert("What is in this picture?")
        await pilot.press("enter")
        await settle(pilot)
        app.post_message(events.Paste(str(pending)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1)
        await pilot.pause()
        app.transcript.flush()
        await pilot.pause()

    return app, drive, SIZE


def test_image_card(snap_compare: Any) -> None:
    app, drive, size = build_image_card()
    assert snap_compare(app, run_before=drive, terminal_size=size)
