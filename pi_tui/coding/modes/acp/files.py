"""File access through the ACP client (``fs/read_text_file``, ``fs/write_text_file``), for clients that offer
it in ``initialize`` (``clientCapabilities.fs``): ``read``/``edit`` then see the editor's unsaved buffers and
``write``/``edit`` go through the editor. It implements :class:`~pi_tui.coding.tools.file_access.FileAccess`.

Only text goes through the client: a file whose first bytes on disk are an image or binary is read locally
(``read`` keeps its image and binary handling). Anything the client refuses or fails to do (an error
response, a closed connection, bytes that are not UTF-8) is left to the local file system, so the tool
behaves as without a client.
"""

from __future__ import annotations

import logging
from typing import Any

from pi_tui.coding.tools.read import detect_image_mime, is_binary

log = logging.getLogger(__name__)

FILE_TOOLS = ("read", "write", "edit")


def _head(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(8192)
    except OSError:
        return b""


class ClientFileAccess:
    """Reads (``read``) and writes (``write``) through the client for one session (module docstring)."""

    def __init__(self, client: Any, session_id: str, *, read: bool, write: bool) -> None:
        self.client = client
        self.session_id = session_id
        self.read = read
        self.write = write

    async def read_bytes(self, path: str) -> bytes | None:
        """The client's text of ``path`` (an open buffer may be unsaved) as UTF-8, or None (read locally)."""
        if not self.read:
            return None
        head = _head(path)
        if head and (detect_image_mime(head[:16]) is not None or is_binary(head)):
            return None
        try:
            response = await self.client.read_text_file(session_id=self.session_id, path=path)
        except Exception as exc:
            log.info("fs/read_text_file %s failed (%s); reading the local file", path, exc)
            return None
        return str(response.content).encode("utf-8")

    async def write_bytes(self, path: str, data: bytes) -> bool:
        """Write through the client; False (write locally) when it is not text or the client fails."""
        if not self.write:
            return False
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        try:
            await self.client.write_text_file(session_id=self.session_id, path=path, content=text)
        except Exception as exc:
            log.info("fs/write_text_file %s failed (%s); writing the local file", path, exc)
            return False
        return True


def install(session: Any, access: ClientFileAccess) -> None:
    """Give the session's ``read``/``write``/``edit`` tools ``access`` (active and inactive tools alike)."""
    tools = list(getattr(session, "all_tools", {}).values()) + list(session.agent.state.tools)
    for tool in tools:
        if getattr(tool, "name", None) in FILE_TOOLS and hasattr(tool, "file_access"):
            tool.file_access = access
