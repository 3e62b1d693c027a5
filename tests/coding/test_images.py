"""pi_tui.coding.images: pi's resize rules (image-resize.js) on real PNG/JPEG/GIF/WebP files made by Pillow,
and clear errors for bad input (corrupt, huge, missing, not an image)."""

from __future__ import annotations

import base64
import io
import os
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from pi_tui.coding.images import (
    ImageError,
    ResizedImage,
    detect_image_mime,
    format_dimension_note,
    load_image_bytes,
    load_image_file,
    resize_image,
)

FORMATS = [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")]


def encode(image: Image.Image, fmt: str, **params: object) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **params)
    return out.getvalue()


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def decoded(result: ResizedImage) -> Image.Image:
    image = Image.open(io.BytesIO(base64.b64decode(result.data)))
    image.load()
    return image


def noise(width: int, height: int) -> Image.Image:
    """Random pixels: compress badly, so the byte limit bites."""
    return Image.frombytes("RGB", (width, height), os.urandom(width * height * 3))


@pytest.mark.parametrize(("fmt", "mime"), FORMATS)
def test_small_images_pass_through_unchanged(fmt: str, mime: str) -> None:
    raw = encode(Image.new("RGB", (64, 48), (1, 2, 3)), fmt)
    assert detect_image_mime(raw[:16]) == mime
    result = resize_image(b64(raw), mime)
    assert result == ResizedImage(b64(raw), mime, 64, 48, 64, 48, False)
    assert format_dimension_note(result) is None


@pytest.mark.parametrize(("fmt", "mime"), FORMATS)
def test_large_images_fit_2000x2000_keeping_the_aspect(fmt: str, mime: str) -> None:
    raw = encode(Image.new("RGB", (4000, 1000), (200, 100, 0)), fmt)
    result = resize_image(b64(raw), mime)
    assert result is not None and result.was_resized
    assert (result.width, result.height) == (2000, 500)
    assert (result.original_width, result.original_height) == (4000, 1000)
    assert result.mime_type == "image/png"  # a flat image: PNG is tried first and fits
    assert decoded(result).size == (2000, 500)
    assert format_dimension_note(result) == (
        "[Image: original 4000x1000, displayed at 2000x500. Multiply coordinates by 2.00 to map to original image.]")


def test_tall_image_is_limited_by_its_height() -> None:
    result = resize_image(b64(encode(Image.new("L", (900, 3000)), "PNG")), "image/png")
    assert result is not None and (result.width, result.height) == (600, 2000)


def test_byte_limit_falls_back_to_jpeg_then_smaller_sizes() -> None:
    """Noise does not compress: with a 60 KB limit PNG never fits, JPEG does, maybe after shrinking."""
    raw = encode(noise(400, 300), "PNG")
    result = resize_image(b64(raw), "image/png", max_bytes=60_000)
    assert result is not None and result.mime_type == "image/jpeg"
    assert len(result.data) < 60_000
    assert result.width <= 400 and result.height <= 300
    assert decoded(result).format == "JPEG"


def test_nothing_fits_gives_none() -> None:
    assert resize_image(b64(encode(noise(50, 50), "PNG")), "image/png", max_bytes=10) is None


def test_transparent_png_becomes_a_jpeg_on_white() -> None:
    image = Image.new("RGBA", (300, 300), (0, 0, 0, 0))
    image.paste((255, 0, 0, 255), (0, 0, 150, 300))
    image.paste(noise(150, 300).convert("RGBA"), (150, 0))
    result = resize_image(b64(encode(image, "PNG")), "image/png", max_bytes=60_000)
    assert result is not None and result.mime_type == "image/jpeg"
    assert decoded(result).getpixel((0, 0))[0] > 200  # red kept, not lost


def test_exif_orientation_is_applied() -> None:
    """A JPEG stored 300x100 with orientation 6 (rotate 90°) is 100x300 to the model, as pi's exif-orientation."""
    exif = Image.Exif()
    exif[0x0112] = 6
    raw = encode(noise(3000, 1000), "JPEG", exif=exif.tobytes())
    result = resize_image(b64(raw), "image/jpeg")
    assert result is not None
    assert (result.original_width, result.original_height) == (1000, 3000)
    assert (result.width, result.height) == (667, 2000)


def test_animated_gif_sends_its_first_frame_when_resized() -> None:
    frames = [Image.new("P", (2400, 100), i * 40) for i in range(3)]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:])
    result = resize_image(b64(out.getvalue()), "image/gif")
    assert result is not None and (result.width, result.height) == (2000, 83)


@pytest.mark.parametrize("raw", [b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, b"\xff\xd8\xff\xe0garbage", b"GIF89a\x01"])
def test_corrupt_images_raise_a_clear_error(raw: bytes) -> None:
    with pytest.raises(ImageError, match="could not be decoded"):
        resize_image(b64(raw), detect_image_mime(raw[:16]))


def test_invalid_base64_is_an_error() -> None:
    with pytest.raises(ImageError, match="not valid base64"):
        resize_image("not base64!!", "image/png")


def _png_header(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00")) + chunk(b"IEND", b"")


def test_a_decompression_bomb_is_refused_without_decoding() -> None:
    """A 100,000 x 100,000 PNG header (30 GB of pixels): refused at once, nothing allocated."""
    with pytest.raises(ImageError, match="too large to decode safely"):
        resize_image(b64(_png_header(100_000, 100_000)), "image/png")


def test_load_image_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="File not found"):
        load_image_file(str(tmp_path / "nope.png"))
    (tmp_path / "notes.png").write_text("hello")
    with pytest.raises(ImageError, match="not a supported image"):
        load_image_file(str(tmp_path / "notes.png"))
    (tmp_path / "empty.png").write_bytes(b"")
    with pytest.raises(ImageError, match="empty"):
        load_image_file(str(tmp_path / "empty.png"))
    with pytest.raises(ImageError, match="folder"):
        load_image_file(str(tmp_path))
    (tmp_path / "bad.jpg").write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 50)
    with pytest.raises(ImageError, match=r"bad\.jpg: The image could not be decoded"):
        load_image_file(str(tmp_path / "bad.jpg"))


def test_load_image_file_resizes_and_keeps_the_note(tmp_path: Path) -> None:
    Image.new("RGB", (2500, 2500), (0, 0, 255)).save(tmp_path / "shot.webp", "WEBP")
    attachment = load_image_file(str(tmp_path / "shot.webp"))
    assert attachment.name == "shot.webp"
    assert (attachment.width, attachment.height, attachment.original_width) == (2000, 2000, 2500)
    assert attachment.note is not None and attachment.note.startswith("[Image: original 2500x2500")
    assert attachment.file_bytes == (tmp_path / "shot.webp").stat().st_size
    assert attachment.encoded_bytes == len(base64.b64decode(attachment.data))


def test_load_without_auto_resize_keeps_the_bytes() -> None:
    raw = encode(Image.new("RGB", (2100, 10)), "PNG")
    attachment = load_image_bytes(raw, "/x/a.png", auto_resize=False)
    assert base64.b64decode(attachment.data) == raw
    assert (attachment.width, attachment.note) == (2100, None)


@settings(max_examples=25, derandomize=True, deadline=None)
@given(width=st.integers(1, 4500), height=st.integers(1, 4500))
def test_resized_images_always_fit_the_limits(width: int, height: int) -> None:
    """Any size: the result is within 2000x2000 at pi's rounding of the aspect ratio (a flat image fits at once)."""
    raw = encode(Image.new("L", (width, height), 128), "PNG")
    result = resize_image(b64(raw), "image/png")
    assert result is not None
    assert result.width <= 2000 and result.height <= 2000
    assert decoded(result).size == (result.width, result.height)
    w, h = width, height
    if w > 2000:
        w, h = 2000, round(h * 2000 / w)
    if h > 2000:
        w, h = round(w * 2000 / h), 2000
    assert (result.width, result.height) == (max(1, w), max(1, h))
    assert result.was_resized == ((w, h) != (width, height))


def test_typed_paths_with_punctuation_and_quotes(tmp_path: Path) -> None:
    from pi_tui.coding.image_paths import pasted_image_paths, typed_image_paths

    for name in ("a.png", "b c.jpg", "d.webp"):
        Image.new("RGB", (4, 4)).save(tmp_path / name)
    (tmp_path / "fake.png").write_text("not an image")
    text = "what is in a.png? and 'b c.jpg', @d.webp! not fake.png nor missing.gif"
    assert typed_image_paths(text, str(tmp_path)) == [str(tmp_path / n) for n in ("a.png", "b c.jpg", "d.webp")]
    assert pasted_image_paths(f"file://{tmp_path}/b%20c.jpg", str(tmp_path)) == [str(tmp_path / "b c.jpg")]
    assert pasted_image_paths(f"{tmp_path}/b\\ c.jpg {tmp_path}/a.png\n", str(tmp_path)) == [
        str(tmp_path / "b c.jpg"), str(tmp_path / "a.png")]
    assert pasted_image_paths(f"{tmp_path}/a.png and more words", str(tmp_path)) is None
    assert pasted_image_paths(str(tmp_path / "fake.png"), str(tmp_path)) is None
    assert pasted_image_paths("'unbalanced", str(tmp_path)) is None
