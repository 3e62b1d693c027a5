"""The ``find`` tool (pi-reference §3.13 ``find``; regressions #3302 path globs, #3303 nested .gitignore).

Backend: ``fd --glob --color=never --hidden --no-require-git --max-results <limit> [--full-path] --
<pattern> <path>`` when an ``fd`` (or Debian ``fdfind``) that supports ``--no-require-git`` is on PATH
(an older fd is used without that flag inside a git work tree, where it makes no difference);
otherwise a Python walk (:func:`~pi_tui.coding.tools.ignore_walk.walk`, ``.gitignore`` files honoured
everywhere, nested ones too) with the same glob rules: a pattern without ``/`` matches the entry's
base name; a pattern with ``/`` matches the absolute path and gets a ``**/`` prefix unless it starts
with ``/`` or ``**/`` (or is ``**``). Directories match too and keep a trailing ``/``.

Output: paths relative to the search directory, POSIX separators, one per line; ``No files found
matching pattern`` when empty; notices ``[<limit> results limit reached. Use limit=<2*limit> for more,
or refine pattern. 50.0KB limit reached]``. Errors: ``Path not found: <abs>`` (Python backend), fd's
stderr, ``fd is not available and could not be downloaded`` (``backend="external"`` only),
``Operation aborted``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from typing import Any

from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.common import ABORTED, check_aborted, limit_of, text_result
from pi_tui.coding.tools.ignore_walk import glob_to_regex, in_git_repo, walk
from pi_tui.coding.tools.listing_result import listing_result
from pi_tui.coding.tools.path_utils import resolve_to_cwd
from pi_tui.coding.tools.search_backend import SearchBackend, effective_backend, fd_usable, find_program
from pi_tui.coding.tools.truncate import DEFAULT_MAX_BYTES

DEFAULT_FIND_LIMIT = 1000

FIND_DESCRIPTION = (
    "Search for files by glob pattern. Returns matching file paths relative to the search directory. "
    f"Respects .gitignore. Output is truncated to {DEFAULT_FIND_LIMIT} results or "
    f"{DEFAULT_MAX_BYTES // 1024}KB (whichever is hit first)."
)

FIND_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "required": ["pattern"],
    "properties": {
        "pattern": {
            "type": "string",
            "description": "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'",
        },
        "path": {"type": "string", "description": "Directory to search in (default: current directory)"},
        "limit": {"type": "number", "description": "Maximum number of results (default: 1000)"},
    },
}


_GLOB_SPECIAL = set("*?[]{}\\")


def _glob_escape(text: str) -> str:
    """``text`` as a literal in fd's glob syntax (backslash escapes)."""
    return "".join("\\" + ch if ch in _GLOB_SPECIAL else ch for ch in text)


def clean_pattern(pattern: str) -> tuple[str, bool]:
    """``(pattern, rooted)``: ``pattern`` without its leading ``./`` segments, and whether it had one. A
    ``./`` pattern matches at the top of the search directory only (pi 1.6.0: ``./src/*.ts`` found nothing)."""
    rooted = False
    while pattern.startswith("./"):
        rooted = True
        pattern = pattern[2:].lstrip("/") or "*"
    return pattern, rooted


def anchored_pattern(pattern: str, search_path: str) -> tuple[str, bool]:
    """The pattern handed to ``fd``: :func:`effective_pattern`, with full-path patterns anchored below
    ``search_path``, so folders above the search path never match (pi 1.6.0: with the project in
    ``~/src/app``, ``src/**/*.ts`` matched every file because ``src`` is above it)."""
    cleaned, rooted = clean_pattern(pattern)
    base = _glob_escape(search_path.rstrip("/") or "/")
    if rooted:
        return f"{base}/{cleaned}", True
    eff, full = effective_pattern(cleaned)
    if not full or cleaned.startswith("/"):
        return eff, full
    rest = eff[3:] if eff.startswith("**/") else ("" if eff == "**" else eff)
    return (f"{base}/**/{rest}" if rest else f"{base}/**"), True


def effective_pattern(pattern: str) -> tuple[str, bool]:
    """``(pattern, full_path)``: patterns containing ``/`` match the full path, with a ``**/`` prefix
    unless they start with ``/`` or ``**/`` or are ``**``."""
    if "/" not in pattern:
        return pattern, False
    if pattern.startswith("/") or pattern.startswith("**/") or pattern == "**":
        return pattern, True
    return f"**/{pattern}", True


async def _run_fd(fd: str, pattern: str, search_path: str, limit: int,
                  signal: AbortSignal | None, no_require_git: bool = True) -> list[str]:
    eff, full = anchored_pattern(pattern, search_path)
    args = ["--glob", "--color=never", "--hidden"]
    if no_require_git:
        args.append("--no-require-git")
    args += ["--max-results", str(limit)]
    if full:
        args.append("--full-path")
    args += ["--", eff, search_path]
    try:
        proc = await asyncio.create_subprocess_exec(
            fd, *args, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as exc:
        raise Exception(f"Failed to run fd: {exc.strerror or exc}") from None

    def on_abort() -> None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()

    remove = signal.add_listener(on_abort) if signal is not None else None
    try:
        out, err = await proc.communicate()
    except asyncio.CancelledError:
        on_abort()
        raise
    finally:
        if remove is not None:
            remove()
    check_aborted(signal)
    lines = out.decode("utf-8", "replace").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if proc.returncode != 0 and not lines:
        raise Exception(err.decode("utf-8", "replace").strip() or f"fd exited with code {proc.returncode}")
    result: list[str] = []
    for raw in lines:
        line = raw.rstrip("\r").strip()
        if not line:
            continue
        slash = line.endswith("/") or line.endswith("\\")
        if line.startswith(search_path):
            rel = line[len(search_path) + 1 :]
        else:
            rel = os.path.relpath(line, search_path)  # noqa: ASYNC240 - pure string work
        if slash and not rel.endswith("/"):
            rel += "/"
        result.append(rel.replace(os.sep, "/"))
    return result


def _python_find(pattern: str, search_path: str, limit: int, cancelled: threading.Event) -> list[str]:
    cleaned, rooted = clean_pattern(pattern)
    eff, full = ("/" + cleaned, True) if rooted else effective_pattern(cleaned)
    absolute = cleaned.startswith("/") and not rooted
    regex = glob_to_regex(eff)
    found: list[str] = []
    for path, is_dir in walk(search_path, require_git=False):
        if cancelled.is_set() or len(found) >= limit:
            break
        # relative patterns match the path below the search directory, never the folders above it (pi 1.6.0)
        if not full:
            subject = os.path.basename(path)
        elif absolute:
            subject = path
        else:
            subject = "/" + os.path.relpath(path, search_path).replace(os.sep, "/")
        if regex.fullmatch(subject) is None:
            continue
        rel = os.path.relpath(path, search_path).replace(os.sep, "/")
        found.append(rel + "/" if is_dir else rel)
    return found


class FindTool(AgentTool):
    """``find(pattern, path?, limit?)``; see the module docstring."""

    cwd: str = Field(default=".", exclude=True)
    backend: SearchBackend = Field(default="auto", exclude=True)

    def __init__(self, cwd: str, backend: SearchBackend = "auto", **data: Any) -> None:
        super().__init__(
            name="find",
            label="find",
            description=FIND_DESCRIPTION,
            parameters=FIND_PARAMETERS,
            cwd=cwd,
            backend=backend,
            **data,
        )

    async def _fd_path(self, search_path: str) -> tuple[str | None, bool]:
        """``(fd, pass_no_require_git)``; ``fd`` is None when the Python walk must be used. An ``fd``
        without ``--no-require-git`` (< 8.7) is still used inside a git work tree, where that flag
        changes nothing."""
        backend = effective_backend(self.backend)
        if backend == "python":
            return None, False
        fd = find_program("fd", "fdfind")
        if fd is None:
            if backend == "external":
                raise Exception("fd is not available and could not be downloaded")
            return None, False
        if await fd_usable(fd):
            return fd, True
        if await asyncio.to_thread(in_git_repo, search_path):
            return fd, False
        return None, False

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Find files; see the module docstring for output and errors."""
        check_aborted(signal)
        data = params.model_dump(by_alias=True) if hasattr(params, "model_dump") else params
        pattern = str(data["pattern"])
        search_path = resolve_to_cwd(data.get("path") or ".", self.cwd)
        limit = limit_of(data.get("limit"), DEFAULT_FIND_LIMIT)
        # one result more than the limit tells "exactly limit matches" from "more than limit" (pi 1.5.1)
        fd, no_require_git = await self._fd_path(search_path)
        if fd is not None:
            results = await _run_fd(fd, pattern, search_path, limit + 1, signal, no_require_git)
        else:
            if not os.path.exists(search_path):  # noqa: ASYNC240 - one stat
                raise Exception(f"Path not found: {search_path}")
            cancelled = threading.Event()
            remove = signal.add_listener(cancelled.set) if signal is not None else None
            try:
                results = await asyncio.to_thread(_python_find, pattern, search_path, limit + 1, cancelled)
            finally:
                if remove is not None:
                    remove()
            if signal is not None and signal.aborted:
                raise Exception(ABORTED)
        if not results:
            return text_result("No files found matching pattern")
        more = len(results) > limit
        notice = f"{limit} results limit reached. Use limit={limit * 2} for more, or refine pattern"
        return listing_result(results[:limit], [(notice, "resultLimitReached", limit)] if more else [])
