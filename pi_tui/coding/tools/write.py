"""The ``write`` tool (pi-reference §3.13 ``write``).

Creates parent directories and overwrites the file with ``content`` (UTF-8, written as given: no line
ending or BOM changes). Runs inside the per-file mutation queue. The success text gives the real size on
disk: ``Successfully wrote <n> bytes to <path>`` (pi 0.73 counted UTF-16 code units as bytes, which pi 0.85.0
called misleading; DIFFERENCES.md T-write).

``details`` is ``{"artifacts": [{"title": path, "kind": "diff", "content": <unified diff of the old
file (or /dev/null) against the new content>, "path": path}]}``; pi itself returns no details (the
``artifacts`` key is the pi-tui UI-only addition, never sent to the LLM).
"""

from __future__ import annotations

import os
from typing import Any

from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.common import (
    check_aborted,
    decode_preserving,
    encode_preserving,
    in_thread,
    node_error_message,
    run_abortable,
    text_result,
)
from pi_tui.coding.tools.edit_diff import normalize_to_lf, strip_bom, unified_diff
from pi_tui.coding.tools.file_access import write_file
from pi_tui.coding.tools.file_mutation_queue import with_file_mutation_queue
from pi_tui.coding.tools.path_utils import resolve_to_cwd

WRITE_DESCRIPTION = (
    "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. "
    "Automatically creates parent directories."
)

WRITE_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "required": ["path", "content"],
    "properties": {
        "path": {"type": "string", "description": "Path to the file to write (relative or absolute)"},
        "content": {"type": "string", "description": "Content to write to the file"},
    },
}

_MAX_DIFF_SOURCE_BYTES = 2 * 1024 * 1024


def _read_old(path: str) -> str | None:
    """The current text of ``path`` for the diff artifact; None if missing, not a file or too big."""
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _MAX_DIFF_SOURCE_BYTES:
            return None
        with open(path, "rb") as f:
            return decode_preserving(f.read())
    except OSError:
        return None


def _write(path: str, data: bytes) -> None:
    parent = os.path.dirname(path) or "."
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError as exc:
        raise Exception(node_error_message(exc, "mkdir", exc.filename or parent)) from None
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise Exception(node_error_message(exc, "open", path)) from None


def _write_diff(old: str | None, content: str, path: str) -> str:
    old_text = normalize_to_lf(strip_bom(old)[1]) if old is not None else ""
    new_text = normalize_to_lf(strip_bom(content)[1])
    return unified_diff(old_text, new_text, path, old_exists=old is not None)


class WriteTool(AgentTool):
    """``write(path, content)`` -> ``Successfully wrote <n> bytes to <path>``.

    Errors: Node-style OS error text (e.g. ``EACCES: permission denied, open '/x'``), ``Operation aborted``.
    """

    cwd: str = Field(default=".", exclude=True)
    file_access: Any = Field(default=None, exclude=True)  # tools/file_access.py; None = local files

    def __init__(self, cwd: str, **data: Any) -> None:
        super().__init__(
            name="write",
            label="write",
            description=WRITE_DESCRIPTION,
            parameters=WRITE_PARAMETERS,
            cwd=cwd,
            **data,
        )

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Write the file; see the class docstring."""
        data = params.model_dump(by_alias=True) if hasattr(params, "model_dump") else params
        path = str(data["path"])
        content = data["content"]
        if not isinstance(content, str):
            raise Exception("content must be a string")
        absolute = resolve_to_cwd(path, self.cwd)

        async def mutate() -> AgentToolResult:
            check_aborted(signal)
            old = await in_thread(_read_old, absolute)
            encoded = encode_preserving(content)
            await run_abortable(signal, write_file(self.file_access, absolute, encoded, _write))
            diff = await in_thread(_write_diff, old, content, path)
            details = {"artifacts": [{"title": path, "kind": "diff", "content": diff, "path": path}]}
            return text_result(f"Successfully wrote {len(encoded)} bytes to {path}", details)

        return await with_file_mutation_queue(absolute, mutate)
