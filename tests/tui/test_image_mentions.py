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


async def test_images_of_a_refused_prompt_stay_attached(tmp_path: Path) -> None:
    """A prompt refused before it starts (no model) gives its text back to the editor (test_refused_prompt_kept)
    and its images back to the bar: nothing the user attached is lost."""
    from textual import events

    shot = png(tmp_path / "shot.png", (40, 20))
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(str(shot)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1)
        session.agent.state.model = None
        app.prompt_input.insert("describe it")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.prompt_input.text == "describe it")
        await wait_until(pilot, lambda: [a.path for a in app.image_attachments.pending] == [str(shot)])
        assert app.attachment_bar.display


async def test_text_of_at_file_arguments_is_not_searched_for_images(tmp_path: Path) -> None:
    """``pi-tui @notes.md "what is this?"`` where notes.md names shot.png: only notes.md goes (seen in tmux:
    the inlined notes were searched as if typed and shot.png was attached too); the file text is in front."""
    from pi_tui.cli import _read_file_args

    png(tmp_path / "shot.png")
    notes = tmp_path / "notes.md"
    notes.write_text("notes about shot.png and @shot.png\n")
    files = _read_file_args(["notes.md"], str(tmp_path), load_images=False)
    seen: list[Any] = []
    session, _ = make_session(tmp_path, [recording_step(seen)])
    app = make_app(session, initial_messages=["what is this?"])
    app.initial_file_text = files.text  # as launch.run_app sets it
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: bool(seen), limit=20)
        await app.session.wait_for_idle()
    user = [m for m in seen[0].messages if m.role == "user"][-1]
    content = user.content if isinstance(user.content, list) else []
    assert [b.type for b in content] == ["text"]
    assert content[0].text == f'<file name="{notes}">\nnotes about shot.png and @shot.png\n\n</file>\nwhat is this?'


async def test_at_file_text_without_a_message_is_sent_at_once(tmp_path: Path) -> None:
    """``pi-tui @notes.md``: pi sends the file blocks as the first message."""
    from pi_tui.cli import _read_file_args

    notes = tmp_path / "notes.md"
    notes.write_text("n\n")
    files = _read_file_args(["notes.md"], str(tmp_path), load_images=False)
    seen: list[Any] = []
    session, _ = make_session(tmp_path, [recording_step(seen)])
    app = make_app(session, initial_messages=[""])
    app.initial_file_text = files.text
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: bool(seen), limit=20)
        await app.session.wait_for_idle()
    user = [m for m in seen[0].messages if m.role == "user"][-1]
    texts = user.content if isinstance(user.content, str) else "".join(b.text for b in user.content)
    assert texts == f'<file name="{notes}">\nn\n\n</file>\n'
