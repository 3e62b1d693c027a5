"""Images in the app (issue 12): Ctrl+V from a fake clipboard tool (a script on PATH), a dropped (pasted) path,
a typed path, the pending line above the editor, removing, sending to a vision and a text-only model, bad files."""

from __future__ import annotations

import base64
import io
import stat
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from textual import events

from pi_tui.ai.providers.faux import faux_assistant_message
from pi_tui.coding.images import ImageError, load_image_file
from pi_tui.tui.controllers.images import EMPTY_MESSAGE, NO_DISPLAY_MESSAGE, NO_TOOL_MESSAGE
from pi_tui.tui.widgets.image_card import UserImagesItem
from pi_tui.tui.widgets.transcript_items import NoticeItem

from .helpers import make_app, make_session, settle, wait_until

pytestmark = pytest.mark.anyio


def png(path: Path, size: tuple[int, int] = (64, 32), colour: tuple[int, int, int] = (200, 30, 30)) -> Path:
    Image.new("RGB", size, colour).save(path, "PNG")
    return path


def fake_wl_paste(bin_dir: Path, image: Path | None, text: str | None = None) -> None:
    """A ``wl-paste`` that offers ``image`` as image/png (and/or ``text``), like wl-clipboard's."""
    bin_dir.mkdir(exist_ok=True)
    types = ("image/png\n" if image else "") + ("text/plain;charset=utf-8\n" if text is not None else "")
    script = f"""#!/bin/sh
PATH=/usr/bin:/bin
case "$*" in
  "--list-types") printf '{types}' ;;
  "--type image/png --no-newline") {'cat ' + str(image) if image else 'exit 1'} ;;
  "--no-newline") {'printf %s ' + repr(text) if text is not None else 'exit 1'} ;;
  *) exit 1 ;;
esac
"""
    tool = bin_dir / "wl-paste"
    tool.write_text(script)
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)


@pytest.fixture
def clipboard_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Only ``tmp_path/bin`` on PATH (no real clipboard tool), a Wayland session, not WSL."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-test")
    monkeypatch.delenv("WSL_DISTRO_NAME", raising=False)
    monkeypatch.delenv("WSLENV", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setattr("pi_tui.tui.image_paste.is_wsl", lambda env: False)
    return bin_dir


def recording_step(seen: list[Any]) -> Any:
    def step(context: Any, options: Any, state: Any, model: Any) -> Any:
        seen.append(context)
        return faux_assistant_message("I see it.")
    return step


def last_user_content(context: Any) -> list[Any]:
    users = [m for m in context.messages if m.role == "user"]
    content = users[-1].content
    return content if isinstance(content, list) else []


def notices(app: Any) -> list[str]:
    return [item.text for item in app.transcript.items if isinstance(item, NoticeItem)]


async def test_ctrl_v_attaches_the_clipboard_image_and_sends_it(tmp_path: Path, clipboard_env: Path) -> None:
    fake_wl_paste(clipboard_env, png(tmp_path / "clip.png", (80, 40)))
    seen: list[Any] = []
    session, _ = make_session(tmp_path, [recording_step(seen)])
    app = make_app(session)
    async with app.run_test(size=(110, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+v")
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1)
        attachment = app.image_attachments.pending[0]
        assert attachment.name.startswith("pi-clipboard-") and attachment.name.endswith(".png")  # pi's temp name
        assert (attachment.width, attachment.height) == (80, 40)
        assert app.attachment_bar.display and "80x40" in str(app.attachment_bar.render())
        await pilot.press(*"what is this", "enter")
        await wait_until(pilot, lambda: bool(seen))
        await app.session.wait_for_idle()
        content = last_user_content(seen[0])
        assert [b.type for b in content] == ["text", "image"]
        assert content[0].text == f'<file name="{attachment.path}"></file>\nwhat is this'  # pi's @file line
        assert content[1].mime_type == "image/png"
        assert not app.image_attachments.pending and not app.attachment_bar.display
        await pilot.pause()
        cards = [i for i in app.transcript.items if isinstance(i, UserImagesItem)]
        assert len(cards) == 1 and cards[0].text == "what is this"
        assert cards[0].images[0][0] == attachment.name


async def test_ctrl_v_with_text_on_the_clipboard_pastes_the_text(tmp_path: Path, clipboard_env: Path) -> None:
    fake_wl_paste(clipboard_env, None, text="hello from the clipboard")
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+v")
        await wait_until(pilot, lambda: app.prompt_input.text == "hello from the clipboard")
        assert not app.image_attachments.pending


async def test_ctrl_v_without_a_clipboard_tool_says_so(tmp_path: Path, clipboard_env: Path) -> None:
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+v")
        await wait_until(pilot, lambda: NO_TOOL_MESSAGE in notices(app))
        assert app.prompt_input.text == ""


async def test_ctrl_v_without_a_display_says_so(tmp_path: Path, clipboard_env: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    fake_wl_paste(clipboard_env, png(tmp_path / "clip.png"))
    monkeypatch.delenv("WAYLAND_DISPLAY")
    monkeypatch.setenv("XDG_SESSION_TYPE", "tty")
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+v")
        await wait_until(pilot, lambda: NO_DISPLAY_MESSAGE in notices(app))
        assert not app.image_attachments.pending


async def test_ctrl_v_with_an_empty_clipboard_says_so(tmp_path: Path, clipboard_env: Path) -> None:
    fake_wl_paste(clipboard_env, None)
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+v")
        await wait_until(pilot, lambda: EMPTY_MESSAGE in notices(app))


async def test_a_dropped_path_attaches_instead_of_inserting_text(tmp_path: Path) -> None:
    shot = png(tmp_path / "my shot.png")
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(f"'{shot}' "))  # GNOME Terminal's form of a dropped file
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1)
        assert app.prompt_input.text == ""
        assert app.image_attachments.pending[0].name == "my shot.png"
        app.post_message(events.Paste("just text"))  # other pastes are text as before
        await wait_until(pilot, lambda: app.prompt_input.text == "just text")


async def test_removing_pending_images(tmp_path: Path) -> None:
    one, two = png(tmp_path / "one.png"), png(tmp_path / "two.png")
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(f"{one} {two}"))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 2)
        await pilot.press("backspace")  # empty editor: the last one goes
        assert [a.name for a in app.image_attachments.pending] == ["one.png"]
        await pilot.press("x", "backspace")  # a Backspace that deletes text never removes one
        assert len(app.image_attachments.pending) == 1
        await pilot.click(app.attachment_bar, offset=(3, 0))  # a click on the entry
        assert app.image_attachments.pending == []
        assert not app.attachment_bar.display


async def test_a_typed_image_path_is_attached_and_the_text_kept(tmp_path: Path) -> None:
    png(tmp_path / "diagram.png", (30, 20))
    seen: list[Any] = []
    session, _ = make_session(tmp_path, [recording_step(seen)])
    app = make_app(session, cwd=str(tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.prompt_input.insert("explain diagram.png and missing.png please")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(seen))
        content = last_user_content(seen[0])
        assert [b.type for b in content] == ["text", "image"]  # missing.png does not exist: text only
        assert content[0].text.endswith("\nexplain diagram.png and missing.png please")


async def test_a_text_only_model_is_told_and_the_text_still_goes(tmp_path: Path) -> None:
    seen: list[Any] = []
    session, faux = make_session(tmp_path, [recording_step(seen)])
    text_only = faux.get_model().model_copy(update={"input": ["text"], "name": "Texty"})
    session.models.allow(faux.provider, text_only.id, text_only)
    session.set_model(text_only)
    app = make_app(session)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(str(png(tmp_path / "a.png"))))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1)
        await pilot.press(*"hi", "enter")
        await wait_until(pilot, lambda: bool(seen))
        assert any(n.startswith("Texty does not accept images: a.png not sent to it") for n in notices(app))
        assert last_user_content(seen[0])[0].text.endswith("hi")


async def test_a_corrupt_image_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    session, _ = make_session(tmp_path, [])
    app = make_app(session)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(str(bad)))
        await wait_until(pilot, lambda: any("Image not attached: broken.png" in n for n in notices(app)))
        assert app.image_attachments.pending == [] and app.prompt_input.text == ""
        with pytest.raises(ImageError):
            load_image_file(str(bad))


async def test_a_huge_image_is_resized_before_it_is_sent(tmp_path: Path) -> None:
    big = png(tmp_path / "big.png", (4000, 3000))
    seen: list[Any] = []
    session, _ = make_session(tmp_path, [recording_step(seen)])
    app = make_app(session)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        app.post_message(events.Paste(str(big)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1, limit=30)
        await pilot.press(*"look", "enter")
        await wait_until(pilot, lambda: bool(seen))
        text, image = last_user_content(seen[0])
        assert "[Image: original 4000x3000, displayed at 2000x1500." in text.text
        with Image.open(io.BytesIO(base64.b64decode(image.data))) as sent:
            assert sent.size == (2000, 1500)


async def test_at_file_images_go_with_the_first_message(tmp_path: Path) -> None:
    """``pi-tui @shot.png "what is this"``: the CLI hands the image to the app (launch: initial_images), the
    first message waits for it and takes it."""
    from pi_tui.cli import _read_file_args

    shot = png(tmp_path / "shot.png")
    (tmp_path / "notes.md").write_text("n")
    files = _read_file_args(["shot.png", "notes.md"], str(tmp_path), load_images=False)
    assert files.image_paths == [str(shot)] and files.images == []  # the app reads them (attachment bar)
    assert files.text == f'<file name="{tmp_path / "notes.md"}">\nn\n</file>\n'
    seen: list[Any] = []
    session, _ = make_session(tmp_path, [recording_step(seen)])
    app = make_app(session, initial_messages=["what is this"])
    app.image_attachments.initial_paths = [str(shot)]
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: bool(seen), limit=20)
        content = last_user_content(seen[0])
        assert [b.type for b in content] == ["text", "image"]
        assert content[0].text == f'<file name="{shot}"></file>\nwhat is this'
