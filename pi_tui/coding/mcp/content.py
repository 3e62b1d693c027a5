"""MCP content blocks → pi's tool-result content (text and image blocks; pi-reference §1.2 ``ToolResultContent``).

Rules (pi 1.x docs/mcp.md "Control tool exposure", "Use resources"):

- ``text`` → text; ``image`` → image (base64 data and MIME type kept);
- an embedded ``resource`` with text → ``Resource <uri>:`` + its text; with a blob of an ``image/*`` type →
  image; another blob → a line naming the URI, MIME type and size (the model cannot read raw bytes);
- ``resource_link`` → a line with its name, URI and MIME type; ``audio`` → a line with its MIME type and size;
- no content but ``structuredContent`` → its JSON;
- a text block longer than :data:`MAX_TEXT_CHARS` keeps its start and end around ``…N chars truncated…``.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import TYPE_CHECKING, Any

from pi_tui.ai.types import ImageContent, TextContent

if TYPE_CHECKING:
    import mcp_types as mt

MAX_TEXT_CHARS = 20_000
"""Text blocks longer than this reach the model with their middle removed (pi: 20 KB)."""

ResultBlock = TextContent | ImageContent


def truncate_middle(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """``text`` if it fits in ``limit`` characters, else its head and tail around ``…N chars truncated…``."""
    if len(text) <= limit:
        return text
    keep = limit // 2
    cut = len(text) - 2 * keep
    return f"{text[:keep]}\n…{cut} chars truncated…\n{text[-keep:]}"


def _decoded_size(data: str) -> int | None:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return None


def _size_text(data: str) -> str:
    size = _decoded_size(data)
    return f"{size} bytes" if size is not None else "undecodable base64"


def convert_block(block: Any) -> ResultBlock:
    """One MCP content block (``mcp_types.ContentBlock``, told apart by its ``type``) as a pi text or image block."""
    kind = getattr(block, "type", type(block).__name__)
    if kind == "text":
        return TextContent(text=truncate_middle(block.text))
    if kind == "image":
        return ImageContent(data=block.data, mime_type=block.mime_type)
    if kind == "audio":
        return TextContent(text=f"[audio {block.mime_type}, {_size_text(block.data)}: not shown to the model]")
    if kind == "resource_link":
        mime = f" ({block.mime_type})" if block.mime_type else ""
        return TextContent(text=f"Resource link: {block.name} {block.uri}{mime}")
    if kind == "resource":
        resource = block.resource
        if isinstance(getattr(resource, "text", None), str):
            return TextContent(text=truncate_middle(f"Resource {resource.uri}:\n{resource.text}"))
        mime = resource.mime_type or "application/octet-stream"
        if mime.startswith("image/"):
            return ImageContent(data=resource.blob, mime_type=mime)
        return TextContent(text=f"[binary resource {resource.uri} ({mime}, {_size_text(resource.blob)})]")
    return TextContent(text=f"[unsupported MCP content block: {kind}]")


def convert_result(result: mt.CallToolResult) -> list[ResultBlock]:
    """The content of a ``tools/call`` result as pi blocks (``structuredContent`` as JSON when there is none)."""
    blocks = [convert_block(block) for block in result.content]
    if not blocks and result.structured_content is not None:
        text = json.dumps(result.structured_content, ensure_ascii=False, indent=2)
        blocks.append(TextContent(text=truncate_middle(text)))
    return blocks


def result_text(blocks: list[ResultBlock]) -> str:
    """The text of ``blocks`` joined by newlines (images skipped), for error messages."""
    return "\n".join(b.text for b in blocks if isinstance(b, TextContent))
