"""The ``read`` tool (pi-reference §3.13 ``read``, cases 22).

* Images are detected by magic bytes (JPEG, PNG, GIF, WebP; not by extension) and returned as
  ``Read image file [<mime>]`` + an image block (+ pi's non-vision note when the model cannot take
  images). With ``auto_resize_images`` (setting ``images.autoResize``, default on) they are resized as pi
  does (:func:`pi_tui.coding.images.resize_image`: at most 2000x2000 and under 4.5 MB of base64, in a worker
  thread), the MIME type in the note is the sent one and a resized image gets pi's dimension note
  (``[Image: original WxH, displayed at wxh. ...]``); one that cannot be brought under the limit gets pi's
  ``[Image omitted: could not be resized below the inline image size limit.]`` note instead of the image
  block. A file with an image header that does not decode gets ``[Image omitted: the file could not be
  decoded as an image (corrupt or truncated?).]`` (pi says "could not be resized" there too; DIFFERENCES T8).
  Without ``auto_resize_images`` the bytes are sent as they are (pi).
* Other files with a NUL byte in their first 8 KB are binary (pi-tui addition, case 22): the result is a
  short note ``Binary file <path> (<size> bytes) not shown...`` and never the raw bytes.
* Line breaks: ``\\r\\n`` and a lone ``\\r`` read as ``\\n`` (as the edit tool reads them), so the text of a
  file with bare carriage returns is never hidden by the terminal-control sanitiser that every tool result
  goes through (:mod:`pi_tui.agent.terminal_text`: escape sequences and control characters removed; pi sends
  the raw bytes to the model; issue 10 class 7).
* Text is split on ``\\n``; ``offset`` (1-based) and ``limit`` select lines, then :func:`truncate_head`
  caps the output at 2000 lines / 50 KB with pi's continuation notices. A first line over 50 KB gives
  ``[Line <n> is <size>, exceeds 50.0KB limit. Use bash: sed -n '<n>p' <path> | head -c 51200]``.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Callable
from typing import Any

from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.types import ImageContent, TextContent
from pi_tui.coding.images import DEFAULT_MAX_BYTES as MAX_IMAGE_BASE64_BYTES
from pi_tui.coding.images import (
    IMAGE_OMITTED_NOTE,
    ImageError,
    detect_image_mime,
    format_dimension_note,
    resize_image,
)
from pi_tui.coding.tools.common import node_error_message, run_abortable, text_result
from pi_tui.coding.tools.file_access import read_file
from pi_tui.coding.tools.path_utils import resolve_read_path
from pi_tui.coding.tools.truncate import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINES,
    count_lines,
    format_size,
    truncate_head,
)

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

NON_VISION_NOTE = "[Current model does not support images. The image will be omitted from this request.]"
BINARY_SNIFF_BYTES = 8192
MAX_INLINE_IMAGE_BYTES = MAX_IMAGE_BASE64_BYTES
"""pi's inline image limit, on the base64 size."""
UNDECODABLE_NOTE = "[Image omitted: the file could not be decoded as an image (corrupt or truncated?).]"


def is_binary(head: bytes) -> bool:
    """True when the first 8 KB contain a NUL byte (the usual binary heuristic; case 22)."""
    return b"\x00" in head[:BINARY_SNIFF_BYTES]


def _load(path: str) -> bytes:
    try:
        os.stat(path)
        if not os.access(path, os.R_OK):
            raise PermissionError(13, "permission denied", path)
    except OSError as exc:
        raise Exception(node_error_message(exc, "access", path)) from None
    if os.path.isdir(path):
        raise Exception("EISDIR: illegal operation on a directory, read")
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise Exception(node_error_message(exc, "open", path)) from None


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
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")  # a bare CR is a line break: no text hidden
    all_lines = normalized.split("\n")
    total = count_lines(normalized)  # a final newline ends the last line (issue 9: 5,000 lines are not 5,001)
    start = max(0, offset - 1) if offset else 0
    if start >= total:
        raise Exception(f"Offset {offset} is beyond end of file ({total} lines total)")
    user_limited: int | None = None
    if limit is not None:
        end = min(start + limit, total)
        selected = "\n".join(all_lines[start:end])
        user_limited = max(0, end - start)
    else:
        selected = "\n".join(all_lines[start:])
    cut = truncate_head(selected)
    first = start + 1
    if cut.first_line_exceeds_limit:
        size = format_size(len(all_lines[start].encode("utf-8", "surrogatepass")))
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
    if user_limited is not None and start + user_limited < total:
        remaining = total - (start + user_limited)
        nxt = start + user_limited + 1
        return f"{cut.content}\n\n[{remaining} more lines in file. Use offset={nxt} to continue.]", None
    return cut.content, None


class ReadTool(AgentTool):
    """``read(path, offset?, limit?)``; see the module docstring. Errors: Node-style ``ENOENT: no such
    file or directory, access '<abs>'``, the offset error, ``Operation aborted``."""

    cwd: str = Field(default=".", exclude=True)
    supports_images: Callable[[], bool] | None = Field(default=None, exclude=True)
    auto_resize_images: bool = Field(default=True, exclude=True)  # pi's images.autoResize
    file_access: Any = Field(default=None, exclude=True)  # tools/file_access.py; None = local files

    def __init__(self, cwd: str, supports_images: Callable[[], bool] | None = None,
                 auto_resize_images: bool = True, **data: Any) -> None:
        super().__init__(
            name="read",
            label="read",
            description=READ_DESCRIPTION,
            parameters=READ_PARAMETERS,
            cwd=cwd,
            supports_images=supports_images,
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
        raw = await run_abortable(signal, read_file(self.file_access, absolute, _load))
        mime = detect_image_mime(raw[:16])
        if mime is not None:
            return await run_abortable(signal, asyncio.to_thread(self._image_result, raw, mime))
        if is_binary(raw):
            return text_result(
                f"Binary file {path} ({len(raw)} bytes) not shown: it contains NUL bytes and is not a "
                "supported image (jpg, png, gif, webp). Use bash (e.g. xxd, file) to inspect it."
            )
        text = raw.decode("utf-8", "replace")
        out, details = format_text(text, path, offset, limit)
        return text_result(out, details)

    def _image_result(self, raw: bytes, mime: str) -> AgentToolResult:
        """pi's image branch of ``read`` (module docstring); runs in a worker thread (Pillow)."""
        non_vision = self.supports_images is not None and not self.supports_images()
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
                return text_result(note + (f"\n{NON_VISION_NOTE}" if non_vision else ""))
            note = f"Read image file [{resized.mime_type}]"
            dimension_note = format_dimension_note(resized)
            if dimension_note:
                note += f"\n{dimension_note}"
            image = ImageContent(data=resized.data, mime_type=resized.mime_type)
        if non_vision:
            note += f"\n{NON_VISION_NOTE}"
        return AgentToolResult(content=[TextContent(text=note), image])
