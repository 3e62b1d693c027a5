"""The ``ls`` tool (pi-reference §3.13 ``ls``).

Entries of one directory, sorted case-insensitively, dotfiles included, directories suffixed ``/``
(symlinks to directories too: the entry is stat-ed), entries that cannot be stat-ed skipped. At most
``limit`` (default 500) entries, output cut to 50 KB. Empty: ``(empty directory)``. Notices
``[<limit> entries limit reached. Use limit=<2*limit> for more. 50.0KB limit reached]``. Errors:
``Path not found: <abs>``, ``Not a directory: <abs>``, ``Cannot read directory: <msg>``,
``Operation aborted``.
"""

from __future__ import annotations

import os
import stat
from typing import Any

from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.common import in_thread, limit_of, run_abortable, text_result
from pi_tui.coding.tools.listing_result import listing_result
from pi_tui.coding.tools.path_utils import resolve_to_cwd
from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES

DEFAULT_LS_LIMIT = 500

LS_DESCRIPTION = (
    "List directory contents. Returns entries sorted alphabetically, with '/' suffix for directories. "
    f"Includes dotfiles. Output is truncated to {DEFAULT_LS_LIMIT} entries or "
    f"{DEFAULT_MAX_BYTES // 1024}KB (whichever is hit first)."
)

LS_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "Directory to list (default: current directory)"},
        "limit": {"type": "number", "description": "Maximum number of entries to return (default: 500)"},
    },
}


def list_directory(dir_path: str, limit: int) -> tuple[list[str], bool]:
    """``(entries, limit_reached)`` for ``dir_path``; raises the tool's error texts."""
    if not os.path.exists(dir_path):
        raise Exception(f"Path not found: {dir_path}")
    if not os.path.isdir(dir_path):
        raise Exception(f"Not a directory: {dir_path}")
    try:
        names = os.listdir(dir_path)
    except OSError as exc:
        raise Exception(f"Cannot read directory: {exc.strerror or exc}") from None
    names.sort(key=lambda n: (n.lower(), n))
    results: list[str] = []
    for name in names:
        if len(results) >= limit:
            return results, True
        try:
            is_dir = stat.S_ISDIR(os.stat(os.path.join(dir_path, name)).st_mode)
        except OSError:
            continue
        results.append(name + "/" if is_dir else name)
    return results, False


class LsTool(AgentTool):
    """``ls(path?, limit?)``; see the module docstring."""

    cwd: str = Field(default=".", exclude=True)

    def __init__(self, cwd: str, **data: Any) -> None:
        super().__init__(
            name="ls", label="ls", description=LS_DESCRIPTION, parameters=LS_PARAMETERS, cwd=cwd, **data
        )

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """List the directory; see the module docstring."""
        data = params.model_dump(by_alias=True) if hasattr(params, "model_dump") else (params or {})
        dir_path = resolve_to_cwd(data.get("path") or ".", self.cwd)
        limit = limit_of(data.get("limit"), DEFAULT_LS_LIMIT)
        results, limit_reached = await run_abortable(signal, in_thread(list_directory, dir_path, limit))
        if not results:
            return text_result("(empty directory)")
        notice = f"{limit} entries limit reached. Use limit={limit * 2} for more"
        return listing_result(results, [(notice, "entryLimitReached", limit)] if limit_reached else [])
