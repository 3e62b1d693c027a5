"""Listing an MCP server's resources (``resources/list``, paginated) when it advertises the capability.

Kept apart from :mod:`pi_tui.coding.mcp.connection` so that module stays small; used at connect time and after
``notifications/resources/list_changed``. A listing that fails leaves the server connected with no resources
(its tools still work); the failure is logged, not raised.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import mcp_types as mt
    from mcp import ClientSession

log = logging.getLogger(__name__)

MAX_PAGES = 20
"""At most this many ``resources/list`` pages are read (a server that pages forever is cut off)."""


async def list_resources(session: ClientSession, capabilities: mt.ServerCapabilities | None, sdk: Any) -> list[mt.Resource]:
    """Every resource ``session``'s server lists (``[]`` when ``capabilities`` says it has none; None: ask
    anyway, after a list-changed notification). Never raises."""
    if capabilities is not None and capabilities.resources is None:
        return []
    resources: list[mt.Resource] = []
    cursor: str | None = None
    try:
        for _ in range(MAX_PAGES):
            params = sdk.mt.PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await session.list_resources(params=params)
            resources.extend(page.resources)
            cursor = page.next_cursor
            if not cursor:
                break
    except Exception as exc:  # a server that advertises resources but fails listing keeps its tools
        from pi_tui.coding.mcp.connection import describe_exception

        log.warning("mcp: listing resources failed: %s", describe_exception(exc))
    return resources
