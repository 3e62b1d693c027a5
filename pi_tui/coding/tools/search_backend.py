"""Choosing between the external search programs (``rg``, ``fd``) and the Python fallbacks.

``backend="auto"`` (default) uses the program when it is on PATH (Debian names ``rg``, ``fdfind`` are
found too) and the Python fallback otherwise. ``backend="python"`` forces the fallback, as does the
environment variable ``PI_TUI_SEARCH_BACKEND=python``; ``backend="external"`` requires the program.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
from functools import lru_cache
from typing import Literal

SearchBackend = Literal["auto", "external", "python"]
BACKEND_ENV = "PI_TUI_SEARCH_BACKEND"


def effective_backend(backend: SearchBackend) -> SearchBackend:
    """``backend``, overridden to ``"python"`` when ``PI_TUI_SEARCH_BACKEND=python``."""
    if os.environ.get(BACKEND_ENV, "").strip().lower() == "python":
        return "python"
    return backend


def find_program(*names: str) -> str | None:
    """First of ``names`` found on PATH."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


@lru_cache(maxsize=8)
def fd_supports_no_require_git(fd_path: str) -> bool:
    """Whether this ``fd`` knows ``--no-require-git`` (fd >= 8.7; Debian bookworm's 8.6 does not)."""
    try:
        out = subprocess.run([fd_path, "--help"], capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return "--no-require-git" in out.stdout


async def fd_usable(fd_path: str) -> bool:
    """:func:`fd_supports_no_require_git` off the event loop."""
    return await asyncio.to_thread(fd_supports_no_require_git, fd_path)
