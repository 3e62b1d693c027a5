"""A sibling of new-user run #3: a prompt naming an image and a text file with ``@`` shows the words typed, the
text file as a ``[file]`` line and the image as its card; the text file's ``<file>`` XML was shown raw
(widgets/image_card.py, widgets/user_message_item.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import make_app, make_session, settle, transcript_text, wait_until
from .test_image_attach import png, recording_step

pytestmark = pytest.mark.anyio


async def test_an_image_and_a_text_file_together(tmp_path: Path) -> None:
    png(tmp_path / "shot.png", (40, 20))
    (tmp_path / "notes.md").write_text("first note\nsecond note\n")
    seen: list[object] = []
    session, _ = make_session(tmp_path, [recording_step(seen)])
    app = make_app(session)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        app.prompt_input.insert("compare @shot.png with @notes.md")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(seen), limit=20)
        await app.session.wait_for_idle()
        await settle(pilot)
        text = transcript_text(app)
        assert "<file" not in text and "first note" not in text
        assert "compare @shot.png with @notes.md" in text and "[file] notes.md · 2 lines" in text
        assert "shot.png" in text.split("[file] notes.md")[1]  # the image's card below
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert "first note" in transcript_text(app)
