"""Path resolution for tool arguments (pi-reference §3.13 "Path resolution").

Models write paths in odd ways: with a leading ``@`` (copied from a mention), with exotic Unicode spaces
(copied from macOS file names), or with ``~``. :func:`resolve_to_cwd` undoes all three and makes the
path absolute relative to the tool's cwd. :func:`resolve_read_path` also tries the macOS screenshot
variants (narrow no-break space before AM/PM, NFD, curly apostrophe) when the plain path is missing.
"""

from __future__ import annotations

import os
import re
import unicodedata

_UNICODE_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
_NARROW_NBSP = "\u202f"
_AM_PM = re.compile(r" (AM|PM)\.", re.IGNORECASE)


def expand_path(file_path: str) -> str:
    """Strip one leading ``@``, turn exotic spaces into ``" "`` and expand ``~`` / ``~/...``."""
    path = file_path[1:] if file_path.startswith("@") else file_path
    path = _UNICODE_SPACES.sub(" ", path)
    if path == "~":
        return os.path.expanduser("~")
    if path.startswith("~/"):
        return os.path.expanduser("~") + path[1:]
    return path


def resolve_to_cwd(file_path: str, cwd: str) -> str:
    """Absolute, normalised path of ``file_path`` (after :func:`expand_path`) relative to ``cwd``."""
    expanded = expand_path(file_path)
    if os.path.isabs(expanded):
        return expanded
    return os.path.normpath(os.path.join(cwd, expanded))


def _variants(resolved: str) -> list[str]:
    am_pm = _AM_PM.sub(lambda m: f"{_NARROW_NBSP}{m.group(1)}.", resolved)
    nfd = unicodedata.normalize("NFD", resolved)
    curly = resolved.replace("'", "\u2019")
    nfd_curly = nfd.replace("'", "\u2019")
    return [am_pm, nfd, curly, nfd_curly]


def resolve_read_path(file_path: str, cwd: str) -> str:
    """Like :func:`resolve_to_cwd`, but if that path does not exist try the macOS variants in pi's order
    (AM/PM narrow no-break space, NFD, curly apostrophe, NFD + curly) and return the first that exists;
    the plain resolved path otherwise."""
    resolved = resolve_to_cwd(file_path, cwd)
    if os.path.lexists(resolved):
        return resolved
    for candidate in _variants(resolved):
        if candidate != resolved and os.path.lexists(candidate):
            return candidate
    return resolved
