"""Settings entries of ``skills``/``prompts``: paths, globs and overrides (pi 0.73 ``package-manager``).

An entry is a path (``~`` expanded, relative to the settings file's folder: ``<agent dir>`` for the global file,
``<cwd>/.pi-tui`` for the project's), a glob include (contains ``*`` or ``?``: only matching files stay), or an
override: ``!pattern`` excludes matching files (auto-discovered ones too), ``+path`` force-includes an exact
path, ``-path`` force-excludes one. A pattern matches a file by its path relative to the base folder, its name,
or its absolute path; for a ``SKILL.md`` also by its folder in the same three forms. Globs: ``**`` crosses
``/``, ``*`` and ``?`` do not (minimatch).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from functools import lru_cache


def is_override(entry: str) -> bool:
    """``!``, ``+`` or ``-`` entries."""
    return entry.startswith(("!", "+", "-"))


def is_pattern(entry: str) -> bool:
    """An override or a glob include (anything that is not a plain path)."""
    return is_override(entry) or "*" in entry or "?" in entry


def expand_home(entry: str, home: str | None = None) -> str:
    """``~``, ``~/x`` and ``~x`` expanded against ``home`` (default: the user's home), pi's rule."""
    text = entry.strip()
    base = home if home is not None else os.path.expanduser("~")
    if text == "~":
        return base
    if text.startswith("~/"):
        return os.path.join(base, text[2:])
    if text.startswith("~"):
        return os.path.join(base, text[1:])
    return text


def resolve_entry(entry: str, base_dir: str, home: str | None = None) -> str:
    """Absolute path of a plain entry (relative ones against ``base_dir``)."""
    return os.path.normpath(os.path.join(base_dir, expand_home(entry, home)))


@lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        elif pattern[i] == "?":
            out += "[^/]"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


def _forms(path: str, base_dir: str) -> list[str]:
    posix = path.replace(os.sep, "/")
    forms = [os.path.relpath(path, base_dir).replace(os.sep, "/"), os.path.basename(path), posix]
    if os.path.basename(path) == "SKILL.md":
        parent = os.path.dirname(path)
        forms += [os.path.relpath(parent, base_dir).replace(os.sep, "/"), os.path.basename(parent),
                  parent.replace(os.sep, "/")]
    return forms


def matches_any(path: str, patterns: Sequence[str], base_dir: str) -> bool:
    """True when a glob of ``patterns`` matches one of the file's forms (module docstring)."""
    forms = _forms(path, base_dir)
    return any(_glob_regex(p.replace(os.sep, "/")).match(form) for p in patterns for form in forms)


def matches_exact(path: str, patterns: Sequence[str], base_dir: str) -> bool:
    """True when a pattern (``./`` dropped) equals the file's relative or absolute path (or its folder's)."""
    forms = _forms(path, base_dir)
    del forms[1]  # names are not exact paths
    if len(forms) > 3:
        del forms[3]
    wanted = {(p[2:] if p.startswith("./") else p).replace(os.sep, "/") for p in patterns}
    return any(form in wanted for form in forms)


def enabled_by_overrides(path: str, entries: Sequence[str], base_dir: str) -> bool:
    """Whether an auto-discovered file stays enabled under the ``!``/``+``/``-`` entries of one settings scope."""
    excludes = [e[1:] for e in entries if e.startswith("!")]
    force_in = [e[1:] for e in entries if e.startswith("+")]
    force_out = [e[1:] for e in entries if e.startswith("-")]
    enabled = not (excludes and matches_any(path, excludes, base_dir))
    if force_in and matches_exact(path, force_in, base_dir):
        enabled = True
    if force_out and matches_exact(path, force_out, base_dir):
        enabled = False
    return enabled


def apply_patterns(files: Sequence[str], entries: Sequence[str], base_dir: str) -> list[str]:
    """The files of a scope's plain entries that its patterns leave enabled, in order."""
    includes = [e for e in entries if not is_override(e) and is_pattern(e)]
    kept = [f for f in files if matches_any(f, includes, base_dir)] if includes else list(files)
    excludes = [e[1:] for e in entries if e.startswith("!")]
    if excludes:
        kept = [f for f in kept if not matches_any(f, excludes, base_dir)]
    force_in = [e[1:] for e in entries if e.startswith("+")]
    if force_in:
        kept += [f for f in files if f not in kept and matches_exact(f, force_in, base_dir)]
    force_out = [e[1:] for e in entries if e.startswith("-")]
    if force_out:
        kept = [f for f in kept if not matches_exact(f, force_out, base_dir)]
    return kept
