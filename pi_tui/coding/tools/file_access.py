"""The seam through which ``read``, ``write`` and ``edit`` reach file contents (issue 14: an ACP client may serve
files, e.g. unsaved editor buffers).

A tool's ``file_access`` is None by default: the local file system, as always. A :class:`FileAccess` may
serve a read (``read_bytes`` returns the bytes) or decline it (None: the local file is read); it may take a
write (``write_bytes`` returns True) or decline it (False: the local file is written). Declining is also
the answer to any failure of its own, so a broken client never loses a write.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pi_tui.coding.tools.common import in_thread


class FileAccess(Protocol):
    """Optional provider of file contents for the file tools (module docstring)."""

    async def read_bytes(self, path: str) -> bytes | None:
        """The contents of the absolute ``path``, or None to let the tool read the local file."""
        ...

    async def write_bytes(self, path: str, data: bytes) -> bool:
        """Write ``data`` to the absolute ``path``; False to let the tool write the local file."""
        ...


async def read_file(access: Any, path: str, local: Callable[[str], bytes]) -> bytes:
    """``access.read_bytes(path)`` when it serves the read, else ``local(path)`` in a thread."""
    if access is not None:
        served = await access.read_bytes(path)
        if served is not None:
            return bytes(served)
    return await in_thread(local, path)


async def write_file(access: Any, path: str, data: bytes, local: Callable[[str, bytes], None]) -> None:
    """``access.write_bytes(path, data)`` when it takes the write, else ``local(path, data)`` in a thread."""
    if access is not None and await access.write_bytes(path, data):
        return
    await in_thread(local, path, data)
