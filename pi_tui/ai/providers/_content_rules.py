"""Content rules shared by the request converters: what an empty part becomes.

* :func:`user_content_parts`: a user message with images drops its blank text parts. Image-only prompts are
  built as ``[text "", image]``, and some OpenAI-compatible servers (and Gemini: "empty text parameter")
  reject the empty text part (pi 0.87.1, earendil-works/pi#9797).
* :func:`tool_result_text`: a tool result whose text is empty or only whitespace (a bare ``\\r\\n`` from
  bash) is sent as ``(see attached image)`` when it has images, else ``(no tool output)``; Chat Completions,
  Responses and Gemini answered 400 for the blank text (pi 1.4.0, pi#8720), and pi 0.80.4 stopped calling
  an image-less empty result "(see attached image)".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..types import ImageContent, TextContent

NO_TOOL_OUTPUT = "(no tool output)"
SEE_ATTACHED_IMAGE = "(see attached image)"


def user_content_parts(content: Sequence[Any]) -> list[Any]:
    """``content`` without blank text parts when it also holds an image; unchanged otherwise."""
    if not any(isinstance(c, ImageContent) for c in content):
        return list(content)
    return [c for c in content if not (isinstance(c, TextContent) and not c.text.strip())]


def tool_result_text(content: Sequence[Any]) -> str:
    """The text parts of a tool result joined by newlines, or the placeholder for a blank one."""
    text = "\n".join(c.text for c in content if isinstance(c, TextContent))
    if text.strip():
        return text
    return SEE_ATTACHED_IMAGE if any(isinstance(c, ImageContent) for c in content) else NO_TOOL_OUTPUT


__all__ = ["NO_TOOL_OUTPUT", "SEE_ATTACHED_IMAGE", "tool_result_text", "user_content_parts"]
