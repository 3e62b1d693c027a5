"""read tool: tools.test.ts "read" list and case 22 (binary, minified, big files)."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest

from pi_tui.ai.abort import AbortController
from pi_tui.coding.tools.read import READ_DESCRIPTION, ReadTool
from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES

from .helpers import run, text_of

pytestmark = pytest.mark.anyio


def png_1x1() -> bytes:
    """A valid 1x1 PNG built by hand."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    idat = zlib.compress(b"\x00\xff\x00\x00\xff")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


async def test_reads_file_within_limits(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("hello\nworld\n")
    result = await run(ReadTool(str(tmp_path)), {"path": "a.txt"})
    assert text_of(result) == "hello\nworld\n"
    assert result.details is None


async def test_missing_file_error_contains_enoent(tmp_path: Path) -> None:
    with pytest.raises(Exception) as info:
        await run(ReadTool(str(tmp_path)), {"path": "nope.txt"})
    assert str(info.value) == f"ENOENT: no such file or directory, access '{tmp_path / 'nope.txt'}'"


async def test_line_limit_notice_and_details(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("\n".join(f"line {i}" for i in range(1, 2501)))
    result = await run(ReadTool(str(tmp_path)), {"path": "big.txt"})
    text = text_of(result)
    assert text.endswith("\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")
    assert "line 2000\n" in text and "line 2001" not in text
    trunc = result.details["truncation"]
    assert trunc["truncated"] is True and trunc["truncatedBy"] == "lines"
    assert trunc["totalLines"] == 2500 and trunc["outputLines"] == 2000


async def test_byte_limit_notice(tmp_path: Path) -> None:
    line = "x" * 99
    (tmp_path / "wide.txt").write_text("\n".join([line] * 1000))  # 100 KB, 1000 lines
    result = await run(ReadTool(str(tmp_path)), {"path": "wide.txt"})
    text = text_of(result)
    assert text.endswith("\n\n[Showing lines 1-512 of 1000 (50.0KB limit). Use offset=513 to continue.]")
    assert result.details["truncation"]["truncatedBy"] == "bytes"


async def test_offset_and_limit(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("\n".join(f"L{i}" for i in range(1, 11)))
    tool = ReadTool(str(tmp_path))
    assert text_of(await run(tool, {"path": "f.txt", "offset": 9})) == "L9\nL10"
    limited = await run(tool, {"path": "f.txt", "offset": 2, "limit": 3})
    assert text_of(limited) == "L2\nL3\nL4\n\n[6 more lines in file. Use offset=5 to continue.]"
    assert limited.details is None
    assert text_of(await run(tool, {"path": "f.txt", "limit": 10})) == "\n".join(f"L{i}" for i in range(1, 11))


async def test_offset_beyond_end(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a\nb\nc")
    with pytest.raises(Exception, match=r"^Offset 10 is beyond end of file \(3 lines total\)$"):
        await run(ReadTool(str(tmp_path)), {"path": "f.txt", "offset": 10})


async def test_image_detected_by_magic_bytes(tmp_path: Path) -> None:
    data = png_1x1()
    (tmp_path / "pic.dat").write_bytes(data)  # no image extension
    result = await run(ReadTool(str(tmp_path)), {"path": "pic.dat"})
    assert text_of(result) == "Read image file [image/png]"
    image = result.content[1]
    assert image.type == "image" and image.mime_type == "image/png"
    assert base64.b64decode(image.data) == data


@pytest.mark.parametrize(("fmt", "mime"), [("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")])
async def test_other_image_types(tmp_path: Path, fmt: str, mime: str) -> None:
    from PIL import Image

    Image.new("RGB", (40, 30), (10, 200, 30)).save(tmp_path / "x", fmt)  # no extension: found by its bytes
    result = await run(ReadTool(str(tmp_path)), {"path": "x"})
    assert text_of(result) == f"Read image file [{mime}]"
    assert result.content[1].mime_type == mime  # within the limits: sent as it is


@pytest.mark.parametrize("head", [b"\xff\xd8\xff\xe0" + b"\x00" * 20, b"GIF89a" + b"\x00" * 20,
                                  b"RIFF\x10\x00\x00\x00WEBPVP8 " + b"\x00" * 20])
async def test_corrupt_image_is_omitted_with_a_clear_note(tmp_path: Path, head: bytes) -> None:
    """An image header with nothing decodable behind it: a note saying so, no image block, no crash (pi says
    'could not be resized' here; DIFFERENCES T8)."""
    (tmp_path / "x").write_bytes(head)
    result = await run(ReadTool(str(tmp_path)), {"path": "x"})
    assert len(result.content) == 1
    assert text_of(result).splitlines()[1] == (
        "[Image omitted: the file could not be decoded as an image (corrupt or truncated?).]")


async def test_large_image_is_resized_with_pis_dimension_note(tmp_path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (3000, 1500), (200, 10, 10)).save(tmp_path / "wide.png")
    result = await run(ReadTool(str(tmp_path)), {"path": "wide.png"})
    assert text_of(result) == (
        "Read image file [image/png]\n"
        "[Image: original 3000x1500, displayed at 2000x1000. Multiply coordinates by 1.50 to map to original image.]"
    )
    with Image.open(__import__("io").BytesIO(base64.b64decode(result.content[1].data))) as sent:
        assert sent.size == (2000, 1000)


async def test_auto_resize_off_sends_the_file_as_it_is(tmp_path: Path) -> None:
    from PIL import Image

    Image.new("RGB", (2500, 10), (0, 0, 0)).save(tmp_path / "w.png")
    result = await run(ReadTool(str(tmp_path), auto_resize_images=False), {"path": "w.png"})
    assert text_of(result) == "Read image file [image/png]"
    assert base64.b64decode(result.content[1].data) == (tmp_path / "w.png").read_bytes()


async def test_fake_image_extension_is_read_as_text(tmp_path: Path) -> None:
    (tmp_path / "fake.png").write_text("not really an image")
    result = await run(ReadTool(str(tmp_path)), {"path": "fake.png"})
    assert len(result.content) == 1 and text_of(result) == "not really an image"


async def test_non_vision_model_note(tmp_path: Path) -> None:
    """pi 1.6.0: no note in the result (it was replayed to a vision model after a switch); details name the
    model for the TUI's warning."""
    (tmp_path / "pic.png").write_bytes(png_1x1())
    result = await run(ReadTool(str(tmp_path), supports_images=lambda: False), {"path": "pic.png"})
    assert text_of(result) == "Read image file [image/png]" and result.content[1].type == "image"
    assert result.details == {"imageUnsupportedByModel": "The current model"}
    named = await run(ReadTool(str(tmp_path), supports_images=lambda: False, model_id=lambda: "gpt-text"),
                      {"path": "pic.png"})
    assert named.details == {"imageUnsupportedByModel": "gpt-text"}
    vision = await run(ReadTool(str(tmp_path), supports_images=lambda: True), {"path": "pic.png"})
    assert vision.details is None


async def test_oversized_image_is_re_encoded_below_the_limit(tmp_path: Path) -> None:
    """A 1x1 PNG padded to 4 MB (6 MB of base64) is re-encoded as pi does: a small PNG and pi's note."""
    (tmp_path / "huge.png").write_bytes(png_1x1() + b"\x00" * (4 * 1024 * 1024))
    result = await run(ReadTool(str(tmp_path)), {"path": "huge.png"})
    assert text_of(result) == (
        "Read image file [image/png]\n"
        "[Image: original 1x1, displayed at 1x1. Multiply coordinates by 1.00 to map to original image.]"
    )
    assert len(result.content[1].data) < 1000


async def test_image_that_cannot_fit_is_omitted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pi_tui.coding.tools.read as read_module

    monkeypatch.setattr(read_module, "resize_image", lambda data, mime: None)  # nothing fits
    (tmp_path / "p.png").write_bytes(png_1x1())
    result = await run(ReadTool(str(tmp_path), supports_images=lambda: False), {"path": "p.png"})
    assert len(result.content) == 1
    assert text_of(result) == (
        "Read image file [image/png]\n"
        "[Image omitted: could not be resized below the inline image size limit.]"
    )
    assert result.details == {"imageUnsupportedByModel": "The current model"}


async def test_abort_before_start(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x")
    controller = AbortController()
    controller.abort()
    with pytest.raises(Exception, match="^Operation aborted$"):
        await run(ReadTool(str(tmp_path)), {"path": "a.txt"}, controller.signal)


async def test_at_prefix_and_unicode_space_path(tmp_path: Path) -> None:
    (tmp_path / "my file.txt").write_text("ok")
    tool = ReadTool(str(tmp_path))
    assert text_of(await run(tool, {"path": "@my\u00a0file.txt"})) == "ok"


async def test_macos_screenshot_variant(tmp_path: Path) -> None:
    name = "Screenshot 2024-01-01 at 10.00.00\u202fAM.txt"
    (tmp_path / name).write_text("shot")
    result = await run(ReadTool(str(tmp_path)), {"path": "Screenshot 2024-01-01 at 10.00.00 AM.txt"})
    assert text_of(result) == "shot"


async def test_description_mentions_limits() -> None:
    assert "2000 lines or 50KB" in READ_DESCRIPTION


# ----------------------------------------------------------------------------- case 22


async def test_case22_binary_file_gives_short_note(tmp_path: Path) -> None:
    data = bytes(range(256)) * 16
    (tmp_path / "bin.dat").write_bytes(data)
    result = await run(ReadTool(str(tmp_path)), {"path": "bin.dat"})
    text = text_of(result)
    assert len(result.content) == 1
    assert "binary" in text.lower() and "4096 bytes" in text and "bin.dat" in text
    assert "\x00" not in text and "\x01" not in text and len(text) < 300


async def test_case22_png_is_an_image_attachment(tmp_path: Path) -> None:
    (tmp_path / "logo.png").write_bytes(png_1x1())
    result = await run(ReadTool(str(tmp_path)), {"path": "logo.png"})
    assert [c.type for c in result.content] == ["text", "image"]


async def test_case22_single_huge_line_gets_marker(tmp_path: Path) -> None:
    (tmp_path / "min.js").write_text("a" * 300_000)
    result = await run(ReadTool(str(tmp_path)), {"path": "min.js"})
    text = text_of(result)
    assert len(text.encode()) <= DEFAULT_MAX_BYTES
    assert text == "[Line 1 is 293.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' min.js | head -c 51200]"
    assert result.details["truncation"]["firstLineExceedsLimit"] is True


async def test_case22_big_file_line_limit_and_offset(tmp_path: Path) -> None:
    (tmp_path / "big.txt").write_text("\n".join(f"line {i}" for i in range(1, 5001)))
    tool = ReadTool(str(tmp_path))
    first = text_of(await run(tool, {"path": "big.txt"}))
    assert first.endswith("[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]")
    assert len(first.encode()) <= DEFAULT_MAX_BYTES
    tail = text_of(await run(tool, {"path": "big.txt", "offset": 4990}))
    assert tail == "\n".join(f"line {i}" for i in range(4990, 5001))
