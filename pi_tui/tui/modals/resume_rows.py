"""The rows of the ``/resume`` picker: filters, sort modes and the text of each row (issue 12).

pi 0.73.1's session selector (``session-selector.js``): sort ``threaded`` (forks under the session they were forked
from, by ``parentSession``; newest first at each level) or ``recent``; a query sorts by relevance (name and
folder fuzzily, the first message as a substring, pi 1.x's rule against scattered-letter matches); ``named``
keeps sessions with a name. pi-tui adds: one-shot ``-p`` runs hidden unless asked for (``SessionInfo.print_run``),
and the open session is never hidden by a filter (it is marked).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.fuzzy import Matcher

SORT_MODES = ("threaded", "recent")


@dataclass(frozen=True)
class ResumeFilters:
    """What the picker shows: ``sort`` (``SORT_MODES``), ``named_only``, ``show_print_runs``, ``query``."""

    sort: str = "threaded"
    named_only: bool = False
    show_print_runs: bool = False
    query: str = ""


@dataclass(frozen=True)
class ResumeRow:
    """One row: the ``SessionInfo``, its tree ``prefix`` (threaded sort) and whether it is the open session."""

    info: Any
    prefix: str = ""
    current: bool = False


def canonical(path: Any) -> str:
    """A path as compared here (``realpath``), ``""`` for ``None``."""
    return os.path.realpath(str(path)) if path else ""


def session_label(info: Any) -> str:
    """The name, else the first message, on one line (pi: control characters become spaces)."""
    text = info.name or info.first_message or "(empty session)"
    return " ".join("".join(" " if ord(c) < 32 or ord(c) == 127 else c for c in text).split())


def _visible(infos: list[Any], filters: ResumeFilters, current: str) -> list[Any]:
    out = []
    for info in infos:
        is_current = canonical(info.path) == current
        if not is_current and filters.named_only and not info.name:
            continue
        if not is_current and not filters.show_print_runs and getattr(info, "print_run", False):
            continue
        out.append(info)
    return out


def _score(info: Any, query: str, matcher: Matcher) -> float:
    """Relevance of ``info`` for ``query``: fuzzy on the name and folder, substring on the first message."""
    q = query.strip().lower()
    score = matcher.match(f"{info.name or ''} {info.cwd}") if (info.name or info.cwd) else 0.0
    first = (info.first_message or "").lower()
    if q and (q in first or q in (info.name or "").lower()):
        score = max(score, 1.0) + 1.0
    if q and q in str(info.id).lower():
        score = max(score, 1.0)
    return score


def _threaded(infos: list[Any]) -> list[tuple[Any, str]]:
    by_path = {canonical(i.path): i for i in infos}
    children: dict[str, list[Any]] = {}
    roots: list[Any] = []
    for info in infos:
        parent = canonical(info.parent_session_path)
        if parent and parent in by_path and parent != canonical(info.path):
            children.setdefault(parent, []).append(info)
        else:
            roots.append(info)
    out: list[tuple[Any, str]] = []
    seen: set[str] = set()

    def walk(info: Any, depth: int, ancestors: list[bool], last: bool) -> None:
        key = canonical(info.path)
        if key in seen:
            return
        seen.add(key)
        prefix = "".join("│  " if more else "   " for more in ancestors) + ("└─ " if last else "├─ ") if depth else ""
        out.append((info, prefix))
        kids = sorted(children.get(key, []), key=lambda i: i.modified, reverse=True)
        for n, kid in enumerate(kids):
            walk(kid, depth + 1, [*ancestors, not last] if depth else [], n == len(kids) - 1)

    roots.sort(key=lambda i: i.modified, reverse=True)
    for n, root in enumerate(roots):
        walk(root, 0, [], n == len(roots) - 1)
    return out


def resume_rows(infos: list[Any], filters: ResumeFilters, current_path: Any = None) -> list[ResumeRow]:
    """The rows to show for ``infos`` (``SessionInfo``-like: path, id, cwd, name, parent_session_path, modified,
    message_count, first_message, print_run) under ``filters``; ``current_path`` is marked."""
    current = canonical(current_path)
    visible = _visible(infos, filters, current)
    if filters.query.strip():
        matcher = Matcher(filters.query.strip())
        scored = [(_score(i, filters.query, matcher), n, i) for n, i in enumerate(visible)]
        ordered = [(i, "") for s, _, i in sorted(scored, key=lambda t: (-t[0], t[1])) if s > 0]
    elif filters.sort == "threaded":
        ordered = _threaded(visible)
    else:
        ordered = [(i, "") for i in sorted(visible, key=lambda i: i.modified, reverse=True)]
    return [ResumeRow(info, prefix, canonical(info.path) == current) for info, prefix in ordered]


def short_path(path: str) -> str:
    """``~/…`` for a path under the home folder."""
    home = os.path.expanduser("~")
    return "~" + path[len(home):] if home and home != "~" and path.startswith(home) else path


def row_renderable(row: ResumeRow, *, show_cwd: bool, show_path: bool, accent: str = "cyan",
                   warning: str = "yellow", width: int = 100) -> Text:
    """One row as one line of ``width`` cells: marker, tree prefix and label on the left (cut with an
    ellipsis); folder, file, message count and last activity right-aligned. Named sessions are in the
    ``warning`` colour, the open session in the ``accent`` colour and marked ``●`` (pi's colours; Rich colour
    strings). A plain ``Text``, not a table: the list re-renders every row on each filter keystroke."""
    info = row.info
    right_parts = ["open"] if row.current else []
    if show_cwd and info.cwd:
        right_parts.append(short_path(info.cwd))
    if show_path:
        right_parts.append(short_path(str(info.path)))
    right_parts.append(f"{info.message_count} msg")
    right_parts.append(f"{info.modified:%Y-%m-%d %H:%M}")
    right = Text("  " + " · ".join(right_parts), style="dim", no_wrap=True)
    if right.cell_len > width * 3 // 5:
        right.truncate(width * 3 // 5, overflow="ellipsis")
    left = Text(no_wrap=True, overflow="ellipsis")
    left.append("● " if row.current else "  ", style=f"bold {accent}" if row.current else "")
    left.append(row.prefix, style="dim")
    style = f"bold {accent}" if row.current else warning if info.name else ""
    left.append(session_label(info), style=style)
    if getattr(info, "print_run", False):
        left.append("  -p", style="dim italic")
    room = max(4, width - right.cell_len)
    if left.cell_len > room:
        left.truncate(room, overflow="ellipsis")
    left.pad_right(room - left.cell_len)
    left.append_text(right)
    return left
