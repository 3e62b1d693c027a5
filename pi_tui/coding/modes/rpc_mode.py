"""RPC mode (``--mode rpc``): JSON Lines commands on stdin, responses and events on stdout (pi-reference §3.19).

Framing: stdin is read as bytes and split on LF only (a trailing CR is dropped; U+2028/U+2029 inside a
JSON string never split a command). Each command may carry ``id``; its response echoes it:
``{"id"?, "type":"response", "command", "success":true, "data"?}`` or ``{…, "success":false, "error"}``.
Unparseable input → ``command:"parse"``. Every session event is written as a line without ``id``.
Commands run as tasks, so ``steer``/``abort`` are served while a ``prompt`` runs; ``prompt`` answers once the
prompt is accepted (preflight); a later failure is a second response with the same id (as in pi), and a
prompt that arrives while one is accepted but not yet streaming is refused (or queued with
``streamingBehavior``). ``message`` must be a string. The process exits when stdin closes
(after the running prompt settles). Extensions talk to the client through pi's extension-UI sub-protocol
(``rpc_extension_ui.py``: ``extension_ui_request`` lines out, ``extension_ui_response`` lines in, answered
at once even while other commands wait for the extensions to load); their failures are ``extension_error``
lines; ``get_commands`` lists extension commands, prompt templates and skills (pi).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from pi_tui.coding.extensions.registries import CommandRegistry
from pi_tui.coding.messages import message_to_json
from pi_tui.coding.modes import rpc_tree
from pi_tui.coding.modes.json_mode import JsonLineWriter
from pi_tui.coding.modes.rpc_commands import rpc_commands
from pi_tui.coding.modes.rpc_extension_ui import RpcExtensionUI

Handler = Callable[[Any, dict[str, Any]], Awaitable[Any]]


def split_lf_lines(buffer: bytearray) -> list[bytes]:
    """Take every complete LF-terminated line out of ``buffer`` (trailing CR removed)."""
    lines: list[bytes] = []
    while True:
        index = buffer.find(b"\n")
        if index < 0:
            return lines
        line = bytes(buffer[:index])
        del buffer[: index + 1]
        if line.endswith(b"\r"):
            line = line[:-1]
        lines.append(line)


class RpcServer:
    """Dispatches RPC commands to an AgentSession and writes responses/events with ``writer``."""

    def __init__(self, session: Any, writer: JsonLineWriter) -> None:
        self.session = session
        self.writer = writer
        self._tasks: set[asyncio.Task[None]] = set()
        self._prompt_tasks: set[asyncio.Task[None]] = set()
        self._aborts = 0  # abort commands served (a prompt accepted before one is stopped by it: _run_prompt)
        self._switching = 0
        self.extension_ui = RpcExtensionUI(writer.write)
        self.ready: asyncio.Future[None] | None = None
        session.subscribe(self._forward)
        self._handlers: dict[str, Handler] = {
            "prompt": RpcServer._prompt,
            "steer": RpcServer._steer,
            "follow_up": RpcServer._follow_up,
            "abort": RpcServer._abort,
            "new_session": RpcServer._new_session,
            "get_state": RpcServer._get_state,
            "set_model": RpcServer._set_model,
            "cycle_model": RpcServer._cycle_model,
            "get_available_models": RpcServer._get_available_models,
            "set_thinking_level": RpcServer._set_thinking_level,
            "cycle_thinking_level": RpcServer._cycle_thinking_level,
            "set_steering_mode": RpcServer._set_steering_mode,
            "set_follow_up_mode": RpcServer._set_follow_up_mode,
            "compact": RpcServer._compact,
            "set_auto_compaction": RpcServer._set_auto_compaction,
            "set_auto_retry": RpcServer._set_auto_retry,
            "abort_retry": RpcServer._abort_retry,
            "bash": RpcServer._bash,
            "abort_bash": RpcServer._abort_bash,
            "get_session_stats": RpcServer._get_session_stats,
            "export_html": RpcServer._export_html,
            "switch_session": RpcServer._switch_session,
            "fork": RpcServer._fork,
            "clone": RpcServer._clone,
            "get_fork_messages": RpcServer._get_fork_messages,
            "get_last_assistant_text": RpcServer._get_last_assistant_text,
            "set_session_name": RpcServer._set_session_name,
            "get_messages": RpcServer._get_messages,
            "get_commands": RpcServer._get_commands,
            "get_session_tree": lambda server, command: rpc_tree.get_session_tree(server.session, command),
            "navigate_tree": lambda server, command: rpc_tree.navigate_tree(server.session, command),
        }

    # ------------------------------------------------------------------ framing

    def _forward(self, event: Any) -> None:
        """Write a session event, except the state events that pi 0.73.1 does not send while a session is
        replaced (``new_session``, ``switch_session``, ``fork``, ``clone``: pi builds a new AgentSession and
        sends nothing; a client reads the new state with ``get_state``). Measured with pi's RpcClient."""
        if self._switching and _event_type(event) in SWITCH_QUIET_EVENTS:
            return
        self.writer.write(event)

    @contextlib.contextmanager
    def _replacing_session(self) -> Iterator[None]:
        self._switching += 1
        try:
            yield
        finally:
            self._switching -= 1

    def _respond(self, command: str, request_id: Any, data: Any = None, error: str | None = None,
                 with_data: bool = True) -> None:
        response: dict[str, Any] = {}
        if request_id is not None:
            response["id"] = request_id
        response.update({"type": "response", "command": command, "success": error is None})
        if error is not None:
            response["error"] = error
        elif with_data and data is not None:
            response["data"] = data
        self.writer.write(response)

    def handle_line(self, line: bytes) -> None:
        """Parse one input line and start its command (empty lines are ignored)."""
        if not line.strip():
            return
        try:
            command = json.loads(line.decode("utf-8"))
            if not isinstance(command, dict) or not isinstance(command.get("type"), str):
                raise ValueError("a command must be a JSON object with a string 'type'")
        except (ValueError, UnicodeDecodeError) as exc:
            self._respond("parse", None, error=f"Failed to parse command: {exc}")
            return
        if command["type"] == "extension_ui_response":
            self.extension_ui.handle_response(command)  # no response line (pi)
            return
        task = asyncio.get_running_loop().create_task(self._dispatch(command))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _dispatch(self, command: dict[str, Any]) -> None:
        if self.ready is not None:
            await asyncio.shield(self.ready)  # extensions load before the first command runs
        kind = command["type"]
        request_id = command.get("id")
        handler = self._handlers.get(kind)
        if handler is None:
            self._respond(kind, request_id, error=f"Unknown command: {kind}")
            return
        try:
            result = await handler(self, command)
        except Exception as exc:
            self._respond(kind, request_id, error=str(exc) or type(exc).__name__)
            return
        if result is not _NO_RESPONSE:
            self._respond(kind, request_id, result)

    async def drain(self) -> None:
        """Wait for every running command (used at EOF)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        await self.session.wait_for_idle()

    # ------------------------------------------------------------------ commands

    async def _prompt(self, command: dict[str, Any]) -> Any:
        session = self.session
        text = _message_text(command)
        images = _images(command.get("images"))
        behavior = command.get("streamingBehavior")
        if session.is_streaming or self._prompt_tasks:
            # a prompt accepted a moment ago may not be streaming yet: it still counts as running
            if behavior is None:
                from pi_tui.coding.agent_session import ALREADY_STREAMING

                raise RuntimeError(ALREADY_STREAMING)
            if behavior in ("followUp", "follow_up"):
                await session.follow_up(text, images)
            else:
                await session.steer(text, images)
            return None
        model = session.model
        if model is None:
            from pi_tui.coding.agent_session.settings import no_model_message

            raise RuntimeError(no_model_message())
        if not session.models.has_auth(model):
            raise RuntimeError(f"No API key found for {model.provider}.")
        self._respond("prompt", command.get("id"))
        task = asyncio.get_running_loop().create_task(
            self._run_prompt(text, images, command.get("id"), aborts_at_accept=self._aborts)
        )
        self._prompt_tasks.add(task)
        task.add_done_callback(self._prompt_tasks.discard)
        await task
        return _NO_RESPONSE

    async def _run_prompt(self, text: str, images: list[Any] | None, request_id: Any = None,
                          aborts_at_accept: int | None = None) -> None:
        """Run an accepted prompt. An ``abort`` served after the prompt was accepted and before this task began
        (``aborts_at_accept`` < the abort count) stops it too: the prompt starts and is aborted at once, so it
        ends aborted with its ``agent_end`` (new-user run #36: the abort was answered and the reply streamed on)."""
        from pi_tui.coding.extensions.session_hooks import prompt_source

        try:
            with prompt_source("rpc"):  # extensions' input event: source "rpc" (pi)
                if aborts_at_accept is None or aborts_at_accept == self._aborts:
                    await self.session.prompt(text, images)
                else:
                    run = asyncio.ensure_future(self.session.prompt(text, images))
                    await asyncio.sleep(0)  # the prompt has begun (its stop mark is taken): now stop it
                    await self.session.abort()
                    await run
        except Exception as exc:  # accepted already: a second response for the same id, as pi does
            self._respond("prompt", request_id, error=str(exc) or type(exc).__name__)

    async def _steer(self, command: dict[str, Any]) -> Any:
        await self.session.steer(_message_text(command), _images(command.get("images")))

    async def _follow_up(self, command: dict[str, Any]) -> Any:
        await self.session.follow_up(_message_text(command), _images(command.get("images")))

    async def _abort(self, command: dict[str, Any]) -> Any:
        self._aborts += 1  # a prompt accepted but not begun yet is stopped too (_run_prompt)
        await self.session.abort()

    async def _new_session(self, command: dict[str, Any]) -> Any:
        with self._replacing_session():
            await self.session.new_session()
        return {"cancelled": False}

    async def _get_state(self, command: dict[str, Any]) -> Any:
        session = self.session
        model = session.model
        state: dict[str, Any] = {
            "model": model.to_json_dict() if model is not None else None,
            "thinkingLevel": session.thinking_level,
            "isStreaming": session.is_streaming,
            "isCompacting": session.is_compacting,
            "steeringMode": session.agent.steering_mode,
            "followUpMode": session.agent.follow_up_mode,
            "sessionFile": session.session_file,
            "sessionId": session.session_id,
            "autoCompactionEnabled": session.settings.compaction.enabled,
            "messageCount": len(session.messages),
            "pendingMessageCount": session.pending_message_count,
        }
        if session.session_name:
            state["sessionName"] = session.session_name
        mcp = getattr(session, "mcp", None)
        servers = mcp.state() if mcp is not None else []
        if servers:  # pi-tui, only when servers are configured (pi's state otherwise): DIFFERENCES M1
            state["mcpServers"] = servers
        return state

    async def _set_model(self, command: dict[str, Any]) -> Any:
        provider, model_id = str(command.get("provider", "")), str(command.get("modelId", ""))
        model = self.session.models.find(provider, model_id)
        if model is None:
            raise ValueError(f"Model not found: {provider}/{model_id}")
        self.session.set_model(model)
        return model.to_json_dict()

    async def _cycle_model(self, command: dict[str, Any]) -> Any:
        result = self.session.cycle_model(command.get("direction", "forward"))
        if result is None:
            return _NULL
        return {"model": result["model"].to_json_dict(), "thinkingLevel": result["thinking_level"],
                "isScoped": result["is_scoped"]}

    async def _get_available_models(self, command: dict[str, Any]) -> Any:
        return {"models": [m.to_json_dict() for m in self.session.available_models()]}

    async def _set_thinking_level(self, command: dict[str, Any]) -> Any:
        from pi_tui.ai.types import THINKING_LEVELS

        level = _string_field(command, "level")
        if level not in THINKING_LEVELS:
            raise ValueError(f"Invalid thinking level {level!r} (expected one of: {', '.join(THINKING_LEVELS)})")
        self.session.set_thinking_level(level)

    async def _cycle_thinking_level(self, command: dict[str, Any]) -> Any:
        level = self.session.cycle_thinking_level()
        return _NULL if level is None else {"level": level}

    async def _set_steering_mode(self, command: dict[str, Any]) -> Any:
        mode = _queue_mode(command.get("mode"))
        self.session.agent.steering_mode = mode
        self._save_queue_mode("set_steering_mode", mode)

    async def _set_follow_up_mode(self, command: dict[str, Any]) -> Any:
        mode = _queue_mode(command.get("mode"))
        self.session.agent.follow_up_mode = mode
        self._save_queue_mode("set_follow_up_mode", mode)

    def _save_queue_mode(self, setter: str, mode: str) -> None:
        """Save the mode to settings.json (``steeringMode``/``followUpMode``), as pi 0.73.1's
        ``AgentSession.setSteeringMode``/``setFollowUpMode`` do; a session without a settings manager (SDK,
        tests) saves nothing. A failed save becomes the session's warning notice, the mode stays set."""
        manager = getattr(self.session, "settings_manager", None)
        if manager is None:
            return
        getattr(manager, setter)(mode)
        for error in manager.drain_errors():
            self.session.notify("warning", error)

    async def _compact(self, command: dict[str, Any]) -> Any:
        return await self.session.compact(command.get("customInstructions"))

    async def _set_auto_compaction(self, command: dict[str, Any]) -> Any:
        self.session.set_auto_compaction_enabled(bool(command.get("enabled")))

    async def _set_auto_retry(self, command: dict[str, Any]) -> Any:
        self.session.set_auto_retry_enabled(bool(command.get("enabled")))

    async def _abort_retry(self, command: dict[str, Any]) -> Any:
        self.session.abort_retry()

    async def _bash(self, command: dict[str, Any]) -> Any:
        result = await self.session.execute_bash(_string_field(command, "command"))
        return result.to_json_dict()

    async def _abort_bash(self, command: dict[str, Any]) -> Any:
        self.session.abort_bash()

    async def _get_session_stats(self, command: dict[str, Any]) -> Any:
        return self.session.get_session_stats()

    async def _export_html(self, command: dict[str, Any]) -> Any:
        return {"path": self.session.export_html(command.get("outputPath"))}

    async def _switch_session(self, command: dict[str, Any]) -> Any:
        path = _string_field(command, "sessionPath")
        with self._replacing_session():
            await self.session.switch_session(path)
        return {"cancelled": False}

    async def _fork(self, command: dict[str, Any]) -> Any:
        entry_id = str(command.get("entryId", ""))
        with self._replacing_session():
            return await self.session.fork(entry_id)

    async def _clone(self, command: dict[str, Any]) -> Any:
        with self._replacing_session():
            return await self.session.clone()

    async def _get_fork_messages(self, command: dict[str, Any]) -> Any:
        return {"messages": self.session.get_fork_messages()}

    async def _get_last_assistant_text(self, command: dict[str, Any]) -> Any:
        return {"text": self.session.get_last_assistant_text()}

    async def _set_session_name(self, command: dict[str, Any]) -> Any:
        self.session.set_session_name(_string_field(command, "name"))

    async def _get_messages(self, command: dict[str, Any]) -> Any:
        return {"messages": [message_to_json(m) for m in self.session.messages]}

    async def _get_commands(self, command: dict[str, Any]) -> Any:
        """The session's extension commands, prompt templates and skills in pi's shape (``rpc_commands``)."""
        registry = getattr(self.session, "commands", None)
        return {"commands": rpc_commands(registry if isinstance(registry, CommandRegistry) else None)}

    async def start_extensions(self) -> None:
        """Load the session's extensions with the RPC UI; commands wait until it is done."""
        from pi_tui.coding.extensions.modes import extension_error_event, start_mode_extensions

        self.ready = asyncio.get_running_loop().create_future()
        try:
            await start_mode_extensions(
                self.session, ui=self.extension_ui, on_error=lambda e: self.writer.write(extension_error_event(e))
            )
            if getattr(self.session, "model_error", None):  # a --model no extension's provider has
                print(f"Error: {self.session.model_error}", file=sys.stderr)
        finally:
            self.ready.set_result(None)


class _Sentinel:
    pass


_NO_RESPONSE: Any = _Sentinel()
_NULL: Any = None


def _string_field(command: dict[str, Any], key: str) -> str:
    """``command[key]`` when it is a string; else ``ValueError`` naming the command and the field (a number or
    a missing field is never turned into text and run, e.g. ``{"type": "bash", "command": 5}``)."""
    value = command.get(key)
    if not isinstance(value, str):
        got = "missing" if value is None else f"got {type(value).__name__}"
        raise ValueError(f"{command.get('type')} needs a string '{key}' ({got})")
    return value


def _message_text(command: dict[str, Any]) -> str:
    """The ``message`` of a prompt/steer/follow_up command; raises ``ValueError`` unless it is a string."""
    return _string_field(command, "message")


def _images(raw: Any) -> list[Any] | None:
    if not raw:
        return None
    from pydantic import ValidationError

    from pi_tui.ai.types import ImageContent

    if not isinstance(raw, list):
        raise ValueError("'images' must be a list of {type: 'image', data: <base64>, mimeType}")
    images = []
    for index, item in enumerate(raw):
        try:
            images.append(ImageContent.model_validate(item))
        except ValidationError as exc:
            fields = ", ".join(sorted({".".join(str(p) for p in e["loc"]) or "value" for e in exc.errors()}))
            raise ValueError(
                f"images[{index}] is not an image {{type: 'image', data: <base64>, mimeType}} (bad or missing: {fields})"
            ) from None
    return images


def _queue_mode(mode: Any) -> Any:
    """A steering/follow-up mode, checked (pi 0.73.1 stores any value: DIFFERENCES.md D12)."""
    if mode not in ("all", "one-at-a-time"):
        shown = "missing" if mode is None else json.dumps(mode)
        raise ValueError(f"Invalid mode: {shown} (expected 'all' or 'one-at-a-time')")
    return mode


SWITCH_QUIET_EVENTS = frozenset({"queue_update", "session_info_changed", "model_changed", "thinking_level_changed"})
"""Session events not written while ``new_session``/``switch_session``/``fork``/``clone`` run (pi sends none)."""


def _event_type(event: Any) -> Any:
    return event.get("type") if isinstance(event, dict) else getattr(event, "type", None)


async def _serve(options: dict[str, Any]) -> int:
    from pi_tui.coding.agent_session.factory import create_agent_session

    writer = JsonLineWriter()
    sys.stdout = sys.stderr  # stdout carries only protocol lines; stray prints go to stderr
    try:
        session = create_agent_session(**options)
    except Exception as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    server = RpcServer(session, writer)
    mcp = getattr(session, "mcp", None)
    if mcp is not None:
        mcp.start()  # MCP servers connect in the background; get_state reports them (issue 13)
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[bytes | None] = asyncio.Queue()

    def reader() -> None:
        stream = sys.stdin.buffer
        buffer = bytearray()
        while True:
            try:
                chunk = stream.read1(65536) if hasattr(stream, "read1") else stream.read(1)
            except (OSError, ValueError):
                chunk = b""
            if not chunk:
                break
            buffer.extend(chunk)
            for line in split_lf_lines(buffer):
                loop.call_soon_threadsafe(queue.put_nowait, line)
        if buffer.strip():
            loop.call_soon_threadsafe(queue.put_nowait, bytes(buffer).rstrip(b"\r"))
        loop.call_soon_threadsafe(queue.put_nowait, None)

    threading.Thread(target=reader, name="rpc-stdin", daemon=True).start()
    startup = loop.create_task(server.start_extensions())  # dialogs of session_start get their answers
    while True:
        line = await queue.get()
        if line is None:
            break
        server.handle_line(line)
    with contextlib.suppress(Exception):
        await startup
        await server.drain()
    from pi_tui.coding.extensions.modes import stop_mode_extensions

    with contextlib.suppress(Exception):
        await stop_mode_extensions(session)
    return 0


def run_rpc_mode(options: dict[str, Any]) -> int:
    """Serve RPC on stdin/stdout until stdin closes; returns the exit code."""
    try:
        return asyncio.run(_serve(options))
    except KeyboardInterrupt:
        return 130
