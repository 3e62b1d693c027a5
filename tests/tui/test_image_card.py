"""Image cards and previews in the transcript (widgets/image_card.py), tool-result image labels, Ctrl+V in
/hotkeys, and a steering message sent with an image while the agent works."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from textual import events

from pi_tui.ai.providers.faux import faux_assistant_message, faux_tool_call
from pi_tui.ai.types import ImageContent, TextContent
from pi_tui.tui.theme_loader import find_theme
from pi_tui.tui.widgets import tool_format
from pi_tui.tui.widgets.image_card import (
    UserImagesItem,
    preview_strips,
    split_file_tags,
    terminal_shows_pixels,
    user_item,
)
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.transcript_items import UserItem

from .helpers import make_app, make_session, settle, wait_until


def _b64_png(size: tuple[int, int], colour: tuple[int, int, int] = (255, 0, 0)) -> str:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode("ascii")


@pytest.mark.parametrize(("env", "expected"), [
    ({"COLORTERM": "truecolor"}, True),
    ({"COLORTERM": "24bit", "TMUX": "/tmp/x"}, True),
    ({"TERM_PROGRAM": "iTerm.app"}, True),
    ({"KITTY_WINDOW_ID": "1"}, True),
    ({"TERM": "xterm-256color"}, False),
    ({"COLORTERM": "truecolor", "NO_COLOR": "1"}, False),
    ({}, False),
])
def test_terminal_detection(env: dict[str, str], expected: bool) -> None:
    assert terminal_shows_pixels(env) is expected


def test_file_tags_are_split_from_the_text() -> None:
    text = '<file name="/a/shot.png"></file>\n<file name="/b/big.jpg">[Image: original 4000x3000, displayed at ' \
           '2000x1500. Multiply coordinates by 2.00 to map to original image.]</file>\nwhat is this?'
    assert split_file_tags(text) == (["/a/shot.png", "/b/big.jpg"], "what is this?")
    assert split_file_tags("no tags") == ([], "no tags")


def test_user_item_for_plain_and_image_messages() -> None:
    assert type(user_item("hello")) is UserItem
    assert type(user_item([TextContent(text="hi")])) is UserItem
    data = _b64_png((10, 10))
    item = user_item([TextContent(text='<file name="/x/pic.png"></file>\nlook'), ImageContent(data=data, mime_type="image/png"),
                      {"type": "image", "data": data, "mimeType": "image/png"}])  # a dict, as pi's JSON loads
    assert isinstance(item, UserImagesItem)
    assert item.text == "look"
    assert [name for name, _ in item.images] == ["pic.png", None]


def test_card_and_preview_render() -> None:
    ctx = RenderContext(find_theme("dark"))
    data = _b64_png((100, 50), (0, 0, 255))
    item = UserImagesItem("look", [("pic.png", ImageContent(data=data, mime_type="image/png"))])
    plain = ["".join(seg.text for seg in strip) for strip in item.strips(ctx, 80)]
    assert any("pic.png" in line and "100x50" in line and "image/png" in line for line in plain)
    assert not any("▀" in line for line in plain)  # previews off by default
    ctx.image_previews = True
    ctx.bump()
    lines = item.strips(ctx, 80)
    blocks = [strip for strip in lines if "▀" in strip.text]
    assert 1 <= len(blocks) <= 12
    assert all(strip.cell_length == 80 for strip in lines)
    style = next(seg.style for seg in blocks[0] if seg.text == "▀")
    assert style is not None and style.color is not None and style.color.triplet == (0, 0, 255)


def test_preview_of_bad_data_is_empty_and_never_raises() -> None:
    assert preview_strips(base64.b64encode(b"\x89PNG\r\n\x1a\nnope").decode(), 40) == []
    assert preview_strips("%%%", 40) == []


def test_tool_result_images_are_labelled() -> None:
    data = _b64_png((30, 20))
    text = tool_format.result_text([TextContent(text="Read image file [image/png]"),
                                    ImageContent(data=data, mime_type="image/png")])
    assert text.splitlines()[1].startswith("[image image/png 30x20 ")
    assert tool_format.result_text([{"type": "image"}]) == "[image]"


@pytest.mark.anyio
async def test_ctrl_v_is_in_hotkeys_and_remappable(tmp_path: Path) -> None:
    from pi_tui.tui.keymap import Keymap

    keymap = Keymap()
    assert keymap.action_for("ctrl+v") == "app.clipboard.pasteImage"
    keymap.keys["app.clipboard.pasteImage"] = ["alt+v"]
    session, _ = make_session(tmp_path, [])
    app = make_app(session, keymap=keymap)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.run_slash("/hotkeys")
        await pilot.pause()
        text = "\n".join(getattr(i, "text", "") for i in app.transcript.items)
        assert "Paste an image from the clipboard" in text and "Alt+V" in text


@pytest.mark.anyio
async def test_an_image_sent_while_the_agent_works_goes_with_the_steering_message(tmp_path: Path) -> None:
    shot = tmp_path / "s.png"
    Image.new("RGB", (8, 8)).save(shot)
    seen: list[Any] = []

    def last(context: Any, options: Any, state: Any, model: Any) -> Any:
        seen.append(context)
        return faux_assistant_message("done")

    session, _ = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("bash", {"command": "sleep 1"}), stop_reason="toolUse"), last])
    app = make_app(session)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        app.prompt_input.insert("go")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.working)
        app.post_message(events.Paste(str(shot)))
        await wait_until(pilot, lambda: len(app.image_attachments.pending) == 1)
        app.prompt_input.insert("and this")
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(seen), limit=20)
        users = [m for m in seen[0].messages if m.role == "user"]
        assert [b.type for b in users[-1].content] == ["text", "image"]
        assert users[-1].content[0].text.endswith("and this")


@pytest.mark.anyio
@pytest.mark.parametrize("vision", [True, False])
async def test_the_sessions_read_tool_resizes_and_notes_a_text_only_model(tmp_path: Path, vision: bool) -> None:
    """The read tool create_agent_session builds: resized to pi's limits, and the model without image input is
    named in the result's details (pi 1.6.0; pi reads ctx.model), never in its text."""
    Image.new("RGB", (2400, 1200), (9, 9, 9)).save(tmp_path / "wide.png")
    seen: list[Any] = []

    def answer(context: Any, options: Any, state: Any, model: Any) -> Any:
        seen.append(context)
        return faux_assistant_message("ok")

    session, faux = make_session(tmp_path, [
        faux_assistant_message(faux_tool_call("read", {"path": "wide.png"}), stop_reason="toolUse"), answer])
    if not vision:
        text_only = faux.get_model().model_copy(update={"input": ["text"]})
        session.models.allow(faux.provider, text_only.id, text_only)
        session.set_model(text_only)
    await session.prompt("read it")
    await session.wait_for_idle()
    result = next(m for m in seen[0].messages if m.role == "toolResult")
    note = result.content[0].text.splitlines()
    assert note[:2] == ["Read image file [image/png]", "[Image: original 2400x1200, displayed at 2000x1000. "
                        "Multiply coordinates by 1.20 to map to original image.]"]
    assert len(note) == 2  # pi 1.6.0: no non-vision note stored in the result
    stored = next(m for m in session.messages if m.role == "toolResult")
    assert (stored.details == {"imageUnsupportedByModel": text_only.id}) if not vision else stored.details is None
    with Image.open(io.BytesIO(base64.b64decode(result.content[1].data))) as sent:
        assert sent.size == (2000, 1000)
