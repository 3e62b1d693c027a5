"""Custom messages (``role="custom"``, from ``pi.send_message``) in the transcript, drawn by the renderer an
extension registered for their ``custom_type`` (pi's ``registerMessageRenderer``; pi docs/extensions.md
"Custom UI"): ``render(message, ctx)`` gets the message (``custom_type``, ``content``, ``details``,
``display``) and a :class:`~pi_tui.coding.extensions.registries.MessageRenderContext`, and returns a
``str`` or a Rich renderable, shown on the custom-message background in place of the label and text. A
renderer that is missing, returns None or raises leaves the default look (label + Markdown; pi's
fallback); a raise is logged, never shown as a crash.
"""

from __future__ import annotations

import logging
from typing import Any

from rich.console import RenderableType
from rich.padding import Padding
from textual.strip import Strip

from pi_tui.coding.extensions.registries import MessageRenderContext
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.tool_custom_render import renderable
from pi_tui.tui.widgets.transcript_items import SummaryItem

log = logging.getLogger(__name__)


class CustomMessageItem(SummaryItem):
    """A ``custom`` message: the extension's rendering when it has one, else the summary look."""

    def __init__(self, custom_type: str, text: str, message: Any) -> None:
        super().__init__(custom_type, text, collapsed_by_default=False)
        self.custom_type = custom_type
        self.message = message

    def custom_body(self, ctx: RenderContext) -> RenderableType | None:
        """What the registered renderer draws (None: the default look)."""
        registry = ctx.tool_renderers
        spec = registry.message(self.custom_type) if registry is not None and hasattr(registry, "message") else None
        if spec is None:
            return None
        try:
            return renderable(spec.render(self.message, MessageRenderContext(expanded=self.is_expanded(ctx))))
        except Exception:
            log.exception("message renderer of %s failed", self.custom_type)
            return None

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        body = self.custom_body(ctx)
        if body is None:
            return super().build(ctx, width)
        style = ctx.theme.bg("customMessageBg")
        return ctx.to_strips(Padding(body, (1, 1), style=style, expand=True), width)
