"""pi's image fixes after 0.73.1 (tests/conformance/PI_FIXES.md):

* 1.6.0: ``read`` stored "model does not support images" in the tool result, replayed to a vision model after a
  switch; now the result names the model in ``details`` only (the TUI warns) and each request to a text-only
  model replaces the image by a placeholder.
* 0.80.3: a BMP file from ``read`` or an ``@file`` argument is detected and sent as PNG.
* 0.76.0: token estimates count a user image as a tool-result image.

Requests go to the real openai-completions provider on the loopback scripted server and are read from its body.
"""

from __future__ import annotations

import base64
import io
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pi_tui.ai.types import ImageContent, Model, TextContent, ToolResultMessage, UserMessage
from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.compaction.tokens import estimate_tokens
from pi_tui.coding.file_args import process_file_arguments, read_file_args
from pi_tui.coding.image_paths import typed_image_paths
from pi_tui.coding.images import detect_image_mime, load_image_file
from pi_tui.coding.tools.read import ReadTool
from pi_tui.tui.widgets import tool_format

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
from mock_llm_server import MockLlmServer  # noqa: E402

pytestmark = pytest.mark.anyio


def _model(port: int, model_id: str, vision: bool) -> Model:
    return Model(id=model_id, name=model_id, api="openai-completions", provider="mock",
                 base_url=f"http://127.0.0.1:{port}/v1", max_tokens=1024,
                 input=["text", "image"] if vision else ["text"])


def _tool_result_parts(body: dict[str, Any]) -> list[Any]:
    """The tool message's content and any user message the provider adds after it for tool images."""
    messages = body["messages"]
    start = next(i for i, m in enumerate(messages) if m["role"] == "tool")
    return messages[start:]


async def test_a_read_image_note_is_not_replayed_after_switching_to_a_vision_model(tmp_path: Path) -> None:
    Image.new("RGB", (40, 20), (0, 90, 200)).save(tmp_path / "shot.png")
    script = [{"type": "tool", "calls": [{"id": "call_1", "name": "read", "args": {"path": "shot.png"}}]},
              {"type": "text", "text": "I cannot see it."}, {"type": "text", "text": "Now I see a blue box."}]
    with MockLlmServer(script) as server:
        text_only, vision = _model(server.port, "mock-text", False), _model(server.port, "mock-vision", True)
        session = create_agent_session(str(tmp_path), no_session=True, tools=["read"])
        for model in (text_only, vision):
            session.models.allow("mock", model.id, model)
        session.set_model(text_only)
        await session.prompt("read shot.png")
        await session.wait_for_idle()
        session.set_model(vision)
        await session.prompt("and now?")
        await session.wait_for_idle()
        bodies = [r["body"] for r in server.requests]
    assert len(bodies) == 3
    stored = next(m for m in session.messages if m.role == "toolResult")
    assert [b.type for b in stored.content] == ["text", "image"]
    assert stored.content[0].text == "Read image file [image/png]"  # no note stored (pi 1.6.0)
    assert stored.details == {"imageUnsupportedByModel": "mock-text"}
    text_request = str(_tool_result_parts(bodies[1]))
    assert "image omitted: model does not support images" in text_request and "image_url" not in text_request
    vision_request = str(_tool_result_parts(bodies[2]))
    assert "does not support images" not in vision_request  # the stale note is gone
    assert "data:image/png;base64," in vision_request
    warning = tool_format.image_warning(stored.details)
    assert warning == "[mock-text does not support images; it saw a placeholder instead]"


def _bmp(path: Path, size: tuple[int, int] = (30, 10)) -> Path:
    Image.new("RGB", size, (200, 10, 10)).save(path, "BMP")
    return path


async def test_a_bmp_from_read_is_sent_as_png(tmp_path: Path) -> None:
    _bmp(tmp_path / "pic.bmp")
    result = await ReadTool(str(tmp_path)).execute("c1", {"path": "pic.bmp"})
    assert [b.type for b in result.content] == ["text", "image"]
    assert result.content[0].text == "Read image file [image/png]\n[Image converted from image/bmp to image/png.]"
    assert result.content[1].mime_type == "image/png"
    with Image.open(io.BytesIO(base64.b64decode(result.content[1].data))) as sent:
        assert sent.format == "PNG" and sent.size == (30, 10)
    as_is = await ReadTool(str(tmp_path), auto_resize_images=False).execute("c2", {"path": "pic.bmp"})
    assert as_is.content[1].mime_type == "image/png"  # converted even when not resized
    assert as_is.content[0].text.endswith("[Image converted from image/bmp to image/png.]")


async def test_a_broken_bmp_says_it_could_not_be_converted(tmp_path: Path) -> None:
    good = _bmp(tmp_path / "pic.bmp").read_bytes()
    (tmp_path / "cut.bmp").write_bytes(good[:40])  # the header, no pixels
    result = await ReadTool(str(tmp_path)).execute("c1", {"path": "cut.bmp"})
    assert [b.type for b in result.content] == ["text"]
    assert result.content[0].text == ("Read image file [image/bmp]\n"
                                      "[Image omitted: could not be converted to a supported inline image format.]")


def test_text_starting_with_bm_is_not_a_bmp(tmp_path: Path) -> None:
    assert detect_image_mime(b"BMW service notes: oil, brakes and tyres\n") is None
    assert detect_image_mime(_bmp(tmp_path / "p.bmp").read_bytes()[:32]) == "image/bmp"


def test_bmp_at_file_arguments_and_attachments_become_png(tmp_path: Path) -> None:
    pic = _bmp(tmp_path / "pic.bmp", (2400, 100))
    files = process_file_arguments(["pic.bmp"], str(tmp_path))
    assert [i.mime_type for i in files.images] == ["image/png"]
    assert files.text == (f'<file name="{pic}">[Image converted from image/bmp to image/png.]\n[Image: original '
                          "2400x100, displayed at 2000x83. Multiply coordinates by 1.20 to map to original "
                          "image.]</file>\n")
    unresized = read_file_args(["pic.bmp"], str(tmp_path), auto_resize=False)
    assert unresized.images[0].mime_type == "image/png"
    assert unresized.text == f'<file name="{pic}">[Image converted from image/bmp to image/png.]</file>\n'
    attachment = load_image_file(str(pic))  # Ctrl+V / dropped / typed paths
    assert attachment.mime_type == "image/png" and attachment.note is not None
    assert attachment.note.startswith("[Image converted from image/bmp to image/png.]")
    assert typed_image_paths("what is in pic.bmp?", str(tmp_path)) == [str(pic)]


def test_user_images_count_as_tool_result_images_in_token_estimates() -> None:
    image = ImageContent(data="AAAA", mime_type="image/png")
    content = [TextContent(text="look"), image]
    user = UserMessage(content=content)
    tool = ToolResultMessage(tool_call_id="c1", tool_name="read", content=content, is_error=False)
    assert estimate_tokens(user) == estimate_tokens(tool) == 1 + 1200  # ceil(4 / 4) + 4800 chars / 4
    as_dicts = [{"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image", "data": "AAAA",
                                                                                 "mimeType": "image/png"}]}]
    assert estimate_tokens(as_dicts[0]) == estimate_tokens(user)


def test_the_tui_shows_the_read_warning_collapsed_and_expanded() -> None:
    """pi 1.6.0's renderer: the warning line is shown in the TUI, also when the read result is collapsed."""
    from pi_tui.tui.theme_loader import find_theme
    from pi_tui.tui.widgets.message_render import RenderContext
    from pi_tui.tui.widgets.transcript_items import ToolItem

    item = ToolItem("c1", "read", {"path": "shot.png"})
    item.status, item.result_text = "done", "Read image file [image/png]\n[image image/png 40x20 1.0 KB]"
    item.details = {"imageUnsupportedByModel": "mock-text"}
    for expanded in (False, True):
        item.expanded = expanded
        ctx = RenderContext(find_theme("dark"))
        lines = [strip.text.strip() for strip in item.strips(ctx, 100)]
        assert "[mock-text does not support images; it saw a placeholder instead]" in lines
    plain = ToolItem("c2", "read", {"path": "shot.png"})
    plain.status, plain.result_text = "done", item.result_text
    lines = [strip.text for strip in plain.strips(RenderContext(find_theme("dark")), 100)]
    assert not any("does not support images" in line for line in lines)


def test_a_card_names_a_converted_image(tmp_path: Path) -> None:
    """The transcript card takes the name from pi's ``<file>`` line also when the note is the BMP hint (seen in
    tmux: the card said 'image' and the <file …> line was shown as text)."""
    from pi_tui.tui.widgets.image_card import UserImagesItem, user_item

    pic = _bmp(tmp_path / "pic.bmp", (2400, 100))
    files = process_file_arguments(["pic.bmp"], str(tmp_path))
    item = user_item([TextContent(text=files.text + "what is it?"), *files.images])
    assert isinstance(item, UserImagesItem)
    assert item.text == "what is it?" and [name for name, _ in item.images] == [pic.name]
