"""The ``pi`` object an extension's ``activate(pi)`` receives (pi's ``ExtensionAPI`` with Python names;
pi docs/extensions.md "ExtensionAPI Methods").

Registration: :meth:`ExtensionAPI.on`, :meth:`~ExtensionAPI.register_tool`,
:meth:`~ExtensionAPI.register_command`, :meth:`~ExtensionAPI.register_shortcut`,
:meth:`~ExtensionAPI.register_flag`, :meth:`~ExtensionAPI.register_message_renderer`.
Actions: ``send_message``, ``send_user_message``, ``append_entry``, ``notify``, ``post_artifact``,
``set_status``, ``get_active_tools``/``get_all_tools``/``set_active_tools``, ``set_model``,
``get_thinking_level``/``set_thinking_level``, ``exec``, ``get_commands``, ``get_flag``,
``set_session_name``/``get_session_name``, and ``events`` (a bus shared by all extensions).

Registration errors (a command name another extension took, a bad tool schema) raise ``ValueError`` from
the call, so ``activate`` fails and the loader reports it with the file's name.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from pi_tui.coding.extensions.registries import (
    CommandSpec,
    FlagSpec,
    MessageRendererSpec,
    RenderCall,
    RenderMessage,
    RenderResult,
    ShortcutSpec,
    ToolRendererSpec,
)
from pi_tui.coding.extensions.runner import LoadedExtension
from pi_tui.coding.extensions.tools import make_extension_tool

if TYPE_CHECKING:
    from pi_tui.coding.extensions.runtime import ExtensionRuntime

DELIVERY = {"steer": "steer", "follow_up": "follow_up", "followUp": "follow_up", "next_turn": "next_turn",
            "nextTurn": "next_turn"}


@dataclass
class ExecResult:
    """What :meth:`ExtensionAPI.exec` returns: ``stdout``, ``stderr`` (text), ``code`` (exit code; -1 when
    it could not start), ``killed`` (stopped by timeout or signal)."""

    stdout: str
    stderr: str
    code: int
    killed: bool = False


class EventBus:
    """``pi.events``: a bus shared by every extension (``on(name, handler)`` returns an unsubscribe
    function; ``emit(name, data)`` calls the handlers in order; a handler that raises is reported)."""

    def __init__(self, runtime: ExtensionRuntime) -> None:
        self._runtime = runtime
        self._handlers: dict[str, list[tuple[LoadedExtension, Callable[[Any], Any]]]] = {}
        self._owner: LoadedExtension | None = None

    def scoped(self, owner: LoadedExtension) -> ScopedEventBus:
        """The bus as seen by ``owner`` (its handlers are removed when it unloads)."""
        return ScopedEventBus(self, owner)

    def on(self, owner: LoadedExtension, name: str, handler: Callable[[Any], Any]) -> Callable[[], None]:
        """Subscribe ``handler`` of ``owner`` to ``name``."""
        entry = (owner, handler)
        self._handlers.setdefault(name, []).append(entry)

        def off() -> None:
            with contextlib.suppress(ValueError):
                self._handlers.get(name, []).remove(entry)

        return off

    def emit(self, name: str, data: Any = None) -> None:
        """Call every handler of ``name`` with ``data`` (coroutines are scheduled)."""
        for owner, handler in list(self._handlers.get(name, ())):
            try:
                result = handler(data)
                if inspect.isawaitable(result):
                    self._runtime.spawn(_guard(self._runtime, owner, f"events:{name}", result))
            except Exception as exc:
                self._runtime.runner.fail(owner, f"events:{name}", exc)

    def remove_owner(self, owner: LoadedExtension | None = None) -> None:
        """Drop the handlers of ``owner`` (all when None)."""
        for name, entries in self._handlers.items():
            self._handlers[name] = [e for e in entries if owner is not None and e[0] is not owner]


class ScopedEventBus:
    """One extension's handle on the shared :class:`EventBus`."""

    def __init__(self, bus: EventBus, owner: LoadedExtension) -> None:
        self._bus = bus
        self._owner = owner

    def on(self, name: str, handler: Callable[[Any], Any]) -> Callable[[], None]:
        """Subscribe to ``name``; returns an unsubscribe function."""
        return self._bus.on(self._owner, name, handler)

    def emit(self, name: str, data: Any = None) -> None:
        """Send ``data`` to every extension listening to ``name``."""
        self._bus.emit(name, data)


async def _guard(runtime: ExtensionRuntime, owner: LoadedExtension, what: str, awaitable: Any) -> None:
    try:
        await runtime.runner.call(awaitable)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        runtime.runner.fail(owner, what, exc)


class ExtensionAPI:
    """The ``pi`` object of one extension (module docstring). ``name``/``path``: the extension's."""

    def __init__(self, runtime: ExtensionRuntime, extension: LoadedExtension) -> None:
        self._runtime = runtime
        self._extension = extension
        self.events = runtime.events.scoped(extension)

    @property
    def name(self) -> str:
        """The extension's name (file stem or package folder)."""
        return self._extension.name

    @property
    def path(self) -> str:
        """The extension's entry file."""
        return self._extension.path

    @property
    def _host(self) -> Any:
        return self._runtime.host

    # ------------------------------------------------------------------ registration

    def on(self, event: str, handler: Callable[..., Any]) -> None:
        """Call ``handler(event, ctx)`` (or ``handler(event)``), sync or async, for ``event`` (one of
        :data:`~pi_tui.coding.extensions.events.EXTENSION_EVENTS`); see ``events.py`` for payloads and
        results. Raises ``ValueError`` for an unknown event."""
        self._extension.add_handler(event, handler)
        self._runtime.runner.handlers_changed()

    def register_tool(
        self,
        name: str,
        description: str = "",
        parameters: type[BaseModel] | dict[str, Any] | None = None,
        execute: Callable[..., Any] | None = None,
        *,
        label: str = "",
        prompt_snippet: str | None = None,
        prompt_guidelines: Sequence[str] | None = None,
        render_call: RenderCall | None = None,
        render_result: RenderResult | None = None,
        execution_mode: str | None = None,
        prepare_arguments: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        """Add a tool the model can call (``tools.py`` has the ``execute`` contract). A tool named like a
        built-in replaces it (pi's tool override; the built-in's look is kept unless ``render_*`` are
        given). New tools are active at once unless a ``--tools`` allow-list leaves them out.
        ``prompt_snippet``: one line under "Available tools"; ``prompt_guidelines``: bullets added to the
        guidelines while the tool is active (name the tool in each: they are listed without it).
        ``render_call(args, ctx)``/``render_result(result, ctx)``: custom transcript rendering
        (``registries.RenderContext``). Raises ``ValueError`` for a bad name, schema or ``execute``."""
        if execute is None:
            raise ValueError(f"Tool {name}: execute is required")
        tool = make_extension_tool(
            name=name,
            description=description,
            parameters=parameters,
            execute=execute,
            label=label,
            prompt_snippet=prompt_snippet,
            prompt_guidelines=prompt_guidelines,
            execution_mode=execution_mode,
            prepare_arguments=prepare_arguments,
            owner=self.name,
            context=self._runtime.context,
        )
        self._runtime.add_tool(self._extension, tool)
        if render_call is not None or render_result is not None:
            self._runtime.renderers.register_tool(
                ToolRendererSpec(name, render_call=render_call, render_result=render_result, owner=self.path)
            )

    def register_command(
        self,
        name: str,
        handler: Callable[[str, Any], Any],
        description: str = "",
        completions: Callable[[str], list[str]] | None = None,
        *,
        usage: str = "",
    ) -> None:
        """Add the slash command ``/name``: ``handler(args, ctx)`` (sync or async) gets the text after the
        name and an :class:`~pi_tui.coding.extensions.context.ExtensionCommandContext`;
        ``completions(prefix)`` lists argument completions. When another extension already has the name,
        both stay, as ``/name:1`` and ``/name:2`` in load order (pi). Raises ``ValueError`` for a name a
        built-in command, template or skill has."""
        self._runtime.add_command(self._extension, name.lstrip("/"), handler, description, completions, usage)

    def register_shortcut(self, key: str, handler: Callable[[Any], Any], description: str = "") -> None:
        """Bind ``key`` (``"ctrl+shift+p"``, ``"f5"``) to ``handler(ctx)`` in the TUI. Raises ``ValueError``
        when the key is taken by another extension."""
        runtime = self._runtime
        owner = self._extension

        async def run(_ctx: Any = None) -> None:
            await runtime.run_guarded(owner, f"shortcut:{key}", lambda: handler(runtime.command_context()))

        runtime.shortcuts.register(ShortcutSpec(key=key, handler=run, description=description, owner=self.path))

    def register_flag(
        self, name: str, description: str = "", type: str = "boolean", default: bool | str | None = None
    ) -> None:
        """Declare the command-line flag ``--name`` (``type`` ``"boolean"`` or ``"string"``); read it with
        :meth:`get_flag`. Raises ``ValueError`` for a bad or taken name."""
        self._runtime.flags.register(
            FlagSpec(name=name.lstrip("-"), description=description, type=type, default=default, owner=self.path)
        )

    def get_flag(self, name: str) -> bool | str | None:
        """The value of ``--name`` (given, else its default, else None)."""
        return self._runtime.flags.get(name.lstrip("-"))

    def register_message_renderer(self, custom_type: str, render: RenderMessage) -> None:
        """Render ``custom`` messages of ``custom_type`` (``send_message``) in the transcript:
        ``render(message, ctx)`` gets the message (``custom_type``, ``content``, ``details``) and a
        ``registries.MessageRenderContext`` (``expanded``) and returns a ``str`` or a Rich renderable (None,
        or a raise: the default look)."""
        self._runtime.renderers.register_message(MessageRendererSpec(custom_type, render, owner=self.path))

    # ------------------------------------------------------------------ messages and entries

    def send_message(self, message: dict[str, Any] | Any, *, deliver_as: str = "steer",
                     trigger_turn: bool = False) -> None:
        """Add a ``custom`` message ``{"custom_type", "content", "display"?, "details"?}`` that the model
        sees as a user message. ``deliver_as``: ``"steer"`` (while running: after the current tool batch;
        idle: appended now), ``"follow_up"`` (while running: when the agent would stop), ``"next_turn"``
        (sent with the next user prompt). ``trigger_turn``: when idle, start a run for it (steer and
        follow_up only). Raises ``ValueError`` for an unknown delivery."""
        if deliver_as not in DELIVERY:
            raise ValueError(f"deliver_as must be steer, follow_up or next_turn, not {deliver_as!r}")
        self._host.send_custom_message(_custom_message(message), DELIVERY[deliver_as], trigger_turn)

    def send_user_message(self, content: str | list[Any], *, deliver_as: str | None = None) -> None:
        """Send a user message as if typed: idle, it starts a run; while running it needs ``deliver_as``
        ``"steer"`` or ``"follow_up"`` (``RuntimeError`` without one, as pi)."""
        if deliver_as is not None and DELIVERY.get(deliver_as) not in ("steer", "follow_up"):
            raise ValueError(f"deliver_as must be steer or follow_up, not {deliver_as!r}")
        self._host.send_user_message(content, DELIVERY[deliver_as] if deliver_as else None)

    def append_entry(self, custom_type: str, data: Any = None) -> str:
        """Persist ``data`` (JSON-serialisable) as a ``custom`` session entry, never sent to the model;
        read it back from ``ctx.session_manager.get_entries()``. Returns the entry id."""
        return str(self._host.append_custom_entry(custom_type, data))

    def notify(self, text: str, level: str = "info") -> None:
        """Add a UI-only notification (``info``/``warning``/``error``) to the transcript and session file;
        never sent to a provider."""
        self._host.notify(level if level in ("info", "warning", "error") else "info", str(text))

    def post_artifact(self, title: str, content: str, kind: str = "text", *, language: str | None = None,
                      path: str | None = None) -> None:
        """Add a UI-only artifact (``kind``: markdown|code|diff|text|image) to the transcript; never sent to
        a provider."""
        self._host.add_artifact(title, kind, content, language, path)

    def set_status(self, key: str, text: str | None) -> None:
        """Set (or clear with None) the footer status segment ``key`` (same as ``ctx.ui.set_status``)."""
        self._runtime.guarded_ui.set_status(key, text)

    # ------------------------------------------------------------------ tools, model, thinking

    def get_active_tools(self) -> list[str]:
        """Names of the tools the model sees."""
        return list(self._host.active_tool_names())

    def get_all_tools(self) -> list[dict[str, Any]]:
        """Every tool: ``{"name", "description", "parameters", "source"}`` (``source``: ``"builtin"`` or the
        owning extension's name)."""
        return [
            {"name": t.name, "description": t.description, "parameters": t.parameters,
             "source": getattr(t, "owner", "") or "builtin"}
            for t in self._host.all_tools()
        ]

    def set_active_tools(self, names: Sequence[str]) -> None:
        """Make exactly ``names`` active (unknown names are ignored); the system prompt follows."""
        self._host.set_active_tools(list(names))

    def set_model(self, model: Any) -> bool:
        """Switch to ``model`` (a Model or ``"provider/id"``); False when unknown or without a key."""
        return bool(self._host.set_model(model))

    def get_thinking_level(self) -> str:
        """``off|minimal|low|medium|high|xhigh``."""
        return str(self._host.get_thinking_level())

    def set_thinking_level(self, level: str) -> None:
        """Set the thinking level (clamped to the model)."""
        self._host.set_thinking_level(level)

    def get_session_name(self) -> str | None:
        """The session's display name, or None."""
        name = self._host.get_session_name()
        return None if name is None else str(name)

    def set_session_name(self, name: str) -> None:
        """Set the session's display name."""
        self._host.set_session_name(name)

    def register_provider(self, name: str, config: Mapping[str, Any]) -> None:
        """pi's ``registerProvider``: add provider ``name`` with its models, or override an existing one's
        ``baseUrl``/``headers``/``apiKey``. ``config``: models.json's provider shape (camelCase or snake_case
        keys) plus ``stream_simple`` (``streamSimple``), a ``(model, context, options) ->
        AssistantMessageEventStream`` for a custom ``api``. Queued during ``activate``, at once afterwards
        (``providers.py``); raises ``ValueError`` for an invalid config after loading."""
        self._runtime.providers.register(self._extension, name, config)

    def unregister_provider(self, name: str) -> None:
        """pi's ``unregisterProvider``: remove ``name`` and restore what it overrode."""
        self._runtime.providers.unregister(self._extension, name)

    def get_commands(self) -> list[dict[str, Any]]:
        """The commands a prompt may invoke (RPC ``get_commands``): extension commands, then templates,
        then skills: ``{"name", "description", "source", "sourceInfo": {"path"}}``."""
        return self._runtime.invocable_commands()

    # ------------------------------------------------------------------ processes

    async def exec(
        self,
        command: str,
        args: Sequence[str] = (),
        *,
        cwd: str | None = None,
        timeout_ms: int | None = None,
        signal: Any = None,
        env: Mapping[str, str] | None = None,
    ) -> ExecResult:
        """Run ``command`` with ``args`` (no shell) in ``cwd`` (default the session's) and capture its
        output. ``env``: variables set on top of the app's environment (e.g. ``GIT_INDEX_FILE``).
        ``timeout_ms`` (pi's ``timeout``) and ``signal`` (an AbortSignal) kill it (``killed=True``). A command
        that cannot start gives ``code=-1`` and the reason in ``stderr``."""
        try:
            process = await asyncio.create_subprocess_exec(
                command, *[str(a) for a in args],
                cwd=cwd or self._host.cwd,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env={**os.environ, **{str(k): str(v) for k, v in (env or {}).items()}},
            )
        except OSError as exc:
            return ExecResult("", f"{command}: {exc.strerror or exc}", -1)
        killed = False

        def kill() -> None:
            nonlocal killed
            killed = True
            with contextlib.suppress(ProcessLookupError):
                process.kill()

        remove = None
        if signal is not None and hasattr(signal, "add_listener"):
            remove = signal.add_listener(kill)
        try:
            stdout, stderr = await asyncio.wait_for(process.communicate(), timeout_ms / 1000 if timeout_ms else None)
        except TimeoutError:
            kill()
            stdout, stderr = await process.communicate()
        finally:
            if callable(remove):
                remove()
        return ExecResult(
            stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace"),
            process.returncode if process.returncode is not None else -1, killed,
        )


def _custom_message(message: Any) -> Any:
    from pi_tui.coding.messages import CustomMessage

    if isinstance(message, CustomMessage):
        return message
    if not isinstance(message, dict):
        raise ValueError("send_message takes a dict {'custom_type', 'content', 'display'?, 'details'?}")
    data = dict(message)
    if "customType" in data:
        data["custom_type"] = data.pop("customType")
    if not data.get("custom_type"):
        raise ValueError("send_message: 'custom_type' is required")
    data.setdefault("content", "")
    return CustomMessage.model_validate({k: v for k, v in data.items() if k != "role"})


def command_spec(
    name: str, handler: Callable[[str, Any], Any], description: str, owner: str,
    completions: Callable[[str], list[str]] | None, usage: str,
) -> CommandSpec:
    """The registry entry of an extension command (``source="extension"``)."""
    return CommandSpec(name=name, description=description, handler=handler, usage=usage, source="extension",
                       owner=owner, get_argument_completions=completions)
