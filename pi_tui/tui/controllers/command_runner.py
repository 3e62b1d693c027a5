"""``SlashRunner``: runs ``/name [argument]`` from the editor, the palette or a picker.

``run_slash(text)`` returns False when ``text`` is not a known command (the submit flow refuses unknown ones,
``commands.classify_submit``); a known one runs in a worker, and a handler that raises is logged and shown as
one error notice (the app goes on).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pi_tui.tui.commands import parse_slash
from pi_tui.tui.controllers.host import AppHost
from pi_tui.tui.log_setup import log
from pi_tui.tui.session_adapter import maybe_await


class SlashRunner:
    """Runs commands by name from ``handlers`` (``{name: handler(arg)}``, filled by whoever owns them)."""

    def __init__(self, host: AppHost) -> None:
        self.host = host
        self.handlers: dict[str, Callable[[str], Awaitable[None] | None]] = {}

    def run_slash(self, text: str) -> bool:
        """Run ``/name [arg]`` in a worker; False when it is not a command."""
        parsed = parse_slash(text)
        if parsed is None or parsed[0].name not in self.handlers:
            return False
        cmd, arg = parsed
        self.run_command(cmd.name, arg)
        return True

    def run_command(self, name: str, arg: str) -> None:
        """Run the command ``name`` with ``arg`` in a worker (group ``slash``)."""
        self.host.run_worker(self._run(name, arg), group="slash")

    async def _run(self, name: str, arg: str) -> None:
        try:
            await maybe_await(self.handlers[name](arg))
        except Exception as exc:
            log.warning("/%s failed", name, exc_info=exc)
            self.host.add_notice("error", str(exc))
