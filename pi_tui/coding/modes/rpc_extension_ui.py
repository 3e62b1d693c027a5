"""RPC mode's :class:`~pi_tui.coding.extensions.ui.ExtensionUI`: pi's extension-UI sub-protocol (pi
docs/rpc.md "Extension UI Protocol").

Dialogs (``select``, ``confirm``, ``input``, ``editor``) write ``{"type": "extension_ui_request", "id",
"method", ...}`` on stdout and wait for ``{"type": "extension_ui_response", "id", "value" | "confirmed" |
"cancelled"}`` on stdin; ``timeout`` (ms) is included when given and the agent side resolves the dialog
with its default when it expires (the client need not track it). Fire-and-forget methods (``notify``,
``setStatus``, ``setWidget``, ``setTitle``, ``set_editor_text``) only write the request. ``has_ui`` is True.
A response for an unknown id is ignored.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Sequence
from typing import Any


class RpcExtensionUI:
    """The sub-protocol over ``write(dict)`` (the RPC line writer); feed responses to :meth:`handle_response`."""

    def __init__(self, write: Callable[[dict[str, Any]], None]) -> None:
        self._write = write
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}

    @property
    def has_ui(self) -> bool:
        """True: the client answers dialogs."""
        return True

    def handle_response(self, response: dict[str, Any]) -> bool:
        """Resolve the dialog ``response["id"]`` is for; False when no dialog waits for that id."""
        future = self._pending.pop(str(response.get("id")), None)
        if future is None or future.done():
            return False
        future.set_result(response)
        return True

    async def _ask(self, method: str, fields: dict[str, Any], timeout_ms: int | None) -> dict[str, Any] | None:
        request_id = str(uuid.uuid4())
        request: dict[str, Any] = {"type": "extension_ui_request", "id": request_id, "method": method, **fields}
        if timeout_ms:
            request["timeout"] = timeout_ms
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self._write(request)
        try:
            return await future
        finally:
            self._pending.pop(request_id, None)

    async def confirm(self, title: str, message: str = "", *, timeout_ms: int | None = None) -> bool:
        """``confirm``: ``confirmed`` (False when cancelled)."""
        response = await self._ask("confirm", {"title": title, "message": message}, timeout_ms)
        return bool(response and not response.get("cancelled") and response.get("confirmed"))

    async def _value(self, method: str, fields: dict[str, Any], timeout_ms: int | None) -> str | None:
        response = await self._ask(method, fields, timeout_ms)
        if not response or response.get("cancelled"):
            return None
        value = response.get("value")
        return value if isinstance(value, str) else None

    async def select(self, title: str, options: Sequence[str], *, timeout_ms: int | None = None) -> str | None:
        """``select``: the chosen option."""
        return await self._value("select", {"title": title, "options": list(options)}, timeout_ms)

    async def input(self, title: str, placeholder: str = "", *, timeout_ms: int | None = None) -> str | None:
        """``input``: the text entered."""
        return await self._value("input", {"title": title, "placeholder": placeholder}, timeout_ms)

    async def editor(self, title: str, prefill: str = "", *, timeout_ms: int | None = None) -> str | None:
        """``editor``: the edited text."""
        return await self._value("editor", {"title": title, "prefill": prefill}, timeout_ms)

    def _tell(self, method: str, fields: dict[str, Any]) -> None:
        self._write({"type": "extension_ui_request", "id": str(uuid.uuid4()), "method": method, **fields})

    def notify(self, message: str, level: str = "info") -> None:
        """``notify`` with ``notifyType``."""
        self._tell("notify", {"message": message, "notifyType": level})

    def set_status(self, key: str, text: str | None) -> None:
        """``setStatus`` (``statusText`` omitted to clear)."""
        fields: dict[str, Any] = {"statusKey": key}
        if text is not None:
            fields["statusText"] = text
        self._tell("setStatus", fields)

    def set_widget(self, key: str, lines: Sequence[str] | None, placement: str = "aboveEditor") -> None:
        """``setWidget`` (``widgetLines`` omitted to clear)."""
        fields: dict[str, Any] = {"widgetKey": key, "widgetPlacement": placement}
        if lines is not None:
            fields["widgetLines"] = list(lines)
        self._tell("setWidget", fields)

    def set_title(self, title: str) -> None:
        """``setTitle``."""
        self._tell("setTitle", {"title": title})

    def set_editor_text(self, text: str) -> None:
        """``set_editor_text``."""
        self._tell("set_editor_text", {"text": text})

    def get_editor_text(self) -> str:
        """``""`` (pi: no editor in RPC mode)."""
        return ""
