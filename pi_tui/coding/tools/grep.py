"""The ``grep`` tool (pi-reference §3.13 ``grep``).

Backend: ``rg --json --line-number --color=never --hidden [--ignore-case] [--fixed-strings]
[--glob g] -- <pattern> <path>`` when ripgrep is available, else a Python search over the files of
:func:`~pi_tui.coding.tools.ignore_walk.walk` (``.gitignore`` honoured inside git work trees, as rg
does; binary files, i.e. with a NUL in the first 8 KB, skipped; Python ``re`` syntax; ``glob`` is a
gitignore-style filter on the path relative to the search directory, and unlike rg's ``--glob`` it
does not override .gitignore) — see
:mod:`~pi_tui.coding.tools.search_backend` for how the backend is chosen.

Output lines ``<path>:<n>: <text>`` (context lines ``<path>-<n>- <text>``), paths relative to the
search directory (the base name when a file is searched), lines cut to 500 chars, the whole output
cut to 50 KB. Notices ``[<limit> matches limit reached. Use limit=<2*limit> for more, or refine
pattern. 50.0KB limit reached. Some lines truncated to 500 chars. Use read tool to see full lines]``.
No match: ``No matches found``. Errors: ``Path not found: <abs>``, rg's stderr, ``Operation aborted``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pathspec
from pydantic import Field

from pi_tui.agent.types import AgentTool, AgentToolResult, AgentToolUpdateCallback
from pi_tui.ai.abort import AbortSignal
from pi_tui.coding.tools.common import ABORTED, check_aborted, text_result
from pi_tui.coding.tools.ignore_walk import walk
from pi_tui.coding.tools.listing_result import listing_result
from pi_tui.coding.tools.path_utils import resolve_to_cwd
from pi_tui.coding.tools.search_backend import SearchBackend, effective_backend, find_program
from pi_tui.coding.tools.truncate import (
    DEFAULT_MAX_BYTES,
    GREP_MAX_LINE_LENGTH,
    truncate_line,
)

DEFAULT_GREP_LIMIT = 100

GREP_DESCRIPTION = (
    "Search file contents for a pattern. Returns matching lines with file paths and line numbers. "
    f"Respects .gitignore. Output is truncated to {DEFAULT_GREP_LIMIT} matches or "
    f"{DEFAULT_MAX_BYTES // 1024}KB (whichever is hit first). Long lines are truncated to "
    f"{GREP_MAX_LINE_LENGTH} chars."
)

GREP_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "required": ["pattern"],
    "properties": {
        "pattern": {"type": "string", "description": "Search pattern (regex or literal string)"},
        "path": {
            "type": "string",
            "description": "Directory or file to search (default: current directory)",
        },
        "glob": {
            "type": "string",
            "description": "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'",
        },
        "ignoreCase": {"type": "boolean", "description": "Case-insensitive search (default: false)"},
        "literal": {
            "type": "boolean",
            "description": "Treat pattern as literal string instead of regex (default: false)",
        },
        "context": {
            "type": "number",
            "description": "Number of lines to show before and after each match (default: 0)",
        },
        "limit": {"type": "number", "description": "Maximum number of matches to return (default: 100)"},
    },
}

BINARY_SNIFF_BYTES = 8192


@dataclass
class GrepMatch:
    """One matching line: absolute file path, 1-based line number, line text (None if unknown)."""

    file_path: str
    line_number: int
    line_text: str | None


@dataclass
class _Query:
    pattern: str
    search_path: str
    is_dir: bool
    glob: str | None
    ignore_case: bool
    literal: bool
    limit: int


async def _run_rg(rg: str, q: _Query, signal: AbortSignal | None) -> tuple[list[GrepMatch], bool]:
    # --no-config: a user's RIPGREP_CONFIG_PATH (e.g. --fixed-strings) must not change the search (pi 1.4.0)
    args = ["--no-config", "--json", "--line-number", "--color=never", "--hidden"]
    if q.ignore_case:
        args.append("--ignore-case")
    if q.literal:
        args.append("--fixed-strings")
    if q.glob:
        args += ["--glob", q.glob]
    # A directory is searched from inside it, so ``glob`` is matched from ``path``, not from where pi-tui was
    # started (pi 1.5.1: path "repo" + glob "migrations/main/*.js" found nothing); paths are made absolute below.
    args += ["--", q.pattern, "." if q.is_dir else q.search_path]
    try:
        proc = await asyncio.create_subprocess_exec(
            rg, *args, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=q.search_path if q.is_dir else None,
        )
    except OSError as exc:
        raise Exception(f"Failed to run ripgrep: {exc.strerror or exc}") from None
    state = {"aborted": False, "limit": False}

    def stop() -> None:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()

    def on_abort() -> None:
        state["aborted"] = True
        stop()

    remove = signal.add_listener(on_abort) if signal is not None else None
    assert proc.stdout is not None and proc.stderr is not None
    stderr_task = asyncio.ensure_future(proc.stderr.read())
    matches: list[GrepMatch] = []
    buffer = b""
    try:
        while True:
            chunk = await proc.stdout.read(65536)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                if len(matches) >= q.limit:
                    break
                _parse_rg_event(raw, matches)
                if len(matches) >= q.limit:
                    state["limit"] = True
                    stop()
        code = await proc.wait()
        stderr = (await stderr_task).decode("utf-8", "replace")
    except asyncio.CancelledError:
        stop()
        raise
    finally:
        if remove is not None:
            remove()
    if state["aborted"]:
        raise Exception(ABORTED)
    if not state["limit"] and code not in (0, 1):
        raise Exception(stderr.strip() or f"ripgrep exited with code {code}")
    if q.is_dir:
        for match in matches:
            match.file_path = os.path.normpath(os.path.join(q.search_path, match.file_path))  # noqa: ASYNC240 - pure string work
    return matches, state["limit"]


def _parse_rg_event(raw: bytes, matches: list[GrepMatch]) -> None:
    if not raw.strip():
        return
    try:
        event = json.loads(raw)
    except ValueError:
        return
    if not isinstance(event, dict) or event.get("type") != "match":
        return
    data = event.get("data") or {}
    path = (data.get("path") or {}).get("text")
    number = data.get("line_number")
    text = (data.get("lines") or {}).get("text")
    if isinstance(path, str) and isinstance(number, int):
        matches.append(GrepMatch(path, number, text if isinstance(text, str) else None))


def _glob_filter(glob: str | None) -> Any:
    if not glob:
        return lambda rel: True
    negate = glob.startswith("!")
    spec = pathspec.GitIgnoreSpec.from_lines([glob[1:] if negate else glob])
    return lambda rel: bool(spec.match_file(rel)) != negate


def _python_grep(q: _Query, cancelled: threading.Event) -> tuple[list[GrepMatch], bool]:
    flags = re.IGNORECASE if q.ignore_case else 0
    try:
        regex = re.compile(re.escape(q.pattern) if q.literal else q.pattern, flags)
    except re.error as exc:
        raise Exception(f"regex parse error: {exc}") from None
    keep = _glob_filter(q.glob)
    files: Iterable[str]
    if q.is_dir:
        files = (
            p for p, is_dir in walk(q.search_path, require_git=True)
            if not is_dir and keep(os.path.relpath(p, q.search_path).replace(os.sep, "/"))
        )
    else:
        files = iter([q.search_path])
    matches: list[GrepMatch] = []
    for path in files:
        if cancelled.is_set():
            return matches, False
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except OSError:
            continue
        if b"\x00" in raw[:BINARY_SNIFF_BYTES]:
            continue
        for number, line in enumerate(raw.decode("utf-8", "replace").split("\n"), start=1):
            if regex.search(line.rstrip("\r")):
                matches.append(GrepMatch(path, number, line.rstrip("\r")))
                if len(matches) >= q.limit:
                    return matches, True
    return matches, False


async def _run_python(q: _Query, signal: AbortSignal | None) -> tuple[list[GrepMatch], bool]:
    cancelled = threading.Event()
    remove = signal.add_listener(cancelled.set) if signal is not None else None
    try:
        result = await asyncio.to_thread(_python_grep, q, cancelled)
    finally:
        if remove is not None:
            remove()
    check_aborted(signal)
    return result


def read_needed_lines(path: str, wanted: set[int]) -> tuple[dict[int, str], int]:
    """``({line number: text}, lines read)`` for the ``wanted`` 1-based lines of ``path``, read as a stream.

    Lines end at ``\\n`` only, as ripgrep numbers them: a lone ``\\r`` is not a line break (pi 1.5.0: context
    lines were shifted by one per lone CR); ``\\r`` characters are dropped from the text. Reading stops after the
    last wanted line and only wanted lines are kept, so the context of a match in a huge file never loads the
    whole file (pi 1.5.1). ``({}, 0)`` when the file cannot be read.
    """
    last = max(wanted) if wanted else 0
    found: dict[int, str] = {}
    count = 0
    try:
        with open(path, "rb") as f:
            for raw in f:
                count += 1
                if count in wanted:
                    found[count] = raw.rstrip(b"\n").replace(b"\r", b"").decode("utf-8", "replace")
                if count >= last:
                    break
    except OSError:
        return {}, 0
    return found, count


def format_matches(
    matches: list[GrepMatch], search_path: str, is_dir: bool, context: int
) -> tuple[list[str], bool]:
    """Output lines for ``matches`` and whether any line was cut to 500 chars (pi's format)."""
    cache: dict[str, tuple[dict[int, str], int]] = {}
    cut_any = False
    wanted: dict[str, set[int]] = {}  # the lines each file must be read for (its matches and their context)
    for m in matches:
        if context > 0 or m.line_text is None:
            needed = wanted.setdefault(m.file_path, set())
            needed.update(range(max(1, m.line_number - context), m.line_number + context + 1))

    def rel(path: str) -> str:
        if is_dir:
            r = os.path.relpath(path, search_path)
            if r and not r.startswith(".."):
                return r.replace("\\", "/")
        return os.path.basename(path)

    out: list[str] = []
    for m in matches:
        name = rel(m.file_path)
        if context == 0 and m.line_text is not None:
            text = m.line_text.replace("\r\n", "\n").replace("\r", "")
            text = text[:-1] if text.endswith("\n") else text
            shown, cut = truncate_line(text)
            cut_any = cut_any or cut
            out.append(f"{name}:{m.line_number}: {shown}")
            continue
        if m.file_path not in cache:
            cache[m.file_path] = read_needed_lines(m.file_path, wanted.get(m.file_path, {m.line_number}))
        lines, count = cache[m.file_path]
        if not count:
            out.append(f"{name}:{m.line_number}: (unable to read file)")
            continue
        start = max(1, m.line_number - context) if context > 0 else m.line_number
        end = min(count, m.line_number + context) if context > 0 else m.line_number
        for current in range(start, end + 1):
            shown, cut = truncate_line(lines.get(current, ""))
            cut_any = cut_any or cut
            sep = ":" if current == m.line_number else "-"
            out.append(f"{name}{sep}{current}{sep} {shown}")
    return out, cut_any


class GrepTool(AgentTool):
    """``grep(pattern, path?, glob?, ignoreCase?, literal?, context?, limit?)``; see the module docstring."""

    cwd: str = Field(default=".", exclude=True)
    backend: SearchBackend = Field(default="auto", exclude=True)

    def __init__(self, cwd: str, backend: SearchBackend = "auto", **data: Any) -> None:
        super().__init__(
            name="grep",
            label="grep",
            description=GREP_DESCRIPTION,
            parameters=GREP_PARAMETERS,
            cwd=cwd,
            backend=backend,
            **data,
        )

    async def execute(
        self,
        tool_call_id: str,
        params: Any,
        signal: AbortSignal | None = None,
        on_update: AgentToolUpdateCallback | None = None,
    ) -> AgentToolResult:
        """Search; see the module docstring for output and errors."""
        check_aborted(signal)
        data = params.model_dump(by_alias=True) if hasattr(params, "model_dump") else params
        backend = effective_backend(self.backend)
        rg = find_program("rg") if backend != "python" else None
        if backend == "external" and rg is None:
            raise Exception("ripgrep (rg) is not available and could not be downloaded")
        search_path = resolve_to_cwd(data.get("path") or ".", self.cwd)
        try:
            is_dir = os.path.isdir(search_path) if os.path.exists(search_path) else None  # noqa: ASYNC240
        except OSError:
            is_dir = None
        if is_dir is None:
            raise Exception(f"Path not found: {search_path}")
        context_raw = data.get("context")
        context = int(context_raw) if context_raw and context_raw > 0 else 0
        limit_raw = data.get("limit")
        limit = max(1, int(limit_raw if limit_raw is not None else DEFAULT_GREP_LIMIT))
        q = _Query(
            pattern=str(data["pattern"]),
            search_path=search_path,
            is_dir=is_dir,
            glob=data.get("glob") or None,
            ignore_case=bool(data.get("ignoreCase")),
            literal=bool(data.get("literal")),
            limit=limit,
        )
        if rg is not None:
            matches, limit_reached = await _run_rg(rg, q, signal)
        else:
            matches, limit_reached = await _run_python(q, signal)
        if not matches:
            return text_result("No matches found")
        lines, lines_cut = await asyncio.to_thread(format_matches, matches, search_path, is_dir, context)
        notice = f"{limit} matches limit reached. Use limit={limit * 2} for more, or refine pattern"
        long_lines = f"Some lines truncated to {GREP_MAX_LINE_LENGTH} chars. Use read tool to see full lines"
        return listing_result(
            lines,
            [(notice, "matchLimitReached", limit)] if limit_reached else [],
            [(long_lines, "linesTruncated", True)] if lines_cut else [],
        )
