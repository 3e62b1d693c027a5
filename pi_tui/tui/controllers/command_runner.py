"""``SlashRunner``: runs ``/name [argument]`` from the editor, the palette or a picker.

The commands are the app's ``CommandRegistry`` (built-ins and whatever extensions, templates, skills and MCP
prompts registered; ``pi_tui.coding.extensions.registries``). ``run_slash(text)`` returns False when ``text``
is not a registered command (the submit flow refuses unknown ones, ``commands.classify_submit``); a known one
runs in a worker as ``handler(argument, context)``, and a handler that raises is logged and shown as one error
notice (naming the command's source and owner when it is not a built-in); the app goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_tui.coding.extensions.registries import CommandRegistry, CommandSpec
from pi_tui.tui.commands import parse_slash
from pi_tui.tui.controllers.host import AppHost
from pi_tui.tui.log_setup import log
from pi_tui.tui.session_adapter import maybe_await


class SlashRunner:
    """Runs the commands of ``commands()`` (read at each call: the app switches to the session's registry
    once the session is attached); ``context()`` is the object handed to each handler."""

    def __init__(self, host: AppHost, commands: Callable[[], CommandRegistry], context: Callable[[], Any]) -> None:
        self.host = host
        self._commands = commands
        self._context = context
        self.hold: Callable[[str], bool] | None = None
        """``hold(text)``: True when the command was held until the session exists (start-up; the submit
        flow's ``hold_command``): typed, picked in the palette or run by a key, it runs once the session is
        there instead of saying "try again"."""

    def run_slash(self, text: str) -> bool:
        """Run ``/name [arg]`` in a worker (or hold it during start-up); False when it is not a command."""
        registry = self._commands()
        parsed = parse_slash(text, registry.all())
        spec = registry.get(parsed[0].name) if parsed is not None else None
        if parsed is None or spec is None:
            return False
        if self.hold is None or not self.hold(text):
            self._start(spec, parsed[1])
        return True

    def run_command(self, name: str, arg: str) -> None:
        """Run the command ``name`` with ``arg`` in a worker (group ``slash``); nothing when it is gone."""
        spec = self._commands().get(name)
        if spec is not None:
            self._start(spec, arg)

    def _start(self, spec: CommandSpec, arg: str) -> None:
        self.host.run_worker(self._run(spec, arg), group="slash")

    async def _run(self, spec: CommandSpec, arg: str) -> None:
        from pi_tui.coding.agent_session.compaction import CompactionError  # after the first paint

        try:
            await maybe_await(spec.handler(arg, self._context()))
        except CompactionError as exc:  # an expected refusal ("Nothing to compact ..."): shown, not a fault
            log.info("/%s refused: %s", spec.name, exc)
            self.host.add_notice("error", str(exc))
        except Exception as exc:
            log.warning("/%s failed", spec.name, exc_info=exc)
            if spec.source == "builtin":
                self.host.add_notice("error", str(exc))
            else:
                owner = f" {spec.owner}" if spec.owner else ""
                self.host.add_notice("error", f"/{spec.name} ({spec.source}{owner}) failed: {exc}")


class AppCommands:
    """The app's one command list: its own ``CommandRegistry`` (the built-ins alone) until the session's
    ``commands`` registry is adopted, then that one, where extensions, templates, skills and MCP prompts
    register too."""

    def __init__(self) -> None:
        self.registry = CommandRegistry()

    def all(self) -> list[CommandSpec]:
        """Every command: the built-ins first, then the others in registration order (pi lists its built-ins
        first too)."""
        return sorted(self.registry.all(), key=lambda spec: spec.source != "builtin")

    def adopt(self, registry: object, register_builtins: Callable[[CommandRegistry], list[str]]) -> list[str]:
        """Use ``registry`` from now on, with the built-ins registered into it by ``register_builtins``;
        returns its warnings. Nothing happens when ``registry`` is not a ``CommandRegistry`` (a test's session
        without one) or is the one in use."""
        if not isinstance(registry, CommandRegistry) or registry is self.registry:
            return []
        warnings = register_builtins(registry)
        self.registry = registry
        return warnings
