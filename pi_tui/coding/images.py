"""Images for the model: detection, pi's size limits and resizing (Pillow), attachments from files.

pi 0.73.1 ``utils/image-resize.js`` (``resizeImage``, ``formatDimensionNote``), ``utils/mime.js`` and
``cli/file-processor.js``, ported with Pillow instead of Photon:

* Supported images: JPEG, PNG, GIF, WebP, detected by their first bytes (never by the file name); a BMP is
  detected too and converted to PNG first (pi 0.80.3: :func:`normalize_image`, :func:`conversion_hint`).
* Limits: at most 2000x2000 pixels and a base64 form under 4.5 MB (``DEFAULT_MAX_BYTES``: headroom below
  Anthropic's 5 MB). An image already within both is passed through unchanged (same bytes, same MIME type).
* Otherwise (``resize_image``): EXIF orientation applied, scaled to fit 2000x2000 (aspect kept, Lanczos), then
  encoded as PNG and as JPEG at qualities 80, 85, 70, 55, 40; the first candidate under the byte limit wins
  (PNG first). If none fits, the size is cut to 75% and tried again, down to 1x1; ``None`` when nothing fits.
* ``format_dimension_note``: ``[Image: original WxH, displayed at wxh. Multiply coordinates by S to map to
  original image.]`` for a resized image (so the model can map coordinates back), ``None`` otherwise.

Errors are :class:`ImageError` with a message for the user (missing file, not an image, a corrupt or
truncated file, a decompression bomb); Pillow's own exceptions never escape.
"""

from __future__ import annotations

import base64
import binascii
import io
import os
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Pillow is imported when an image is first handled (start-up stays fast)
    from PIL.Image import Image as PILImage

DEFAULT_MAX_WIDTH = 2000
DEFAULT_MAX_HEIGHT = 2000
DEFAULT_MAX_BYTES = int(4.5 * 1024 * 1024)
"""pi's inline image limit, on the base64 size (bytes)."""
DEFAULT_JPEG_QUALITY = 80
SUPPORTED_IMAGE_MIME_TYPES = ("image/png", "image/jpeg", "image/webp", "image/gif")
IMAGE_OMITTED_NOTE = "[Image omitted: could not be resized below the inline image size limit.]"
MAX_FILE_BYTES = 200 * 1024 * 1024
"""Files larger than this are refused before they are read (pi-tui addition: never read a huge file)."""

_EXTENSIONS = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif"}


class ImageError(Exception):
    """An image that cannot be used; ``str(error)`` is a message for the user."""


HEAD_BYTES = 32
"""How many leading bytes :func:`detect_image_mime` needs (a BMP's header is checked up to byte 30)."""
CONVERTED_OMITTED_NOTE = "[Image omitted: could not be converted to a supported inline image format.]"
"""pi 0.80.3: a BMP that cannot be turned into a PNG."""


def _u16(head: bytes, at: int) -> int:
    return int.from_bytes(head[at:at + 2], "little")


def _u32(head: bytes, at: int) -> int:
    return int.from_bytes(head[at:at + 4], "little")


def _is_bmp(head: bytes) -> bool:
    """A Windows bitmap header (pi 0.80.3 detects BMP files): ``BM``, a plausible file size and pixel offset,
    a known DIB header size (12 or 40..124), one colour plane and 1/4/8/16/24/32 bits per pixel. A text file
    that merely starts with ``BM`` fails these checks."""
    if len(head) < 26 or not head.startswith(b"BM"):
        return False
    file_size, pixel_offset, dib_size = _u32(head, 2), _u32(head, 10), _u32(head, 14)
    if (file_size != 0 and file_size < 26) or pixel_offset < 14 + dib_size:
        return False
    if file_size != 0 and pixel_offset >= file_size:
        return False
    if dib_size == 12:
        planes, bits = _u16(head, 22), _u16(head, 24)
    elif 40 <= dib_size <= 124 and len(head) >= 30:
        planes, bits = _u16(head, 26), _u16(head, 28)
    else:
        return False
    return planes == 1 and bits in (1, 4, 8, 16, 24, 32)


def detect_image_mime(head: bytes) -> str | None:
    """MIME type of an image from its first bytes (:data:`HEAD_BYTES` of them): ``image/jpeg|png|gif|webp``,
    or ``image/bmp`` (pi 0.80.3; not sent as it is: :func:`normalize_image` makes it a PNG), else None."""
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if len(head) >= 12 and head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if _is_bmp(head):
        return "image/bmp"
    return None


def normalize_image(raw: bytes, mime_type: str) -> tuple[bytes, str, str | None]:
    """``(bytes, mime_type, converted_from)``: a type models take (JPEG, PNG, GIF, WebP) is returned as it is
    (``converted_from`` None); anything else (BMP) is decoded and encoded as PNG (pi 0.80.3 ``normalizeImage``),
    ``converted_from`` naming the old type. Raises :class:`ImageError` when it cannot be decoded."""
    base = mime_type.split(";")[0].strip().lower()
    if base in SUPPORTED_IMAGE_MIME_TYPES:
        return raw, base, None
    image = _open(raw)
    out = io.BytesIO()
    (image if image.mode in ("RGB", "RGBA", "L", "LA", "P", "1") else image.convert("RGBA")).save(out, "PNG")
    return out.getvalue(), "image/png", base


def conversion_hint(converted_from: str | None, mime_type: str) -> str | None:
    """pi's ``[Image converted from image/bmp to image/png.]`` when the type changed, else None."""
    if not converted_from or converted_from == mime_type:
        return None
    return f"[Image converted from {converted_from} to {mime_type}.]"


def extension_for_mime(mime_type: str) -> str | None:
    """File extension (no dot) for a supported MIME type (pi's ``extensionForImageMimeType``), else None."""
    return _EXTENSIONS.get(mime_type.split(";")[0].strip().lower())


@dataclass(frozen=True)
class ResizedImage:
    """The result of :func:`resize_image`: base64 ``data``, its ``mime_type``, sizes in pixels."""

    data: str
    mime_type: str
    original_width: int
    original_height: int
    width: int
    height: int
    was_resized: bool


def _open(raw: bytes) -> PILImage:
    """A loaded, EXIF-oriented Pillow image; :class:`ImageError` for anything Pillow cannot decode."""
    from PIL import Image, ImageOps

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(raw))
            image.load()
            return ImageOps.exif_transpose(image) or image
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError(f"The image is too large to decode safely ({exc}).") from None
    except Image.UnidentifiedImageError:  # Pillow's text names its BytesIO object: not for users
        raise ImageError("The image could not be decoded (corrupt or truncated?).") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ImageError(f"The image could not be decoded (corrupt or truncated?): {exc}") from None
    except Exception as exc:  # Pillow's plugins raise assorted errors for malformed files
        raise ImageError(f"The image could not be decoded: {exc}") from None


def image_size(raw: bytes) -> tuple[int, int] | None:
    """``(width, height)`` from the header only (no decoding), or None when Pillow cannot tell."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with Image.open(io.BytesIO(raw)) as image:
                return int(image.width), int(image.height)
    except Exception:
        return None


def _encode(image: PILImage, fmt: str, quality: int | None = None) -> str:
    out = io.BytesIO()
    if fmt == "JPEG":
        rgb = image if image.mode == "RGB" else _flatten(image)
        rgb.save(out, "JPEG", quality=quality)
    else:
        image.save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode("ascii")


def _flatten(image: PILImage) -> PILImage:
    """RGB on white for JPEG (which has no alpha)."""
    from PIL import Image

    if image.mode in ("RGBA", "LA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image.convert("RGB")


def resize_image(
    data: str,
    mime_type: str | None,
    *,
    max_width: int = DEFAULT_MAX_WIDTH,
    max_height: int = DEFAULT_MAX_HEIGHT,
    max_bytes: int = DEFAULT_MAX_BYTES,
    jpeg_quality: int = DEFAULT_JPEG_QUALITY,
) -> ResizedImage | None:
    """pi's ``resizeImage`` (module docstring) on base64 ``data``; ``None`` when no size fits ``max_bytes``.

    Raises :class:`ImageError` when ``data`` is not base64 or not a decodable image (pi returns null for both;
    pi-tui says why).
    """
    from PIL import Image

    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ImageError("The image data is not valid base64.") from None
    image = _open(raw)
    width, height = image.width, image.height
    fmt = (mime_type or "image/png").split("/")[-1]
    if width <= max_width and height <= max_height and len(data) < max_bytes:
        return ResizedImage(data, mime_type or f"image/{fmt}", width, height, width, height, False)
    target_w, target_h = width, height
    if target_w > max_width:
        target_h = round(target_h * max_width / target_w)
        target_w = max_width
    if target_h > max_height:
        target_w = round(target_w * max_height / target_h)
        target_h = max_height
    target_w, target_h = max(1, target_w), max(1, target_h)
    qualities = list(dict.fromkeys([jpeg_quality, 85, 70, 55, 40]))
    source = image if image.mode in ("RGB", "RGBA", "L", "LA") else image.convert("RGBA")
    current_w, current_h = target_w, target_h
    while True:
        resized = source.resize((current_w, current_h), Image.Resampling.LANCZOS)
        steps: list[tuple[str, int | None]] = [("PNG", None), *(("JPEG", q) for q in qualities)]
        for fmt_name, quality in steps:  # encoded one at a time: the first that fits wins (pi's order)
            encoded = _encode(resized, fmt_name, quality)
            if len(encoded) < max_bytes:
                mime = "image/png" if fmt_name == "PNG" else "image/jpeg"
                return ResizedImage(encoded, mime, width, height, current_w, current_h, True)
        if current_w == 1 and current_h == 1:
            return None
        next_w = 1 if current_w == 1 else max(1, int(current_w * 0.75))
        next_h = 1 if current_h == 1 else max(1, int(current_h * 0.75))
        if (next_w, next_h) == (current_w, current_h):
            return None
        current_w, current_h = next_w, next_h


def format_dimension_note(result: ResizedImage) -> str | None:
    """pi's ``formatDimensionNote``: the coordinate note for a resized image, None when it was not resized."""
    if not result.was_resized:
        return None
    scale = result.original_width / result.width
    return (f"[Image: original {result.original_width}x{result.original_height}, displayed at "
            f"{result.width}x{result.height}. Multiply coordinates by {scale:.2f} to map to original image.]")


@dataclass(frozen=True)
class ImageAttachment:
    """An image ready to send: base64 ``data`` and ``mime_type`` (after resizing), where it came from and its
    sizes. ``file_bytes``: the source file's size; ``note``: pi's dimension note when it was resized."""

    path: str
    name: str
    data: str
    mime_type: str
    width: int
    height: int
    original_width: int
    original_height: int
    file_bytes: int
    note: str | None = None

    @property
    def encoded_bytes(self) -> int:
        """Size of the decoded image that is sent (bytes)."""
        return len(self.data) * 3 // 4 - self.data[-2:].count("=")


def load_image_bytes(raw: bytes, path: str, *, auto_resize: bool = True) -> ImageAttachment:
    """An attachment from an image file's bytes (pi's ``processFileArguments`` for an image; ``path`` names it).

    Raises :class:`ImageError`: not a supported image, empty, corrupt, or (``auto_resize``) too large to fit the
    inline limit; without ``auto_resize`` an image is sent as it is (pi), but it must still decode.
    """
    name = os.path.basename(path) or path
    if not raw:
        raise ImageError(f"{name} is empty.")
    mime = detect_image_mime(raw[:HEAD_BYTES])
    if mime is None:
        raise ImageError(f"{name} is not a supported image (PNG, JPEG, GIF, WebP or BMP).")
    try:
        source_bytes = len(raw)
        raw, mime, converted_from = normalize_image(raw, mime)  # a BMP becomes a PNG (pi 0.80.3)
        data = base64.b64encode(raw).decode("ascii")
        if not auto_resize:
            image = _open(raw)
            w, h = image.width, image.height
            return ImageAttachment(path, name, data, mime, w, h, w, h, source_bytes,
                                   conversion_hint(converted_from, mime))
        resized = resize_image(data, mime)
    except ImageError as exc:
        raise ImageError(f"{name}: {exc}") from None
    if resized is None:
        raise ImageError(f"{name}: {IMAGE_OMITTED_NOTE.strip('[]')}")
    hints = [h for h in (conversion_hint(converted_from, resized.mime_type), format_dimension_note(resized)) if h]
    return ImageAttachment(path, name, resized.data, resized.mime_type, resized.width, resized.height,
                           resized.original_width, resized.original_height, source_bytes,
                           "\n".join(hints) or None)


def load_image_file(path: str, *, auto_resize: bool = True) -> ImageAttachment:
    """:func:`load_image_bytes` on a file; :class:`ImageError` for a missing, unreadable or oversized file."""
    name = os.path.basename(path) or path
    try:
        size = os.path.getsize(path)
        if os.path.isdir(path):
            raise ImageError(f"{path} is a folder, not an image.")
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{name} is {size // (1024 * 1024)} MB: too large to attach.")
        with open(path, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise ImageError(f"File not found: {path}") from None
    except OSError as exc:
        raise ImageError(f"Could not read {path}: {exc.strerror or exc}") from None
    return load_image_bytes(raw, path, auto_resize=auto_resize)


def format_bytes(size: int) -> str:
    """``512 B``, ``12.3 KB``, ``4.5 MB`` (for cards)."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


@dataclass(frozen=True)
class ImageFacts:
    """What a card shows about an image block: MIME type, decoded size (bytes), pixel size (None if unknown)."""

    mime_type: str
    size: int
    width: int | None
    height: int | None

    def label(self) -> str:
        """``image/png 800x600 12.3 KB`` (dimensions left out when the header cannot be read)."""
        dims = f" {self.width}x{self.height}" if self.width and self.height else ""
        return f"{self.mime_type}{dims} {format_bytes(self.size)}"


_FACTS: dict[tuple[int, int, str], ImageFacts] = {}


def image_facts(data: str, mime_type: str) -> ImageFacts:
    """:class:`ImageFacts` of a base64 image block (header read only; cached, the same block is shown often).
    Never raises: bad data gives unknown dimensions."""
    key = (hash(data), len(data), mime_type)
    facts = _FACTS.get(key)
    if facts is None:
        try:
            raw = base64.b64decode(data)
        except (binascii.Error, ValueError):
            raw = b""
        size = image_size(raw) if raw else None
        facts = ImageFacts(mime_type, len(raw), *(size or (None, None)))
        if len(_FACTS) > 256:
            _FACTS.clear()
        _FACTS[key] = facts
    return facts


def file_tag(attachment: ImageAttachment) -> str:
    """The text pi's CLI puts before an attached image: ``<file name="<abs path>"><dimension note></file>``
    (pi ``cli/file-processor.js``), so the model knows the file's path and the coordinate scale."""
    return f'<file name="{attachment.path}">{attachment.note or ""}</file>'
