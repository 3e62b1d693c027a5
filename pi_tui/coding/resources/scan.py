"""Folder walking shared by skill and prompt-template discovery (pi 0.73 ``package-manager`` helpers).

:class:`IgnoreRules` gathers ``.gitignore``/``.ignore``/``.fdignore`` rules while walking down from a scan root,
each rule rewritten relative to that root (pi's ``addIgnoreRules``/``prefixIgnorePattern``), and matches paths
with gitignore semantics (``pathspec``). :func:`collect_markdown_files` is pi's ``collectFiles`` for ``*.md``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pathspec

IGNORE_FILE_NAMES = (".gitignore", ".ignore", ".fdignore")


class IgnoreRules:
    """``.gitignore``-style rules gathered while walking down from a scan root (pi's ``addIgnoreRules``)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.patterns: list[str] = []
        self.spec: pathspec.GitIgnoreSpec | None = None

    def add_dir(self, directory: Path) -> None:
        """Read the ignore files of ``directory`` (a folder at or under the root)."""
        rel = os.path.relpath(directory, self.root)
        prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        added = False
        for name in IGNORE_FILE_NAMES:
            try:
                lines = (directory / name).read_text(encoding="utf-8").splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for line in lines:
                pattern = _prefix_pattern(line, prefix)
                if pattern:
                    self.patterns.append(pattern)
                    added = True
        if added:
            self.spec = pathspec.GitIgnoreSpec.from_lines(self.patterns)

    def ignores(self, path: Path, is_dir: bool = False) -> bool:
        """True when a rule read so far excludes ``path`` (folders are matched with a trailing ``/``)."""
        if self.spec is None:
            return False
        rel = os.path.relpath(path, self.root).replace(os.sep, "/")
        return self.spec.match_file(rel + "/" if is_dir else rel)


def _prefix_pattern(line: str, prefix: str) -> str | None:
    """A rule of an ignore file in folder ``prefix`` rewritten relative to the scan root."""
    stripped = line.strip()
    if not stripped or (stripped.startswith("#") and not stripped.startswith("\\#")):
        return None
    pattern, negated = line, False
    if pattern.startswith("!"):
        negated, pattern = True, pattern[1:]
    elif pattern.startswith("\\!"):
        pattern = pattern[1:]
    pattern = pattern.removeprefix("/")
    prefixed = prefix + pattern
    return "!" + prefixed if negated else prefixed


def entry_kind(path: Path) -> tuple[bool, bool] | None:
    """``(is_dir, is_file)`` following symlinks; ``None`` for a broken link or a vanished entry."""
    try:
        return path.is_dir(), path.is_file()
    except OSError:
        return None


def collect_markdown_files(directory: str | os.PathLike[str], *, recursive: bool) -> list[str]:
    """``*.md`` files in ``directory`` (sorted by name, symlinks followed, names starting with ``.`` and
    ``node_modules`` skipped, ignore-file rules applied), in sub-folders too when ``recursive``."""
    root = Path(os.path.abspath(directory))
    if not root.is_dir():
        return []
    rules = IgnoreRules(root)
    return _collect_md(root, rules, recursive, set())


def enter_folder(directory: Path, rules: IgnoreRules, visited: set[str]) -> list[str] | None:
    """The sorted entry names of ``directory`` for a scan, its ignore files added to ``rules``; None when it was
    visited already (a symlink back up the tree: each folder is walked once) or cannot be listed."""
    real = os.path.realpath(directory)
    if real in visited:
        return None
    visited.add(real)
    rules.add_dir(directory)
    try:
        return sorted(os.listdir(directory))
    except OSError:
        return None


def _collect_md(directory: Path, rules: IgnoreRules, recursive: bool, visited: set[str]) -> list[str]:
    names = enter_folder(directory, rules, visited)
    if names is None:
        return []
    found: list[str] = []
    for name in names:
        if name.startswith(".") or name == "node_modules":
            continue
        path = directory / name
        kind = entry_kind(path)
        if kind is None or rules.ignores(path, is_dir=kind[0]):
            continue
        if kind[0] and recursive:
            found.extend(_collect_md(path, rules, recursive, visited))
        elif kind[1] and name.endswith(".md"):
            found.append(str(path))
    return found
