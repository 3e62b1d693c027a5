"""Extension-rendered tool rows (pi's ``renderCall``/``renderResult``; pi docs/extensions.md "Custom
Rendering"): a tool registered with ``render_call``/``render_result`` draws its own header and/or body.
A renderer that is missing, returns None or raises leaves that slot to the default rendering (pi's
fallback); a ``str`` is shown as plain text, a Rich renderable as it is.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from pi_tui.coding.extensions.registries import RenderContext as ExtensionRenderContext

log = logging.getLogger(__name__)


@dataclass
class ToolResultView:
    """The result a ``render_result`` gets: ``content`` (text blocks), ``details``, ``is_error``, ``text``."""

    content: list[dict[str, Any]]
    details: Any
    is_error: bool
    text: str


def renderable(value: Any) -> RenderableType | None:
    """What a renderer returned as a Rich renderable: a ``str`` as plain text, a renderable as it is, None as None."""
    if value is None:
        return None
    if isinstance(value, str):
        return Text(value)
    if hasattr(value, "__rich__") or hasattr(value, "__rich_console__"):
        return value  # type: ignore[no-any-return]
    return Text(str(value))


def custom_parts(item: Any, renderers: Any, expanded: bool) -> tuple[RenderableType | None, RenderableType | None]:
    """``(header, body)`` drawn by the extension renderer of ``item.name`` (each None: default)."""
    spec = renderers.tool(item.name) if renderers is not None else None
    if spec is None:
        return None, None
    state = item.__dict__.setdefault("render_state", {})
    finished = item.status in ("done", "error", "blocked")
    context = ExtensionRenderContext(args=dict(item.args), tool_call_id=item.tool_call_id, expanded=expanded,
                                     is_partial=not finished, is_error=item.status in ("error", "blocked"),
                                     state=state)
    header = body = None
    if spec.render_call is not None:
        try:
            header = renderable(spec.render_call(dict(item.args), context))
        except Exception:
            log.exception("render_call of %s failed", item.name)
    if spec.render_result is not None and (finished or item.partial_text):
        text = item.result_text if finished else item.partial_text
        result = ToolResultView(content=[{"type": "text", "text": text}], details=item.details,
                                is_error=context.is_error, text=text)
        try:
            body = renderable(spec.render_result(result, context))
        except Exception:
            log.exception("render_result of %s failed", item.name)
    return header, body
