"""The extension runner: dispatches each event to the extensions' handlers in load order and combines
their results as pi does (pi docs/extensions.md "Events"; pi-reference §3.20).

Isolation. A handler that raises, times out or returns something its event does not accept never breaks
the run: the runner reports one :class:`ExtensionError` (extension name and file, event, error) through
``on_error`` and goes on with the next handler. The same failure (extension, event, message) is reported
once per user prompt, not once per streamed token. A failing ``tool_call`` handler blocks the call
(fail-safe, as pi).

Timeouts. An async handler gets ``timeout`` seconds (default :data:`DEFAULT_HANDLER_TIMEOUT`); time spent
waiting for the user in a dialog (``ctx.ui.confirm`` and the like, see :meth:`ExtensionRunner.dialog`)
does not count, so a permission gate may wait for its answer. A sync handler runs to its end on the event
loop (keep them short).

Handlers are ``handler(event, ctx)`` or ``handler(event)``; either may be ``async`` (a second parameter with a
default, other than ``ctx``/``context``, is not given the context: ``lambda event, name=name: ...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
import types
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, fields, is_dataclass
from types import ModuleType
from typing import Any

from pi_tui.coding.extensions.events import (
    EXTENSION_EVENTS,
    BeforeAgentStartEvent,
    ContextEvent,
    InputEvent,
    ToolCallEvent,
    ToolResultEvent,
)

log = logging.getLogger(__name__)

DEFAULT_HANDLER_TIMEOUT = 30.0
"""Seconds an async handler may run (dialog time excluded) before it is abandoned and reported."""

Handler = Callable[..., Any]


@dataclass
class ExtensionError:
    """One failure of an extension: ``extension`` (its name), ``path`` (its file), ``event`` (the event
    name, or ``"activate"``, ``"load"``, ``"command:NAME"``, ``"shortcut:KEY"``, ``"tool:NAME"``), ``error``
    (one line). ``text`` is the message shown to the user."""

    extension: str
    path: str
    event: str
    error: str

    @property
    def text(self) -> str:
        """``Extension "name" failed on event: error (path)``."""
        return f'Extension "{self.extension}" failed on {self.event}: {self.error} ({self.path})'


@dataclass
class LoadedExtension:
    """One extension: ``name`` (file stem or folder name), ``path``, its handlers per event (load order
    within the extension), the imported ``module`` and its ``pi`` API object."""

    name: str
    path: str
    handlers: dict[str, list[tuple[Handler, bool]]] = field(default_factory=dict)
    module: ModuleType | None = None
    api: Any = None

    def add_handler(self, event: str, handler: Handler) -> None:
        """Subscribe ``handler`` to ``event``; raises ``ValueError`` for an unknown event name and
        ``TypeError`` for something that is not callable."""
        if event not in EXTENSION_EVENTS:
            raise ValueError(f"Unknown event {event!r}; known: {', '.join(EXTENSION_EVENTS)}")
        if not callable(handler):
            raise TypeError(f"Handler for {event} is not callable: {handler!r}")
        self.handlers.setdefault(event, []).append((handler, _takes_context(handler)))


def _takes_context(handler: Handler) -> bool:
    """Whether ``handler`` wants ``ctx``: a second positional parameter without a default, or one named
    ``ctx``/``context`` (``lambda event, name=name: ...``, the loop-variable idiom, gets only the event)."""
    try:
        params = list(inspect.signature(handler).parameters.values())
    except (TypeError, ValueError):
        return True
    if any(p.kind is p.VAR_POSITIONAL for p in params):
        return True
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 2:
        return False
    second = positional[1]
    return second.default is second.empty or second.name.lstrip("_") in ("ctx", "context")


def _error_text(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Garbage(Exception):
    """A handler returned a value its event does not accept."""


def _get(result: Any, *names: str) -> Any:
    """``result[name]`` / ``result.name`` for the first name present (snake_case, then pi's camelCase)."""
    for name in names:
        if isinstance(result, dict):
            if name in result:
                return result[name]
        elif hasattr(result, name):
            return getattr(result, name)
    return None


def _has(result: Any, name: str, *more: str) -> bool:
    for key in (name, *more):
        if isinstance(result, dict):
            if key in result:
                return True
        elif is_dataclass(result) and key in {f.name for f in fields(result)}:
            return getattr(result, key) is not None
    return False


def _is_record(result: Any) -> bool:
    return isinstance(result, dict) or (is_dataclass(result) and not isinstance(result, type))


class ExtensionRunner:
    """Runs handlers (module docstring). ``on_error(error)`` receives every failure; ``context_factory()``
    builds the ``ctx`` passed to handlers (None until the session binds one); ``timeout`` in seconds."""

    def __init__(
        self,
        *,
        on_error: Callable[[ExtensionError], None] | None = None,
        context_factory: Callable[[], Any] | None = None,
        timeout: float = DEFAULT_HANDLER_TIMEOUT,
    ) -> None:
        self.extensions: list[LoadedExtension] = []
        self.on_error = on_error
        self.context_factory = context_factory
        self.timeout = timeout
        self._reported: set[tuple[str, str, str]] = set()
        self._dialogs_open = 0
        self._dialog_started = 0.0
        self._ctx_value: Any = None
        self._scopes: dict[asyncio.Timeout, float] = {}  # running handler timeouts -> their deadlines
        self._counts: dict[str, int] = {}
        self._cache: dict[str, list[tuple[LoadedExtension, Handler, bool]]] = {}
        self.errors: list[ExtensionError] = []

    # ------------------------------------------------------------------ membership

    def add(self, extension: LoadedExtension) -> None:
        """Append ``extension`` (load order)."""
        self.extensions.append(extension)
        self._recount()

    def remove(self, extension: LoadedExtension) -> None:
        """Drop ``extension`` and its handlers."""
        self.extensions = [e for e in self.extensions if e is not extension]
        self._recount()

    def clear(self) -> None:
        """Drop every extension (``/reload``)."""
        self.extensions = []
        self._recount()

    def _recount(self) -> None:
        self._cache = {}
        self._counts = {}
        for ext in self.extensions:
            for event, handlers in ext.handlers.items():
                if handlers:
                    self._counts[event] = self._counts.get(event, 0) + len(handlers)

    def handlers_changed(self) -> None:
        """Call after ``pi.on`` added a handler (the per-event counts behind :meth:`has_handlers`)."""
        self._recount()

    def has_handlers(self, event: str) -> bool:
        """True when some extension listens to ``event`` (the session skips building payloads otherwise)."""
        return event in self._counts

    # ------------------------------------------------------------------ errors

    def report(self, error: ExtensionError) -> None:
        """Record ``error`` and pass it to ``on_error`` once per prompt (see module docstring)."""
        key = (error.path, error.event, error.error)
        if key in self._reported:
            return
        self._reported.add(key)
        self.errors.append(error)
        log.warning("%s", error.text)
        if self.on_error is not None:
            try:
                self.on_error(error)
            except Exception:  # the reporter itself must not break the session
                log.exception("extension error reporter failed")

    def new_prompt(self) -> None:
        """A new user prompt: the same failure may be reported again."""
        self._reported.clear()

    def fail(self, extension: LoadedExtension, event: str, exc: BaseException | str) -> ExtensionError:
        """Report a failure of ``extension`` on ``event``; returns the error."""
        text = exc if isinstance(exc, str) else _error_text(exc)
        error = ExtensionError(extension.name, extension.path, event, text)
        self.report(error)
        return error

    # ------------------------------------------------------------------ dialogs and timeouts

    @contextlib.asynccontextmanager
    async def dialog(self) -> AsyncIterator[None]:
        """Wrap a wait for the user: the running handlers' timeouts are suspended while it lasts and
        extended by its length afterwards."""
        loop = asyncio.get_running_loop()
        if self._dialogs_open == 0:
            self._dialog_started = loop.time()
            for scope in self._scopes:
                scope.reschedule(None)
        self._dialogs_open += 1
        try:
            yield
        finally:
            self._dialogs_open -= 1
            if self._dialogs_open == 0:
                paused = loop.time() - self._dialog_started
                for scope, deadline in list(self._scopes.items()):
                    self._scopes[scope] = deadline + paused
                    scope.reschedule(deadline + paused)

    async def call(self, awaitable: Any) -> Any:
        """Await ``awaitable`` within the handler timeout (dialog time excluded); raises ``TimeoutError``.

        A coroutine is first run up to its first suspension in place: one that never suspends (most
        handlers) is done without a timer or a task. Otherwise the rest runs in an ``asyncio.timeout_at``
        scope (no extra task either)."""
        first: Any = None
        if inspect.iscoroutine(awaitable):
            try:
                first = awaitable.send(None)
            except StopIteration as stop:
                return stop.value
            awaitable = _resume(awaitable, first)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        async with asyncio.timeout_at(None if self._dialogs_open else deadline) as scope:
            self._scopes[scope] = deadline
            try:
                return await awaitable
            except TimeoutError:
                if scope.expired():
                    raise TimeoutError(f"no answer within {self.timeout:g}s") from None
                raise
            finally:
                self._scopes.pop(scope, None)

    async def _run(self, extension: LoadedExtension, handler: Handler, takes_ctx: bool, event_name: str,
                   event: Any, ctx: Any) -> tuple[bool, Any]:
        """``(ok, result)`` of one handler; a failure is reported and gives ``(False, None)``."""
        try:
            result = handler(event, ctx) if takes_ctx else handler(event)
            if inspect.isawaitable(result):
                result = await self.call(result)
            return True, result
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001 - an extension's failure is never the session's
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                self.fail(extension, event_name, f"{type(exc).__name__} raised (ignored)")
            else:
                self.fail(extension, event_name, exc)
            return False, None

    def _ctx(self) -> Any:
        """The handlers' ``ctx`` (made once by ``context_factory``: one object serves every handler)."""
        ctx = self._ctx_value
        if ctx is None and self.context_factory is not None:
            ctx = self._ctx_value = self.context_factory()
        return ctx

    def _handlers(self, event_name: str) -> list[tuple[LoadedExtension, Handler, bool]]:
        cached = self._cache.get(event_name)
        if cached is None:
            cached = self._cache[event_name] = [
                (ext, handler, takes_ctx)
                for ext in self.extensions
                for handler, takes_ctx in ext.handlers.get(event_name, ())
            ]
        return cached

    # ------------------------------------------------------------------ plain events

    async def emit(self, event_name: str, event: Any) -> list[tuple[LoadedExtension, Any]]:
        """Run every handler of ``event_name`` in load order; returns ``(extension, result)`` for the
        handlers that succeeded and returned something other than None. (The hot path of every streamed
        token: the handler call and the first step of a coroutine are inlined here.)"""
        handlers = self._cache.get(event_name)
        if handlers is None:
            handlers = self._handlers(event_name)
        if not handlers:
            return []
        ctx = self._ctx()
        results: list[tuple[LoadedExtension, Any]] = []
        for ext, handler, takes_ctx in handlers:
            try:
                result = handler(event, ctx) if takes_ctx else handler(event)
                if type(result) is _COROUTINE:
                    try:
                        first = result.send(None)
                    except StopIteration as stop:
                        result = stop.value
                    else:
                        result = await self.call(_resume(result, first))
                elif result is not None and inspect.isawaitable(result):
                    result = await self.call(result)
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # noqa: BLE001 - an extension's failure is never the session's
                if isinstance(exc, KeyboardInterrupt | SystemExit):
                    self.fail(ext, event_name, f"{type(exc).__name__} raised (ignored)")
                else:
                    self.fail(ext, event_name, exc)
                continue
            if result is not None:
                results.append((ext, result))
        return results

    def _handler_failed(self, extension: LoadedExtension, event_name: str, exc: BaseException) -> None:
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            self.fail(extension, event_name, f"{type(exc).__name__} raised (ignored)")
        else:
            self.fail(extension, event_name, exc)

    def dispatch(self, event_name: str, event: Any) -> Any:
        """Run the handlers of an event whose results pi ignores (``message_update``, ``turn_end`` ...),
        without a coroutine of its own: returns None when every handler finished at once (sync handlers and
        coroutines that never suspend), else an awaitable that finishes the suspended handler and runs the
        rest. (The hot path of every streamed token.)"""
        handlers = self._cache.get(event_name)
        if handlers is None:
            handlers = self._handlers(event_name)
        if not handlers:
            return None
        ctx = self._ctx()
        coroutine = _COROUTINE
        index = -1
        for ext, handler, takes_ctx in handlers:
            index += 1
            try:
                result = handler(event, ctx) if takes_ctx else handler(event)
                if result is None:
                    continue
                if type(result) is coroutine:
                    try:
                        first = result.send(None)
                    except StopIteration:
                        continue
                    return self._finish_dispatch(event_name, event, handlers, index, _resume(result, first))
                if inspect.isawaitable(result):
                    return self._finish_dispatch(event_name, event, handlers, index, result)
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # noqa: BLE001 - an extension's failure is never the session's
                self._handler_failed(ext, event_name, exc)
        return None

    async def _finish_dispatch(self, event_name: str, event: Any,
                               handlers: list[tuple[LoadedExtension, Handler, bool]], index: int,
                               pending: Any) -> None:
        try:
            await self.call(pending)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001
            self._handler_failed(handlers[index][0], event_name, exc)
        rest = handlers[index + 1:]
        if rest:
            await self._emit_list(event_name, event, rest)

    async def _emit_list(self, event_name: str, event: Any,
                         handlers: list[tuple[LoadedExtension, Handler, bool]]) -> None:
        ctx = self._ctx()
        for ext, handler, takes_ctx in handlers:
            await self._run(ext, handler, takes_ctx, event_name, event, ctx)

    async def emit_notification(self, event_name: str, event: Any) -> None:
        """Run the handlers of an event whose results pi ignores (awaitable form of :meth:`dispatch`)."""
        pending = self.dispatch(event_name, event)
        if pending is not None:
            await pending

    # ------------------------------------------------------------------ events with results

    async def emit_tool_call(self, event: ToolCallEvent) -> tuple[bool, str | None]:
        """``(blocked, reason)``. Handlers see earlier handlers' in-place changes of ``event.input``; the
        first ``block`` wins; a handler that fails blocks the call (fail-safe)."""
        if not self.has_handlers("tool_call"):
            return False, None
        ctx = self._ctx()
        for ext, handler, takes_ctx in self._handlers("tool_call"):
            ok, result = await self._run(ext, handler, takes_ctx, "tool_call", event, ctx)
            if not ok:
                return True, f'Blocked: extension "{ext.name}" failed on tool_call'
            if result is None:
                continue
            if not _is_record(result) or not _has(result, "block", "reason"):
                self.fail(ext, "tool_call", f"returned {_describe(result)}, expected None or {{'block': True}}")
                continue
            if _get(result, "block"):
                reason = _get(result, "reason")
                return True, str(reason) if reason else f'Blocked by extension "{ext.name}"'
        return False, None

    async def emit_tool_result(self, event: ToolResultEvent) -> ToolResultEvent:
        """Chain ``tool_result`` patches (``content``/``details``/``is_error``) onto ``event``; returns it."""
        if not self.has_handlers("tool_result"):
            return event
        ctx = self._ctx()
        for ext, handler, takes_ctx in self._handlers("tool_result"):
            ok, result = await self._run(ext, handler, takes_ctx, "tool_result", event, ctx)
            if not ok or result is None:
                continue
            try:
                content, details, is_error = _tool_result_patch(result)
            except _Garbage as exc:
                self.fail(ext, "tool_result", str(exc))
                continue
            if content is not None:
                event.content = content
            if details is not None:
                event.details = details
            if is_error is not None:
                event.is_error = is_error
        return event

    async def emit_context(self, messages: list[Any]) -> list[Any] | None:
        """Run ``context`` handlers on a deep copy of ``messages``; returns the rewritten list, or None when
        no handler changed it."""
        if not self.has_handlers("context"):
            return None
        event = ContextEvent(messages)
        changed = False
        ctx = self._ctx()
        for ext, handler, takes_ctx in self._handlers("context"):
            ok, result = await self._run(ext, handler, takes_ctx, "context", event, ctx)
            if not ok or result is None:
                continue
            new = _get(result, "messages") if _is_record(result) else None
            if not isinstance(new, list):
                self.fail(ext, "context", f"returned {_describe(result)}, expected {{'messages': [...]}}")
                continue
            event.messages = new
            changed = True
        return event.messages if changed else None

    async def emit_input(self, event: InputEvent) -> tuple[str, InputEvent]:
        """``(action, event)``: ``"handled"`` (first wins; the agent is not run) or ``"continue"`` with
        ``event.text``/``event.images`` after every transform."""
        if not self.has_handlers("input"):
            return "continue", event
        ctx = self._ctx()
        for ext, handler, takes_ctx in self._handlers("input"):
            ok, result = await self._run(ext, handler, takes_ctx, "input", event, ctx)
            if not ok or result is None:
                continue
            action = _get(result, "action") if _is_record(result) else None
            if action == "handled":
                return "handled", event
            if action == "transform":
                text = _get(result, "text")
                if text is not None and not isinstance(text, str):
                    self.fail(ext, "input", f"transform text is {_describe(text)}, expected a string")
                    continue
                if text is not None:
                    event.text = text
                images = _get(result, "images")
                if isinstance(images, list):
                    event.images = images
                continue
            if action != "continue":
                self.fail(ext, "input", f"returned {_describe(result)}, expected action continue|transform|handled")
        return "continue", event

    async def emit_before_agent_start(self, event: BeforeAgentStartEvent) -> tuple[list[Any], str | None]:
        """``(messages to add, system prompt or None when unchanged)``; the system prompt chains (each
        handler sees ``event.system_prompt`` as changed by the ones before)."""
        if not self.has_handlers("before_agent_start"):
            return [], None
        original = event.system_prompt
        messages: list[Any] = []
        ctx = self._ctx()
        for ext, handler, takes_ctx in self._handlers("before_agent_start"):
            ok, result = await self._run(ext, handler, takes_ctx, "before_agent_start", event, ctx)
            if not ok or result is None:
                continue
            if not _is_record(result) or not (_has(result, "message") or _has(result, "system_prompt", "systemPrompt")):
                self.fail(ext, "before_agent_start",
                          f"returned {_describe(result)}, expected {{'message': ..., 'system_prompt': ...}}")
                continue
            prompt = _get(result, "system_prompt", "systemPrompt")
            if prompt is not None:
                if not isinstance(prompt, str):
                    self.fail(ext, "before_agent_start", f"system_prompt is {_describe(prompt)}, expected a string")
                else:
                    event.system_prompt = prompt
            message = _get(result, "message")
            if message is not None:
                messages.append((ext, message))
        return messages, (event.system_prompt if event.system_prompt != original else None)

    async def emit_cancellable(self, event_name: str, event: Any) -> tuple[bool, Any]:
        """``session_before_*``: ``(cancelled, first 'compaction' given or None)``; the first cancel wins."""
        if not self.has_handlers(event_name):
            return False, None
        compaction = None
        ctx = self._ctx()
        for ext, handler, takes_ctx in self._handlers(event_name):
            ok, result = await self._run(ext, handler, takes_ctx, event_name, event, ctx)
            if not ok or result is None:
                continue
            if not _is_record(result):
                self.fail(ext, event_name, f"returned {_describe(result)}, expected None or {{'cancel': True}}")
                continue
            if _get(result, "cancel"):
                return True, None
            if compaction is None and _get(result, "compaction") is not None:
                compaction = _get(result, "compaction")
        return False, compaction

    async def emit_message_end(self, event: Any) -> Any:
        """``message_end``: the replacement message a handler returned (``{'message': m}`` with the same
        role), chained; None when no handler replaced it."""
        if not self.has_handlers("message_end"):
            return None
        replaced = None
        ctx = self._ctx()
        role = getattr(event.message, "role", None)
        for ext, handler, takes_ctx in self._handlers("message_end"):
            ok, result = await self._run(ext, handler, takes_ctx, "message_end", event, ctx)
            if not ok or result is None:
                continue
            message = _get(result, "message") if _is_record(result) else None
            if message is None or getattr(message, "role", None) != role:
                self.fail(ext, "message_end", f"returned {_describe(result)}, expected {{'message': <a {role} message>}}")
                continue
            replaced = message
        return replaced

    async def emit_user_bash(self, event: Any) -> Any:
        """``user_bash``: the first ``{'result': {...}}`` given (it replaces running the command), or None."""
        for ext, result in await self.emit("user_bash", event):
            value = _get(result, "result") if _is_record(result) else None
            if isinstance(value, dict):
                return value
            self.fail(ext, "user_bash", f"returned {_describe(result)}, expected {{'result': {{'output', 'exit_code'}}}}")
        return None

    async def emit_resources_discover(self, event: Any) -> dict[str, list[str]]:
        """``resources_discover``: the ``skill_paths``/``prompt_paths``/``theme_paths`` of all handlers."""
        found: dict[str, list[str]] = {"skill_paths": [], "prompt_paths": [], "theme_paths": []}
        for ext, result in await self.emit("resources_discover", event):
            if not _is_record(result):
                self.fail(ext, "resources_discover", f"returned {_describe(result)}, expected a dict of paths")
                continue
            for key, camel in (("skill_paths", "skillPaths"), ("prompt_paths", "promptPaths"),
                               ("theme_paths", "themePaths")):
                value = _get(result, key, camel)
                if isinstance(value, list):
                    found[key].extend(str(v) for v in value)
        return found


_COROUTINE = types.CoroutineType


@types.coroutine
def _resume(coro: Any, yielded: Any) -> Any:
    """Go on with ``coro`` after it already yielded ``yielded`` (what ``await coro`` would do from there)."""
    while True:
        try:
            sent = yield yielded
        except GeneratorExit:
            coro.close()
            raise
        except BaseException as exc:
            try:
                yielded = coro.throw(exc)
            except StopIteration as stop:
                return stop.value
        else:
            try:
                yielded = coro.send(sent)
            except StopIteration as stop:
                return stop.value


def _describe(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:60]}" if len(text) <= 60 else f"{type(value).__name__} {text[:57]}..."


def _tool_result_patch(result: Any) -> tuple[list[Any] | None, Any, bool | None]:
    if not _is_record(result):
        raise _Garbage(f"returned {_describe(result)}, expected {{'content'?, 'details'?, 'is_error'?}}")
    content = _get(result, "content")
    is_error = _get(result, "is_error", "isError")
    if content is not None:
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        if not isinstance(content, list):
            raise _Garbage(f"content is {_describe(content)}, expected a list of text/image blocks")
    if is_error is not None and not isinstance(is_error, bool):
        raise _Garbage(f"is_error is {_describe(is_error)}, expected a bool")
    return content, _get(result, "details"), is_error


def monotonic_ms() -> int:
    """Milliseconds since the epoch (event timestamps)."""
    return int(time.time() * 1000)
