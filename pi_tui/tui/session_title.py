"""The app's title, ``π - <session name> - <cwd basename>`` (pi), with nothing in it that could drive a terminal.

A session name comes from the user (``/name``), an extension (``pi.set_session_name``) or a session file; pi 1.x
fixed (1.5.0) "terminal titles containing control characters being able to inject terminal escape sequences".
Textual 8 keeps ``App.title`` inside the app (it writes no OSC 0/2 title), and the title is cleaned anyway, so a
later title writer cannot pass a sequence on.
"""

from __future__ import annotations

import os

from pi_tui.agent.terminal_text import sanitize_display_text


def app_title(session_name: str | None, cwd: str) -> str:
    """``π - name - base`` or ``π - base``; control sequences removed and line breaks made spaces."""
    base = os.path.basename(cwd.rstrip("/")) or cwd
    name = " ".join(sanitize_display_text(session_name or "").split())
    return f"π - {name} - {base}" if name else f"π - {base}"
