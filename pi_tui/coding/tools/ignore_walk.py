"""Pure-Python directory walking with .gitignore support and glob matching, used by ``grep`` and
``find`` when ``rg`` / ``fd`` are not available (pi-reference §6 "grep/find").

Rules (the subset of ripgrep's / fd's behaviour the tools rely on):

* hidden files and directories are included (pi passes ``--hidden``); ``.git`` directories are never
  entered (rg would search them with ``--hidden``; skipping them is a deliberate simplification);
* ``.gitignore`` and ``.ignore`` files are honoured in every directory, each relative to its own
  directory (nested files; a deeper file's decision, including ``!negation``, wins); a nested git repository
  (a directory holding ``.git``) starts afresh: the ignore files above it do not apply inside it. ``.gitignore``
  files are only honoured inside a git work tree when ``require_git`` is true (rg's default; fd gets
  ``--no-require-git`` from pi so it honours them everywhere);
* symlinks are not followed; entries are visited in sorted order (deterministic output).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pathspec


@dataclass
class _Level:
    base: str  # absolute directory the spec's patterns are relative to
    spec: pathspec.GitIgnoreSpec


def in_git_repo(directory: str) -> bool:
    """True when ``directory`` or a parent contains ``.git`` (how rg/fd decide \"inside git\")."""
    current = os.path.abspath(directory)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return True
        parent = os.path.dirname(current)
        if parent == current:
            return False
        current = parent


def _load_spec(directory: str, use_gitignore: bool) -> pathspec.GitIgnoreSpec | None:
    lines: list[str] = []
    names = [".gitignore", ".ignore"] if use_gitignore else [".ignore"]
    for name in names:
        try:
            with open(os.path.join(directory, name), encoding="utf-8", errors="replace") as f:
                lines.extend(f.read().splitlines())
        except OSError:
            continue
    if not lines:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines)


def _ignored(levels: list[_Level], path: str, is_dir: bool) -> bool:
    decision: bool | None = None
    for level in levels:
        rel = os.path.relpath(path, level.base).replace(os.sep, "/")
        if is_dir:
            rel += "/"
        result = level.spec.check_file(rel)
        if result.include is not None:
            decision = result.include
    return bool(decision)


def walk(root: str, *, require_git: bool) -> Iterator[tuple[str, bool]]:
    """Yield ``(absolute_path, is_dir)`` for every entry under ``root`` that is not ignored, depth-first
    in sorted order (a directory comes right before its contents)."""
    use_gitignore = not require_git or in_git_repo(root)
    yield from _walk_dir(root, [], use_gitignore)


def _walk_dir(directory: str, levels: list[_Level], use_gitignore: bool) -> Iterator[tuple[str, bool]]:
    spec = _load_spec(directory, use_gitignore)
    if spec is not None:
        levels = [*levels, _Level(directory, spec)]
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError:
            continue
        if is_dir and entry.name == ".git":
            continue
        if _ignored(levels, entry.path, is_dir):
            continue
        yield entry.path, is_dir
        if is_dir:
            # a nested repository is a boundary: the ignore files above it do not apply inside (git, rg and fd
            # behave so; pi 0.79.10, #5960)
            inner = [] if os.path.lexists(os.path.join(entry.path, ".git")) else levels
            yield from _walk_dir(entry.path, inner, use_gitignore)


def glob_to_regex(pattern: str) -> re.Pattern[str]:
    """Compile a glob (``*``, ``?``, ``**``, ``[...]``, ``{a,b}``) to a full-match regex where ``*`` and
    ``?`` never cross ``/`` and ``**/`` matches zero or more directories."""
    out: list[str] = []
    i, n = 0, len(pattern)
    depth = 0
    while i < n:
        c = pattern[i]
        if c == "*":
            if pattern.startswith("**", i):
                i += 2
                if i < n and pattern[i] == "/":
                    out.append("(?:.*/)?")
                    i += 1
                else:
                    out.append(".*")
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 1)
            if j == -1:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = j
        elif c == "{":
            depth += 1
            out.append("(?:")
        elif c == "}" and depth:
            depth -= 1
            out.append(")")
        elif c == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(c))
        i += 1
    out.extend(")" * depth)
    return re.compile("".join(out), re.DOTALL)
