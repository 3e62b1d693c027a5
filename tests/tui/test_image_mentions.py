"""An image named with ``@`` in the editor (issue 12: "attach a PNG by typed path and by ``@path``"): the @
mention reader (``coding.file_args``) and the image attachments share the file, which goes once, as an image;
only what the user typed is searched for paths, never the text of a file attached in front of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .helpers import make_app, make_session, settle, wait_until
from .test_image_attach import last_user_content, notices, png, recording_step

pytestmark = pytest.mark.anyio


async def _send(tmp_path: Path, typed: str) -> tuple[Any, list[Any]]:
    seen: list[Any] = []
    session, _ = make_session(tmp_path, [recording_step(seen)])
    app = make_app(session)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        app.prompt_input.insert(typed)
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(seen), limit=20)
        await app.session.wait_for_idle()
        return app, last_user_content(seen[0]) or [m for m in seen[0].messages if m.role == "user"][-1].content


async def test_an_at_mentioned_image_goes_once_as_an_image(tmp_path: Path) -> None:
    shot = png(tmp_path / "shot.png", (40, 20))
    app, content = await _send(tmp_path, "what is in @shot.png")
    assert [b.type for b in content] == ["text", "image"]
    assert content[0].text == f'<file name="{shot}"></file>\nwhat is in @shot.png'  # one file line, pi's form
    assert not any("Not attached" in n for n in notices(app))


async def test_an_at_mentioned_image_without_an_image_extension_is_an_image(tmp_path: Path) -> None:
    shot = png(tmp_path / "screenshot", (40, 20))  # no extension: found by its bytes (pi: detect by content)
    app, content = await _send(tmp_path, "look at @screenshot")
    assert [b.type for b in content] == ["text", "image"]
    assert content[0].text == f'<file name="{shot}"></file>\nlook at @screenshot'


async def test_paths_inside_an_attached_file_are_not_attached(tmp_path: Path) -> None:
    png(tmp_path / "logo.png")
    notes = tmp_path / "notes.md"
    notes.write_text("the logo is logo.png, see @logo.png\n")
    app, content = await _send(tmp_path, "summarise @notes.md")
    texts = content if isinstance(content, str) else "".join(b.text for b in content if b.type == "text")
    assert [getattr(b, "type", "text") for b in (content if isinstance(content, list) else [])] in ([], ["text"])
    assert texts == f'<file name="{notes}">\nthe logo is logo.png, see @logo.png\n\n</file>\nsummarise @notes.md'
