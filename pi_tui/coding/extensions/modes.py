"""Extensions in the non-interactive modes (pi docs/extensions.md "Mode Behavior"): print and JSON mode
load them with the no-UI defaults (``ctx.has_ui`` False; ``confirm`` → False, ``select``/``input`` →
None), RPC mode with its extension-UI sub-protocol. Failures are also written out: print mode as
``Extension error: ...`` on stderr, JSON and RPC mode as pi's ``extension_error`` event line
(``{"type": "extension_error", "extensionPath", "event", "error"}``, pi docs/rpc.md).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Any

from pi_tui.coding.extensions.runner import ExtensionError
from pi_tui.coding.extensions.ui import ExtensionUI


def extension_error_event(error: ExtensionError) -> dict[str, Any]:
    """pi's ``extension_error`` event for ``error``."""
    return {"type": "extension_error", "extensionPath": error.path, "event": error.event, "error": error.error}


def print_error(error: ExtensionError) -> None:
    """Print mode: the error on stderr."""
    print(f"Extension error: {error.text}", file=sys.stderr)


def quiet_runner_log() -> None:
    """The mode reports each extension error itself: without a log handler, Python's last-resort handler
    printed the runner's log line of it on stderr too, so ``-p`` (and ``--list-models``) showed every error
    twice (tester2 #13)."""
    quiet = logging.getLogger("pi_tui.coding.extensions")
    if not any(isinstance(h, logging.NullHandler) for h in quiet.handlers):
        quiet.addHandler(logging.NullHandler())


async def start_mode_extensions(
    session: Any, *, ui: ExtensionUI | None = None, on_error: Callable[[ExtensionError], None] | None = None
) -> None:
    """Bind ``ui`` (None: the no-UI defaults) and ``on_error``, then ``session.start()`` (loads and starts
    the extensions)."""
    hooks = getattr(session, "extensions", None)
    if hooks is not None:
        if ui is not None:
            hooks.runtime.set_ui(ui)
        if on_error is not None:
            hooks.runtime.error_listeners.append(on_error)
            quiet_runner_log()
    start = getattr(session, "start", None)
    if start is not None:
        await start()


async def stop_mode_extensions(session: Any) -> None:
    """``session_shutdown`` before the process ends (``session.shutdown()``)."""
    shutdown = getattr(session, "shutdown", None)
    if shutdown is not None:
        await shutdown()
