"""Every way out of the interactive app (``QuitController``) and the signals that lead there (``SignalHandlers``).

Ctrl+C twice, Ctrl+D (empty editor), ``/quit``, SIGTERM, SIGHUP (the terminal was closed) and SIGINT all call
:meth:`QuitController.request_quit`: the session is settled first (``coding.agent_session.shutdown``: a streaming
reply is saved as an aborted assistant message with the partial content, tools end with results, a ``!cmd``
is recorded as cancelled, compaction and retry waits are cancelled), the session lock is released, and only
then does the app exit. Exit codes follow pi: 0 for a normal quit, 143 after SIGTERM, 129 after SIGHUP (the
terminal is gone: no restore sequences are written to it, the process ends right after saving).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from pi_tui.coding.agent_session.shutdown import settle_session

log = logging.getLogger(__name__)

EXIT_SIGTERM = 143  # 128 + SIGTERM (pi)
EXIT_SIGHUP = 129  # 128 + SIGHUP (pi)


class QuitController:
    """Quit paths of the app (see the module docstring).

    ``get_session()`` gives the session to settle (or None), ``show_status(text)`` shows the saving notice (it
    may raise before the app is mounted), ``exit_app(code)`` ends the Textual app. ``held()`` takes the texts
    the app itself holds unsent (typed during a compaction): they are kept with the session's queued ones.
    """

    def __init__(self, get_session: Callable[[], Any], show_status: Callable[[str], None],
                 exit_app: Callable[[int], None], held: Callable[[], list[str]] | None = None) -> None:
        self._get_session = get_session
        self._held = held
        self._show_status = show_status
        self._exit_app = exit_app
        self._quit_task: asyncio.Task[None] | None = None
        self._terminal_gone = False  # SIGHUP arrived (maybe while a normal quit was already under way)
        self._settled = False  # the quit has saved the session; only the exit is left
        self.on_settled: Callable[[], None] | None = None
        """Called after the session settled and before the app exits (``run_app`` releases the session lock)."""
        self.unsent_at_exit: list[str] = []
        """What was typed and held when the app quit before its session existed: no session can keep it, so
        ``run_app`` prints it once the terminal is back (never lost silently)."""

    @property
    def quitting(self) -> bool:
        """True once a quit was requested (the session is being settled or the app is exiting)."""
        return self._quit_task is not None

    def request_quit(self, exit_code: int = 0, terminal_gone: bool = False) -> None:
        """Settle the session, then exit with ``exit_code``; a second request while settling is ignored.

        ``terminal_gone`` (SIGHUP): nothing is drawn and the process ends with ``os._exit`` once saved.
        """
        if self._quit_task is not None:
            if terminal_gone:
                # The terminal closed while a quit was under way (Ctrl+D, then the window closed): Textual's own
                # shutdown would block writing to the dead terminal forever, so end the process once saved.
                self._terminal_gone = True
                if self._settled:
                    _flush_logs()
                    os._exit(exit_code)
            return
        if not terminal_gone:
            try:
                self._show_status("Saving the session…")
            except Exception:  # the status line may not be mounted yet (quit during start-up)
                pass
        self._quit_task = asyncio.get_running_loop().create_task(self._quit(exit_code, terminal_gone))

    async def _quit(self, exit_code: int, terminal_gone: bool) -> None:
        session = self._get_session()
        held: list[str] = []
        if self._held is not None:
            try:
                held = self._held()
            except Exception:
                log.exception("taking the held messages failed")
        if session is not None:
            await settle_session(session, unsent=held)
        elif held:
            log.warning("quit before the session existed; not sent: %r", held)
            self.unsent_at_exit = held
        callback = self.on_settled
        if callback is not None:
            try:
                callback()
            except Exception:
                log.exception("releasing the session failed")
        self._settled = True
        if terminal_gone or self._terminal_gone:
            _flush_logs()
            # the terminal is gone: restoring it would only raise EIO or block (pi exits the same way)
            os._exit(EXIT_SIGHUP if self._terminal_gone and not terminal_gone else exit_code)
        self._exit_app(exit_code)


class SignalHandlers:
    """SIGTERM, SIGHUP and SIGINT quit through ``request_quit(exit_code, terminal_gone=...)`` (POSIX; a no-op
    where the loop cannot take signal handlers: not the main thread, or not POSIX)."""

    def __init__(self, request_quit: Callable[..., None]) -> None:
        self._request_quit = request_quit
        self._installed: tuple[int, ...] = ()

    def install(self) -> None:
        """Add the handlers to the running loop."""
        loop = asyncio.get_running_loop()
        quit_ = self._request_quit
        handlers: dict[int, Callable[[], None]] = {
            signal.SIGTERM: lambda: quit_(EXIT_SIGTERM),
            signal.SIGINT: lambda: quit_(0),
        }
        if hasattr(signal, "SIGHUP"):
            handlers[signal.SIGHUP] = lambda: quit_(EXIT_SIGHUP, terminal_gone=True)
        installed = []
        for signum, handler in handlers.items():
            try:
                loop.add_signal_handler(signum, handler)
            except (NotImplementedError, RuntimeError, ValueError):
                continue
            installed.append(signum)
        self._installed = tuple(installed)

    def remove(self) -> None:
        """Undo :meth:`install`."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        for signum in self._installed:
            loop.remove_signal_handler(signum)
        self._installed = ()


def _flush_logs() -> None:
    for name in ("pi_tui", "asyncio"):
        for handler in logging.getLogger(name).handlers:
            try:
                handler.flush()
            except Exception:
                pass
    try:
        sys.stderr.flush()
    except Exception:
        pass
