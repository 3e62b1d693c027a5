"""Protected paths: the agent may not write or edit ``.env`` files, anything in ``.git/`` or
``node_modules/``, or the paths listed in ``$PI_TUI_PROTECTED_PATHS`` (``:``-separated, relative to the
project). The model is told why; the user sees a warning. ``pi-tui -e examples/extensions/protected_paths.py``
"""

import os
from pathlib import PurePath

PROTECTED_FOLDERS = {".git", "node_modules"}


def is_protected(path, cwd):
    """True for an ``.env``/``.env.*`` file, a path inside a protected folder, or a listed path."""
    parts = PurePath(os.path.normpath(os.path.join(cwd, os.path.expanduser(path)))).parts
    name = parts[-1] if parts else ""
    if name == ".env" or name.startswith(".env.") or PROTECTED_FOLDERS.intersection(parts[:-1]):
        return True
    extra = [p for p in os.environ.get("PI_TUI_PROTECTED_PATHS", "").split(":") if p]
    full = os.path.normpath(os.path.join(cwd, path))
    return any(full == (root := os.path.normpath(os.path.join(cwd, p))) or full.startswith(root + os.sep)
               for p in extra)


def activate(pi):
    def guard(event, ctx):
        if event.tool_name not in ("write", "edit"):
            return None
        path = str(event.input.get("path", ""))
        if not is_protected(path, ctx.cwd):
            return None
        ctx.ui.notify(f"Blocked a {event.tool_name} of the protected path {path}", "warning")
        return {"block": True, "reason": f"Path {path!r} is protected: do not change it"}

    pi.on("tool_call", guard)
