"""The project's files for ``@`` completion: listed once (in a worker), then queried in memory.

pi 0.73 runs ``fd`` on every keystroke (pi-tui ``autocomplete.js``: ``--type f --type d --follow --hidden
--exclude .git``, at most 100 results, then scored). pi-tui lists the tree once into :class:`FileIndex` and
answers each query from memory, so a 100,000-file tree answers in milliseconds (``bench/file_index.py``).

Listing (``.gitignore`` and ``.ignore`` respected, hidden files included, ``.git`` left out):
``fd`` (or Debian's ``fdfind``) when it honours ``.gitignore`` here (``--no-require-git``, or inside a git work
tree), else ``rg --files`` (directories derived from the files), else the Python walk of
``pi_tui.coding.tools.ignore_walk``. ``PI_TUI_SEARCH_BACKEND=python`` forces the walk
(``pi_tui.coding.tools.search_backend``).

Ranking (:meth:`FileIndex.query`) is pi's ``scoreEntry``: the file name equal to the query 100, starting with it
80, containing it 50, the path containing it 30, directories +10; then, when fewer than ``limit`` entries
contain the query, entries matching it fuzzily (its characters in order, pi's ``fuzzyMatch``) below those.
Ties: shorter paths first, then by name. A query with a ``/`` whose directory part exists (``src/ma``,
``../lib/x``, ``~/notes/``) searches that directory for the rest, as pi's ``resolveScopedFuzzyQuery``.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice

from pi_tui.coding.fuzzy import fuzzy_match
from pi_tui.coding.tools.ignore_walk import in_git_repo, walk
from pi_tui.coding.tools.search_backend import effective_backend, fd_supports_no_require_git, find_program

DEFAULT_LIMIT = 20  # pi shows the 20 best entries
MAX_LIMIT = 100
FUZZY_CANDIDATES = 200  # fuzzy-only matches scored per kind and field at most (the shortest paths)
OUTSIDE_MAX_ENTRIES = 2_000  # a directory outside the project is listed (breadth first) up to this many entries
LIST_TIMEOUT_S = 60.0
MAX_ENTRIES = 300_000  # a bigger tree (a home directory) is indexed up to this many entries (``truncated``)


@dataclass(frozen=True)
class FileMatch:
    """One result: ``path`` as shown and inserted (``/``-separated, relative to the project root unless the
    query named another directory; no trailing slash) and whether it is a directory."""

    path: str
    is_dir: bool

    @property
    def name(self) -> str:
        """The last path segment."""
        return self.path.rstrip("/").rsplit("/", 1)[-1]


class _Blob:
    """Entries of one kind (directories or files), shortest paths first, with their lower-case paths and names
    each joined into one newline-framed text (``"\\na\\nb\\n"``), so that a query is a scan in C
    (``str.find``), not a Python loop over the entries."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        lower = [p.lower() for p in paths]
        self.path_text, self.path_starts = self._join(lower)
        self.name_text, self.name_starts = self._join([p.rsplit("/", 1)[-1] for p in lower])

    @staticmethod
    def _join(lines: list[str]) -> tuple[str, list[int]]:
        starts, offset = [], 1
        for line in lines:
            starts.append(offset)
            offset += len(line) + 1
        return "\n" + "\n".join(lines) + "\n", starts

    def find(self, text: str, starts: list[int], needle: str) -> Iterator[int]:
        """Indices of the entries whose line of ``text`` contains ``needle``, in order, each once."""
        last = -1
        at = text.find(needle)
        while at != -1:
            index = bisect_right(starts, at if needle[0] != "\n" else at + 1) - 1
            if index != last:
                last = index
                yield index
            at = text.find(needle, at + 1)

    def search(self, text: str, starts: list[int], pattern: re.Pattern[str]) -> Iterator[int]:
        """Indices of the entries whose line of ``text`` matches ``pattern``, in order, each once."""
        last = -1
        for match in pattern.finditer(text):
            index = bisect_right(starts, match.start()) - 1
            if index != last:
                last = index
                yield index


class _Listing:
    """A listing split into directories and files (module docstring: directories rank first per tier)."""

    def __init__(self, entries: Iterable[tuple[str, bool]]) -> None:
        unique = dict.fromkeys(entries)  # first order kept, duplicates dropped (fd's two runs, rg's parents)
        by_size = sorted(unique, key=lambda entry: (len(entry[0]), entry[0]))
        self.dirs = _Blob([p for p, d in by_size if d])
        self.files = _Blob([p for p, d in by_size if not d])
        self.size = len(by_size)
        top = sorted(by_size, key=lambda entry: (entry[0].count("/"), not entry[1], entry[0]))
        self.top = [FileMatch(p, d) for p, d in top[:MAX_LIMIT]]

    def subtree(self, base: str) -> _Listing:
        """The entries under ``base`` (relative, ``/``-separated), relative to it."""
        start = base.rstrip("/").lower() + "/"
        entries = []
        for is_dir, blob in ((True, self.dirs), (False, self.files)):
            for index in blob.find(blob.path_text, blob.path_starts, "\n" + start):
                path = blob.paths[index]
                if path.startswith(base.rstrip("/") + "/"):  # the same letters in the same case
                    entries.append((path[len(start):], is_dir))
        return _Listing(entries)


def _clean(line: str) -> str:
    line = line.replace(os.sep, "/").rstrip("/")
    return line[2:] if line.startswith("./") else line


def _run_lines(args: list[str], cwd: str) -> list[str] | None:
    try:
        out = subprocess.run(args, cwd=cwd, capture_output=True, timeout=LIST_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0 and not out.stdout:
        return None
    return [_clean(line) for line in out.stdout.decode("utf-8", "replace").split("\n") if line.strip()]


def _list_fd(fd: str, root: str, no_require_git: bool) -> list[tuple[str, bool]] | None:
    base = [fd, "--hidden", "--follow", "--color=never", "--exclude", ".git"]
    if no_require_git:
        base.append("--no-require-git")
    # fd 8.6 does not mark directories with a trailing slash: directories and files are listed apart.
    dirs = _run_lines([*base, "--type", "d"], root)
    files = _run_lines([*base, "--type", "f"], root)
    if dirs is None or files is None:
        return None
    return [(d, True) for d in dirs] + [(f, False) for f in files]


def _list_rg(rg: str, root: str) -> list[tuple[str, bool]] | None:
    files = _run_lines([rg, "--files", "--hidden", "--no-require-git", "--glob", "!.git"], root)
    if files is None:
        return None
    dirs: dict[str, None] = {}
    for path in files:
        parts = path.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.setdefault("/".join(parts[:i]))
    return [(d, True) for d in dirs] + [(f, False) for f in files]


def _list_python(root: str, max_entries: int | None = MAX_ENTRIES + 1) -> list[tuple[str, bool]]:
    entries = []
    for path, is_dir in walk(root, require_git=False):
        entries.append((os.path.relpath(path, root).replace(os.sep, "/"), is_dir))
        if max_entries is not None and len(entries) >= max_entries:
            break
    return entries


def _list_near(root: str, max_entries: int) -> list[tuple[str, bool]]:
    """Up to ``max_entries`` entries under ``root``, breadth first (a directory outside the project, e.g.
    ``@~/notes/`` or ``@/etc/``: its own entries first, never the whole disk), ``.git`` left out, symlinks not
    followed."""
    entries: list[tuple[str, bool]] = []
    queue = [""]
    while queue and len(entries) < max_entries:
        rel = queue.pop(0)
        try:
            with os.scandir(os.path.join(root, rel)) as it:
                found = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        for entry in found:
            if entry.name == ".git":
                continue
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            path = f"{rel}/{entry.name}" if rel else entry.name
            entries.append((path, is_dir))
            if is_dir:
                queue.append(path)
            if len(entries) >= max_entries:
                break
    return entries


def list_project(root: str, backend: str = "auto") -> tuple[list[tuple[str, bool]], str]:
    """Every entry under ``root`` that is not ignored, as ``(relative path, is_dir)``, and the lister used
    (``"fd"``, ``"rg"`` or ``"python"``; module docstring)."""
    if effective_backend("python" if backend == "python" else "auto") != "python":
        fd = find_program("fd", "fdfind")
        if fd is not None:
            no_require_git = fd_supports_no_require_git(fd)
            if no_require_git or in_git_repo(root):
                listed = _list_fd(fd, root, no_require_git)
                if listed is not None:
                    return listed, "fd"
        rg = find_program("rg")
        if rg is not None:
            listed = _list_rg(rg, root)
            if listed is not None:
                return listed, "rg"
    return _list_python(root), "python"


class FileIndex:
    """The entries under ``root`` (module docstring). :meth:`build` lists them (blocking: call it in a
    worker thread); :meth:`query` reads the last listing and is safe to call while a rebuild runs (the
    listing is swapped in one assignment). ``backend``: ``"auto"`` or ``"python"``."""

    def __init__(self, root: str, backend: str = "auto", home: Callable[[], str] | None = None) -> None:
        self.root = os.path.abspath(root)
        self.backend = backend
        self._home = home or (lambda: os.path.expanduser("~"))
        self._listing: _Listing | None = None
        self._sub_key: tuple[_Listing, str] | None = None  # the last scoped query's directory and its entries
        self._sub: _Listing | None = None
        self.built_at: float | None = None  # time.monotonic() of the last finished build
        self.lister = ""  # "fd", "rg" or "python" after a build
        self.build_seconds = 0.0
        self.truncated = False  # the tree had more than MAX_ENTRIES entries: the first ones are indexed

    @property
    def ready(self) -> bool:
        """True once a listing exists."""
        return self._listing is not None

    def __len__(self) -> int:
        return self._listing.size if self._listing is not None else 0

    def build(self) -> None:
        """List the project now (blocking) and make it the listing queries read."""
        started = time.perf_counter()
        entries, lister = list_project(self.root, self.backend)
        self.truncated = len(entries) > MAX_ENTRIES
        self._listing = _Listing(entries[:MAX_ENTRIES])
        self.lister = lister
        self.build_seconds = time.perf_counter() - started
        self.built_at = time.monotonic()

    def age(self) -> float | None:
        """Seconds since the last build finished, None before the first."""
        return None if self.built_at is None else time.monotonic() - self.built_at

    # ------------------------------------------------------------------ queries
    def query(self, query: str, limit: int = DEFAULT_LIMIT) -> list[FileMatch]:
        """The best ``limit`` (at most ``MAX_LIMIT``) entries for ``query`` (module docstring); [] before the
        first build."""
        listing = self._listing
        if listing is None:
            return []
        limit = min(limit, MAX_LIMIT)
        scoped = self._scope(query)
        if scoped is None:
            return _rank(listing, query.lower(), limit)
        display_base, base_dir, rest = scoped
        rel_base = os.path.relpath(base_dir, self.root).replace(os.sep, "/")
        if rel_base == ".":
            sub = listing
        elif (listing, rel_base) == self._sub_key and self._sub is not None:
            sub = self._sub
        elif rel_base != ".." and not rel_base.startswith("../"):
            sub = listing.subtree(rel_base)
            self._sub_key, self._sub = (listing, rel_base), sub
        else:  # another directory than the project's: listed now, nearest entries first
            sub = _Listing(_list_near(base_dir, OUTSIDE_MAX_ENTRIES))
            self._sub_key, self._sub = (listing, rel_base), sub
        return [FileMatch(display_base + m.path, m.is_dir) for m in _rank(sub, rest.lower(), limit)]

    def _scope(self, query: str) -> tuple[str, str, str] | None:
        """``(display base, absolute directory, rest of the query)`` when ``query`` has a ``/`` and its directory
        part is a directory (pi's ``resolveScopedFuzzyQuery``), else None."""
        query = query.replace("\\", "/")
        cut = query.rfind("/")
        if cut == -1:
            return None
        display_base, rest = query[: cut + 1], query[cut + 1:]
        if display_base.startswith("~/"):
            base_dir = os.path.join(self._home(), display_base[2:])
        elif display_base.startswith("/"):
            base_dir = display_base
        else:
            base_dir = os.path.join(self.root, display_base)
        if not os.path.isdir(base_dir):
            return None
        return display_base, os.path.normpath(base_dir), rest


def _rank(listing: _Listing, query: str, limit: int) -> list[FileMatch]:
    """The best ``limit`` entries of ``listing`` for lower-case ``query`` (module docstring)."""
    if not query:  # "@" alone: the top of the tree, directories first
        return listing.top[:limit]
    exact, prefix = f"\n{query}\n", f"\n{query}"
    found: list[FileMatch] = []
    seen: set[tuple[bool, int]] = set()
    # pi's scoreEntry tiers, best first: a directory's +10 puts it above files of the same tier.
    for needle, in_names in ((exact, True), (prefix, True), (query, True), (query, False)):
        for is_dir, blob in ((True, listing.dirs), (False, listing.files)):
            text, starts = (blob.name_text, blob.name_starts) if in_names else (blob.path_text, blob.path_starts)
            for index in blob.find(text, starts, needle):
                if (is_dir, index) in seen:
                    continue
                seen.add((is_dir, index))
                found.append(FileMatch(blob.paths[index], is_dir))
                if len(found) >= limit:
                    return found
    # Fewer than ``limit`` contain the query: its characters in order (each ``x[^\ny]*+`` step is possessive,
    # so a line is scanned once), in the file names (in the paths when the query has a "/"), scored by pi's
    # fuzzyMatch.
    steps = [re.escape(ch) + (f"[^\\n{re.escape(nxt)}]*+" if nxt else "") for ch, nxt in
             zip(query, [*query[1:], ""], strict=True)]
    subsequence = re.compile("".join(steps))
    candidates: list[tuple[float, int, str, bool]] = []
    for is_dir, blob in ((True, listing.dirs), (False, listing.files)):
        text, starts = (blob.path_text, blob.path_starts) if "/" in query else (blob.name_text, blob.name_starts)
        for index in islice((i for i in blob.search(text, starts, subsequence) if (is_dir, i) not in seen),
                            FUZZY_CANDIDATES):
            path = blob.paths[index]
            lower = path.lower()
            candidates.append((_fuzzy_score(query, lower.rsplit("/", 1)[-1], lower), len(path), path, is_dir))
    candidates.sort()
    found.extend(FileMatch(path, is_dir) for _, _, path, is_dir in candidates[: limit - len(found)])
    return found


def _fuzzy_score(query: str, name: str, path: str) -> float:
    """pi's fuzzy score of the file name when it matches, else of the whole path + 20 (a name match ranks
    first)."""
    in_name = fuzzy_match(query, name)
    return in_name.score if in_name.matches else fuzzy_match(query, path).score + 20
