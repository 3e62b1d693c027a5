"""Copy text to the system clipboard: a clipboard tool first, OSC 52 second (``/copy``).

Tools tried in order, when on ``PATH``: ``pbcopy`` (macOS), ``wl-copy`` (Wayland, only with
``WAYLAND_DISPLAY``), ``xclip -selection clipboard`` / ``xsel --clipboard --input`` (X11, only with
``DISPLAY``), ``clip.exe`` (WSL). When none works the caller falls back to OSC 52 (Textual's
``App.copy_to_clipboard``), which many terminals ignore, so the result says which method was used and, when no
tool was found, what to install (or that there is no display to reach, as Ctrl+V says: tester2 #8).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping


def _candidates() -> list[list[str]]:
    cmds: list[list[str]] = [["pbcopy"]]
    if os.environ.get("WAYLAND_DISPLAY"):
        cmds.append(["wl-copy"])
    if os.environ.get("DISPLAY"):
        cmds.append(["xclip", "-selection", "clipboard"])
        cmds.append(["xsel", "--clipboard", "--input"])
    cmds.append(["clip.exe"])
    return cmds


def copy_with_tool(text: str, timeout: float = 2.0) -> str | None:
    """Copy via the first working clipboard tool; returns its name or ``None`` when none worked."""
    for cmd in _candidates():
        if shutil.which(cmd[0]) is None:
            continue
        try:
            proc = subprocess.run(cmd, input=text.encode("utf-8"), timeout=timeout,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        except (OSError, subprocess.SubprocessError):
            continue
        if proc.returncode == 0:
            return cmd[0]
    return None


async def copy_text(text: str, osc52: Callable[[str], None]) -> str:
    """Copy ``text``; returns a user message saying which method worked (pi's ``/copy``). The clipboard tools
    run in a thread (each may take up to its 2 s timeout): the UI's event loop never waits on them."""
    tool = await asyncio.to_thread(copy_with_tool, text)
    if tool:
        return f"Copied last response to clipboard ({tool})"
    osc52(text)
    return f"Copied last response via OSC 52 ({missing_tool_hint()}; your terminal must allow OSC 52)"


def missing_tool_hint(env: Mapping[str, str] | None = None, platform: str | None = None) -> str:
    """Why no clipboard tool copied, with what to do: on Linux without ``DISPLAY``/``WAYLAND_DISPLAY`` there is
    no clipboard to reach (over SSH); otherwise the tools to install for this system."""
    env = os.environ if env is None else env
    platform = platform or sys.platform
    if platform == "darwin":
        return "pbcopy did not work"
    if platform.startswith("linux") and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        return "no clipboard tool can work here: DISPLAY and WAYLAND_DISPLAY are not set (over SSH?)"
    return "no clipboard tool found: install wl-clipboard (Wayland) or xclip (X11)"
