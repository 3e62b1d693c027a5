"""The extension runtime of one session: loaded extensions, their registries, the UI they talk to, and
load / unload / ``/reload`` (pi's extension runtime; pi docs/extensions.md).

Owner keys. Everything an extension registers is recorded under its entry file's path (names may repeat
across folders), so unloading one extension takes back exactly its tools, commands, shortcuts, flags,
renderers, event-bus handlers and event handlers.

Errors go to ``host.notify("error", text)`` (one transcript line naming the extension, the event and
the file) and to every ``error_listeners`` callback (the RPC mode's ``extension_error`` event).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from pi_tui.agent.types import AgentTool
from pi_tui.coding.extensions.activation import LoopBound, run_off_loop
from pi_tui.coding.extensions.api import EventBus, ExtensionAPI, command_spec
from pi_tui.coding.extensions.context import ExtensionCommandContext, ExtensionContext, GuardedUI
from pi_tui.coding.extensions.events import ResourcesDiscoverEvent, SessionShutdownEvent, SessionStartEvent
from pi_tui.coding.extensions.loader import (
    ExtensionSources,
    activate_function,
    discover_extensions,
    extension_name,
    forget_module,
    import_extension,
)
from pi_tui.coding.extensions.providers import ProviderRegistrations, refresh_current_model
from pi_tui.coding.extensions.registries import (
    CommandRegistry,
    FlagRegistry,
    RendererRegistry,
    ShortcutRegistry,
)
from pi_tui.coding.extensions.runner import (
    DEFAULT_HANDLER_TIMEOUT,
    ExtensionError,
    ExtensionRunner,
    LoadedExtension,
)
from pi_tui.coding.extensions.ui import ExtensionUI, NoUI

log = logging.getLogger(__name__)


def invocable_commands(commands: CommandRegistry) -> list[dict[str, Any]]:
    """``pi.get_commands()``: the commands a prompt may invoke, as RPC ``get_commands`` lists them
    (``pi_tui.coding.modes.rpc_commands``: extension commands, then templates as ``"prompt"``, then skills,
    then MCP prompts; ``{"name", "description", "source", "sourceInfo": {"path"}}``)."""
    from pi_tui.coding.modes.rpc_commands import rpc_commands

    return rpc_commands(commands)


def _model_registry(host: Any) -> Any:
    """The session's model registry (``session.models.registry``), or None."""
    return getattr(getattr(getattr(host, "session", None), "models", None), "registry", None)


class ExtensionRuntime:
    """Extensions of one session (module docstring). ``host``: the session side
    (:class:`~pi_tui.coding.extensions.host.ExtensionHost`); ``commands``: the session's command registry;
    ``ui``: the front end's UI (:class:`NoUI` until :meth:`set_ui`); ``timeout``: seconds per async handler."""

    def __init__(
        self,
        host: Any,
        *,
        commands: CommandRegistry,
        ui: ExtensionUI | None = None,
        flags: FlagRegistry | None = None,
        timeout: float = DEFAULT_HANDLER_TIMEOUT,
    ) -> None:
        self.host = host
        self.commands = commands
        self.shortcuts = ShortcutRegistry()
        self.flags = flags or FlagRegistry()
        self.renderers = RendererRegistry()
        self.ui: ExtensionUI = ui or NoUI()
        self.guarded_ui = GuardedUI(self)
        self.runner = ExtensionRunner(on_error=self._on_error, context_factory=self.context, timeout=timeout)
        self.events = EventBus(self)
        self.providers = ProviderRegistrations(lambda: _model_registry(host), self.runner)
        self.providers.listeners.append(lambda: refresh_current_model(host))
        self.statuses: dict[str, str | None] = {}
        self.widgets: set[str] = set()  # keys of the widgets extensions set (cleared on unload)
        self.error_listeners: list[Callable[[ExtensionError], None]] = []
        self.reload_hooks: list[Callable[[], Any]] = []
        self.reload_listeners: list[Callable[[], None]] = []  # after a reload (the TUI rebinds shortcuts)
        self.on_shutdown_request: Callable[[], None] | None = None
        self.on_slow_load: Callable[[str | None], None] | None = None
        """Told ``Loading extension NAME… (N s)`` while an extension's import or ``activate`` takes over 2 s,
        and None when it is over (the TUI's status line; ``activation.py``)."""
        self.offer_resources: Callable[[dict[str, list[str]]], None] | None = None
        """Given the ``skill_paths``/``prompt_paths``/``theme_paths`` of ``resources_discover`` when any."""
        self.current_system_prompt: str | None = None
        self.sources: ExtensionSources | None = None
        self._tools: dict[str, list[str]] = {}
        self._command_names: dict[str, list[tuple[str, str]]] = {}  # base name -> [(owner path, registered)]
        self._tasks: set[asyncio.Task[Any]] = set()
        self._context: ExtensionContext | None = None
        self._command_context: ExtensionCommandContext | None = None

    # ------------------------------------------------------------------ wiring

    def set_ui(self, ui: ExtensionUI) -> None:
        """Use the front end's ``ui`` from now on."""
        self.ui = ui

    @property
    def extensions(self) -> list[LoadedExtension]:
        """Loaded extensions, in load order."""
        return list(self.runner.extensions)

    def context(self) -> ExtensionContext:
        """The ``ctx`` of handlers and tools."""
        if self._context is None:
            self._context = ExtensionContext(self)
        return self._context

    def command_context(self) -> ExtensionCommandContext:
        """The ``ctx`` of commands and shortcuts."""
        if self._command_context is None:
            self._command_context = ExtensionCommandContext(self)
        return self._command_context

    def _on_error(self, error: ExtensionError) -> None:
        try:
            self.host.notify("error", error.text)
        except Exception:
            log.exception("could not show an extension error")
        for listener in list(self.error_listeners):
            try:
                listener(error)
            except Exception:
                log.exception("extension error listener failed")

    def report_ui_failure(self, exc: BaseException) -> None:
        """The front end's UI raised: logged (the dialog answered with its default)."""
        log.warning("extension UI call failed: %s", exc)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``coro`` in the background, keeping a reference until it ends."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def run_guarded(self, extension: LoadedExtension, what: str, call: Callable[[], Any]) -> None:
        """Run a command or shortcut handler without a timeout (it may drive the agent); a failure is
        reported as ``what`` of ``extension``."""
        try:
            result = call()
            if inspect.isawaitable(result):
                await result
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.runner.fail(extension, what, exc)

    # ------------------------------------------------------------------ registration (from ExtensionAPI)

    def add_tool(self, extension: LoadedExtension, tool: AgentTool) -> None:
        """Register ``tool`` for ``extension`` (a built-in of the same name is overridden, with a warning)."""
        builtin = {t.name for t in self.host.all_tools() if not getattr(t, "owner", "")}
        self.host.add_tool(tool)
        self._tools.setdefault(extension.path, []).append(tool.name)
        if tool.name in builtin:
            self.host.notify("warning", f'Extension "{extension.name}" overrides the built-in tool {tool.name}')

    def add_command(
        self, extension: LoadedExtension, name: str, handler: Callable[[str, Any], Any], description: str,
        completions: Callable[[str], list[str]] | None, usage: str,
    ) -> None:
        """Register ``/name`` for ``extension`` (``ExtensionAPI.register_command`` has the rules)."""
        if not callable(handler):
            raise ValueError(f"Command /{name}: handler is not callable")
        runtime = self

        async def run(args: str, _front_end_ctx: Any = None) -> None:
            await runtime.run_guarded(extension, f"command:{name}", lambda: handler(args, runtime.command_context()))

        existing = self.commands.get(name)
        taken = self._command_names.setdefault(name, [])
        if existing is not None and existing.source != "extension":
            self.runner.fail(extension, f"command:{name}", f"/{name} is a {existing.source} command; not registered")
            return
        if existing is not None and taken and len(taken) == 1 and taken[0][1] == name:
            first_owner, _ = taken[0]
            self.commands.unregister(name)
            self.commands.register(
                command_spec(f"{name}:1", existing.handler, existing.description, first_owner,
                             existing.get_argument_completions, existing.usage)
            )
            taken[0] = (first_owner, f"{name}:1")
        registered = name if not taken else f"{name}:{len(taken) + 1}"
        self.commands.register(command_spec(registered, run, description, extension.path, completions, usage))
        taken.append((extension.path, registered))

    def invocable_commands(self) -> list[dict[str, Any]]:
        """RPC ``get_commands`` rows (:func:`invocable_commands`)."""
        return invocable_commands(self.commands)

    # ------------------------------------------------------------------ loading

    async def load(self, sources: ExtensionSources) -> list[ExtensionError]:
        """Discover and load every extension of ``sources`` (``loader.py``); returns the failures (each was
        also reported)."""
        self.sources = sources
        self.providers.begin_loading()
        discovery = discover_extensions(sources)
        errors: list[ExtensionError] = []
        for raw, problem in discovery.problems:
            error = ExtensionError(Path(raw).stem or raw, raw, "load", problem)
            self.runner.report(error)
            errors.append(error)
        for entry in discovery.paths:
            failure = await self.load_one(entry)
            if failure is not None:
                errors.append(failure)
        self.providers.flush()  # pi: queued register_provider calls apply once all extensions loaded
        return errors

    async def load_one(self, entry: Path) -> ExtensionError | None:
        """Import ``entry`` and run its ``activate(pi)``; on failure everything it registered is taken
        back and the error (also reported) is returned."""
        extension = LoadedExtension(name=extension_name(entry), path=str(entry))
        slow = {"name": extension.name, "limit": self.runner.timeout, "on_slow": self.on_slow_load}
        try:  # off the loop: a slow import never freezes the app (activation.py)
            module = await run_off_loop(lambda: import_extension(entry), **slow)  # type: ignore[arg-type]
        except BaseException as exc:  # noqa: BLE001 - SyntaxError, ImportError, SystemExit at top level...
            if isinstance(exc, KeyboardInterrupt | asyncio.CancelledError):
                raise
            return self.runner.fail(extension, "load", exc)
        extension.module = module
        extension.api = ExtensionAPI(self, extension)
        bound: LoopBound | None = None
        try:
            activate: Any = activate_function(module)
            if inspect.iscoroutinefunction(activate):
                await self.runner.call(activate(extension.api))
            else:  # a plain def runs in a thread, its calls to pi on the loop
                bound = LoopBound(extension.api, asyncio.get_running_loop(), extension.name)
                result = await run_off_loop(lambda: activate(bound), **slow)  # type: ignore[arg-type]
                if inspect.isawaitable(result):
                    await self.runner.call(result)
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt | asyncio.CancelledError):
                raise
            if bound is not None:
                bound.close()  # a thread still running may call pi no more
            self._take_back(extension)
            return self.runner.fail(extension, "activate", exc)
        self.runner.add(extension)
        return None

    def _take_back(self, extension: LoadedExtension) -> None:
        owner = extension.path
        self.host.remove_tools(self._tools.pop(owner, []))
        self.commands.remove_owner("extension", owner)
        for base, taken in list(self._command_names.items()):
            self._command_names[base] = [t for t in taken if t[0] != owner]
        self.shortcuts.remove_owner(owner)
        self.flags.remove_owner(owner)
        self.renderers.remove_owner(owner)
        self.providers.remove_owner(owner)
        self.events.remove_owner(extension)
        self.runner.remove(extension)
        if extension.module is not None:
            forget_module(extension.module.__name__)

    def unload_all(self) -> None:
        """Take back every extension (before a reload, or when the session ends)."""
        for extension in list(self.runner.extensions):
            self._take_back(extension)
        self.runner.clear()
        self.events.remove_owner(None)
        for key in list(self.statuses):
            self.guarded_ui.set_status(key, None)
        for key in list(self.widgets):
            self.guarded_ui.set_widget(key, None)
        self.guarded_ui.reset_custom()  # header, footer, working row (ui_slots.py)

    # ------------------------------------------------------------------ lifecycle events

    async def start(self, reason: str = "startup", previous_session_file: str | None = None) -> dict[str, list[str]]:
        """Emit ``session_start`` then ``resources_discover``; returns the resource paths extensions gave."""
        await self.runner.emit("session_start", SessionStartEvent(reason, previous_session_file))
        discover_reason = "reload" if reason == "reload" else "startup"
        found = await self.runner.emit_resources_discover(ResourcesDiscoverEvent(cwd=str(self.host.cwd),
                                                                                 reason=discover_reason))
        self.guarded_ui.offer_themes(found.get("theme_paths", []))  # the front end lists and loads them
        if any(found.values()) and self.offer_resources is not None:
            try:
                self.offer_resources(found)
            except Exception as exc:
                log.exception("extension resources could not be loaded")
                self.host.notify("error", f"Resources offered by extensions could not be loaded: {exc}")
        return found

    async def shutdown(self, reason: str = "quit", target_session_file: str | None = None) -> None:
        """Emit ``session_shutdown``."""
        await self.runner.emit("session_shutdown", SessionShutdownEvent(reason, target_session_file))

    async def reload(self) -> list[ExtensionError]:
        """``/reload``: ``session_shutdown(reload)``, unload, the reload hooks (skills, templates, context
        files), load again from the same sources, ``session_start(reload)``; returns the load failures."""
        await self.shutdown("reload")
        self.unload_all()
        for hook in list(self.reload_hooks):
            try:
                result = hook()
                if inspect.isawaitable(result):
                    await result
            except Exception as exc:
                log.exception("reload hook failed")
                self.host.notify("error", f"Reload failed: {type(exc).__name__}: {exc}")
        errors = await self.load(self.sources) if self.sources is not None else []
        await self.start("reload")
        for listener in list(self.reload_listeners):
            try:
                listener()
            except Exception:
                log.exception("reload listener failed")
        return errors
