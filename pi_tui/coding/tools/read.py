"""The ``read`` tool (pi-reference §3.13 ``read``, cases 22).

* Images are detected by magic bytes (JPEG, PNG, GIF, WebP; not by extension) and returned as
  ``Read image file [<mime>]`` + an image block. A BMP is converted to PNG first, with pi's ``[Image converted
  from image/bmp to image/png.]`` hint (pi 0.80.3). When the model cannot take images the result carries no
  note (pi 1.6.0: a stored note was replayed to a vision model after a switch); ``details`` name the model
  (``imageUnsupportedByModel``), which the TUI shows, and each request replaces the image by a placeholder. With ``auto_resize_images`` (setting ``images.autoResize``, default on) they are resized as pi
  does (:func:`pi_tui.coding.images.resize_image`: at most 2000x2000 and under 4.5 MB of base64, in a worker
  thread), the MIME type in the note is the sent one and a resized image gets pi's dimension note
  (``[Image: original WxH, displayed at wxh. ...]``); one that cannot be brought under the limit gets pi's
  ``[Image omitted: could not be resized below the inline image size limit.]`` note instead of the image
  block. A file with an image header that does not decode gets ``[Image omitted: the file could not be
  decoded as an image (corrupt or truncated?).]`` (pi says "could not be resized" there too; DIFFERENCES T8).
  Without ``auto_resize_images`` the bytes are sent as they are (pi).
* Other files with a NUL byte in their first 8 KB are binary (pi-tui addition, case 22): the result is a
  short note ``Binary file <path> (<size> bytes) not shown...`` and never the raw bytes.
* Line breaks: ``\\r\\n`` and a lone ``\\r`` read as ``\\n`` (as the edit tool reads them, so the text the model
  is given matches for an edit; DIFFERENCES T5). Every other byte of the text, escape sequences and control
  characters included, reaches the model as it is in the file (pi; tester2 #23); the TUI cleans what it shows.
* Text is split on ``\\n``; ``offset`` (1-based) and ``limit`` select lines (a local file is streamed, only
  the lines that can be shown are kept: :mod:`~pi_tui.coding.tools.read_lines`, pi 1.5.1), then :func:`truncate_head`
  caps the output at 2000 lines / 50 KB with pi's continuation notices. A first line over 50 KB gives
  ``[Line <n> is <size>, exceeds 50.0KB limit. Use bash: sed -n '<n>p' <path> | head -c 51200]``.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Callable
from typing import Any, BinaryIO

from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.types import ImageContent, TextContent
from pi_tui.coding.images import (
    CONVERTED_OMITTED_NOTE,
    HEAD_BYTES,
    IMAGE_OMITTED_NOTE,
    ImageError,
    conversion_hint,
    detect_image_mime,
    format_dimension_note,
    normalize_image,
    resize_image,
)
from pi_tui.coding.images import DEFAULT_MAX_BYTES as MAX_IMAGE_BASE64_BYTES
from pi_tui.coding.tools.common import in_thread, node_error_message, run_abortable, text_result
from pi_tui.coding.tools.file_access import read_file
from pi_tui.coding.tools.path_utils import resolve_read_path
from pi_tui.coding.tools.read_lines import LineWindow, file_lines, select_lines, split_text_lines
from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, format_size

READ_DESCRIPTION = (
    "Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as "
    f"attachments. For text files, output is truncated to {DEFAULT_MAX_LINES} lines or "
    f"{DEFAULT_MAX_BYTES // 1024}KB (whichever is hit first). Use offset/limit for large files. When you "
    "need the full file, continue with offset until complete."
)

READ_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "required": ["path"],
    "properties": {
        "path": {"type": "string", "description": "Path to the file to read (relative or absolute)"},
        "offset": {"type": "number", "description": "Line number to start reading from (1-indexed)"},
        "limit": {"type": "number", "description": "Maximum number of lines to read"},
    },
}

IMAGE_UNSUPPORTED_KEY = "imageUnsupportedByModel"
"""``details`` key naming the model that got a placeholder for a read image (pi 1.6.0; the TUI warns)."""
BINARY_SNIFF_BYTES = 8192
MAX_INLINE_IMAGE_BYTES = MAX_IMAGE_BASE64_BYTES
"""pi's inline image limit, on the base64 size."""
UNDECODABLE_NOTE = "[Image omitted: the file could not be decoded as an image (corrupt or truncated?).]"


def is_binary(head: bytes) -> bool:
    """True when the first 8 KB contain a NUL byte (the usual binary heuristic; case 22)."""
    return b"\x00" in head[:BINARY_SNIFF_BYTES]


def _open(path: str) -> BinaryIO:
    """The file opened for reading, with pi's (Node's) error messages."""
    try:
        os.stat(path)
        if not os.access(path, os.R_OK):
            raise PermissionError(13, "permission denied", path)
    except OSError as exc:
        raise Exception(node_error_message(exc, "access", path)) from None
    if os.path.isdir(path):
        raise Exception("EISDIR: illegal operation on a directory, read")
    try:
        return open(path, "rb")
    except OSError as exc:
        raise Exception(node_error_message(exc, "open", path)) from None


def _load(path: str) -> bytes:
    with _open(path) as f:
        try:
            return f.read()
        except OSError as exc:
            raise Exception(node_error_message(exc, "open", path)) from None


def _read_local(path: str, offset: int | None, limit: int | None) -> tuple[str, Any, Any]:
    """A local file streamed (pi 1.5.1, #9654: never the whole file in memory for text): ``("image", bytes,
    mime)``, ``("binary", size, None)`` or ``("text", LineWindow, None)``; runs in a worker thread."""
    with _open(path) as f:
        try:
            head = f.read(BINARY_SNIFF_BYTES)
            mime = detect_image_mime(head[:HEAD_BYTES])
            if mime is not None:
                return "image", head + f.read(), mime
            if is_binary(head):
                return "binary", os.fstat(f.fileno()).st_size, None
            f.seek(0)
            return "text", select_lines(file_lines(f), offset, limit), None
        except OSError as exc:
            raise Exception(node_error_message(exc, "open", path)) from None


def _binary_note(path: str, size: int) -> str:
    return (
        f"Binary file {path} ({size} bytes) not shown: it contains NUL bytes and is not a "
        "supported image (jpg, png, gif, webp). Use bash (e.g. xxd, file) to inspect it."
    )


def _to_int(value: Any) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Exception(f"Invalid number: {value!r}") from None


def format_text(text: str, path: str, offset: int | None, limit: int | None) -> tuple[str, Any]:
    """``(output, details)`` for a text file, with pi's offset/limit/truncation rules and notices.

    Raises ``Offset <o> is beyond end of file (<n> lines total)``.
    """
    # a bare CR is a line break: no text hidden
    return format_window(select_lines(split_text_lines(text), offset, limit), path, offset)


def format_window(window: LineWindow, path: str, offset: int | None) -> tuple[str, Any]:
    """``(output, details)`` for the lines :func:`~pi_tui.coding.tools.read_lines.select_lines` kept (the
    streamed path and :func:`format_text` share it). Raises the offset error."""
    total, start, cut = window.total, window.start, window.cut
    if start >= total:
        raise Exception(f"Offset {offset} is beyond end of file ({total} lines total)")
    first = start + 1
    if cut.first_line_exceeds_limit:
        size = format_size(window.first_size)
        out = (
            f"[Line {first} is {size}, exceeds {format_size(DEFAULT_MAX_BYTES)} limit. Use bash: "
            f"sed -n '{first}p' {path} | head -c {DEFAULT_MAX_BYTES}]"
        )
        return out, {"truncation": cut.to_dict()}
    if cut.truncated:
        last = first + cut.output_lines - 1
        if cut.truncated_by == "lines":
            notice = f"[Showing lines {first}-{last} of {total}. Use offset={last + 1} to continue.]"
        else:
            notice = (
                f"[Showing lines {first}-{last} of {total} ({format_size(DEFAULT_MAX_BYTES)} limit). "
                f"Use offset={last + 1} to continue.]"
            )
        return f"{cut.content}\n\n{notice}", {"truncation": cut.to_dict()}
    if window.limited and start + window.count < total:
        remaining = total - (start + window.count)
        nxt = start + window.count + 1
        return f"{cut.content}\n\n[{remaining} more lines in file. Use offset={nxt} to continue.]", None
    return cut.content, None


class ReadTool(AgentTool):
    """``read(path, offset?, limit?)``; see the module docstring. Errors: Node-style ``ENOENT: no such
    file or directory, access '<abs>'``, the offset error, ``Operation aborted``."""

    cwd: str = Field(default=".", exclude=True)
    supports_images: Callable[[], bool] | None = Field(default=None, exclude=True)
    model_id: Callable[[], str | None] | None = Field(default=None, exclude=True)  # named in the image warning
    auto_resize_images: bool = Field(default=True, exclude=True)  # pi's images.autoResize
    file_access: Any = Field(default=None, exclude=True)  # tools/file_access.py; None = local files

    def __init__(self, cwd: str, supports_images: Callable[[], bool] | None = None,
                 auto_resize_images: bool = True, model_id: Callable[[], str | None] | None = None,
                 **data: Any) -> None:
        super().__init__(
            name="read",
            label="read",
            description=READ_DESCRIPTION,
            parameters=READ_PARAMETERS,
            cwd=cwd,
            supports_images=supports_images,
            model_id=model_id,
            auto_resize_images=auto_resize_images,
            **data,
        )

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Read the file; see the module docstring."""
        data = params.model_dump(by_alias=True) if hasattr(params, "model_dump") else params
        path = str(data["path"])
        offset, limit = _to_int(data.get("offset")), _to_int(data.get("limit"))
        absolute = resolve_read_path(path, self.cwd)
        if self.file_access is None:
            kind, value, image_mime = await run_abortable(signal, in_thread(_read_local, absolute, offset, limit))
            if kind == "image":
                return await run_abortable(signal, asyncio.to_thread(self._image_result, value, image_mime))
            if kind == "binary":
                return text_result(_binary_note(path, value))
            return text_result(*format_window(value, path, offset))
        raw = await run_abortable(signal, read_file(self.file_access, absolute, _load))
        mime = detect_image_mime(raw[:HEAD_BYTES])
        if mime is not None:
            return await run_abortable(signal, asyncio.to_thread(self._image_result, raw, mime))
        if is_binary(raw):
            return text_result(_binary_note(path, len(raw)))
        text = raw.decode("utf-8", "replace")
        out, details = format_text(text, path, offset, limit)
        return text_result(out, details)

    def _image_result(self, raw: bytes, mime: str) -> AgentToolResult:
        """pi's image branch of ``read`` (module docstring); runs in a worker thread (Pillow)."""
        details = self._unsupported_details()
        try:
            raw, mime, converted_from = normalize_image(raw, mime)  # a BMP becomes a PNG (pi 0.80.3)
        except ImageError:
            return text_result(f"Read image file [{mime}]\n{CONVERTED_OMITTED_NOTE}", details)
        hint = conversion_hint(converted_from, mime)
        encoded = base64.b64encode(raw).decode("ascii")
        note, image = f"Read image file [{mime}]", ImageContent(data=encoded, mime_type=mime)
        if self.auto_resize_images:
            try:
                resized = resize_image(encoded, mime)
            except ImageError:
                resized, note = None, f"{note}\n{UNDECODABLE_NOTE}"
            else:
                if resized is None:
                    note = f"{note}\n{IMAGE_OMITTED_NOTE}"
            if resized is None:
                return text_result(note, details)
            note = f"Read image file [{resized.mime_type}]"
            hint = conversion_hint(converted_from, resized.mime_type)
            for extra in (hint, format_dimension_note(resized)):
                if extra:
                    note += f"\n{extra}"
            image = ImageContent(data=resized.data, mime_type=resized.mime_type)
        elif hint:
            note += f"\n{hint}"
        return AgentToolResult(content=[TextContent(text=note), image], details=details)

    def _unsupported_details(self) -> dict[str, str] | None:
        """pi 1.6.0: a model without image input is named in ``details.imageUnsupportedByModel`` (shown by the
        TUI only); the result itself carries no note, so a later vision model is not told the image is missing
        (the placeholder is put in per request by ``transform_messages``)."""
        if self.supports_images is None or self.supports_images():
            return None
        name = self.model_id() if self.model_id is not None else None
        return {IMAGE_UNSUPPORTED_KEY: name or "The current model"}
