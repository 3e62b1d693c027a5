"""The extension runner: dispatches each event to the extensions' handlers in load order (pi docs/extensions.md
"Events"; pi-reference §3.20). The combining of results per event is in ``combine.py``, timeouts in
``clock.py``, the extension and error records in ``loaded.py``, result parsing in ``results.py``.

Isolation. A handler that raises, times out or returns something its event does not accept never breaks
the run: the runner reports one :class:`ExtensionError` (extension name and file, event, error) through
``on_error`` and goes on with the next handler. The same failure (extension, event, message) is shown the
first time only and logged again once per later prompt, never once per streamed token (a command's failure is
shown each time it is run). A failing ``tool_call`` handler blocks the call
(fail-safe, as pi).

One handler loop. Every event runs through :meth:`ExtensionRunner.each` (the loop: call, await, time out,
report), except the hot path of events whose results pi ignores when every handler is a plain ``def``:
:meth:`ExtensionRunner.dispatch` calls those without creating a coroutine, and hands over to the loop as soon
as one returns an awaitable.

Timeouts. An async handler gets ``timeout`` seconds (default :data:`DEFAULT_HANDLER_TIMEOUT`); time spent
waiting for the user in a dialog (``ctx.ui.confirm`` and the like, see :meth:`ExtensionRunner.dialog`)
does not count, so a permission gate may wait for its answer. A sync handler runs to its end on the event
loop (keep them short).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
import types
from collections.abc import Callable
from typing import Any

from pi_tui.coding.extensions import combine
from pi_tui.coding.extensions.clock import HandlerClock
from pi_tui.coding.extensions.events import BeforeAgentStartEvent, InputEvent, ToolCallEvent, ToolResultEvent
from pi_tui.coding.extensions.loaded import (
    DEFAULT_HANDLER_TIMEOUT,
    ExtensionError,
    Handler,
    LoadedExtension,
    error_text,
)

__all__ = ["DEFAULT_HANDLER_TIMEOUT", "ExtensionError", "ExtensionRunner", "LoadedExtension", "monotonic_ms"]

log = logging.getLogger(__name__)

Step = Callable[[LoadedExtension, bool, Any], bool]
"""``step(extension, ok, result) -> stop``: what :meth:`ExtensionRunner.each` calls after each handler."""

_COROUTINE = types.CoroutineType
_get_running_loop = asyncio.get_running_loop
_Entry = tuple[LoadedExtension, Handler, bool]


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
        self.clock = HandlerClock(timeout, frozenset({ExtensionRunner._loop.__code__, ExtensionRunner._notify.__code__}))
        self._reported: set[tuple[str, str, str]] = set()
        self._seen: dict[tuple[str, str, str], int] = {}  # how often each failure happened (one per prompt)
        self._ctx_value: Any = None
        self._counts: dict[str, int] = {}
        self._cache: dict[str, list[_Entry]] = {}
        self._async_events: set[str] = set()  # events with an ``async def`` handler (they skip the sync path)
        self.errors: list[ExtensionError] = []

    @property
    def timeout(self) -> float:
        """Seconds an async handler may run (dialog time excluded)."""
        return self.clock.timeout

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
        self._async_events = set()
        for ext in self.extensions:
            for event, handlers in ext.handlers.items():
                if handlers:
                    self._counts[event] = self._counts.get(event, 0) + len(handlers)
                if any(inspect.iscoroutinefunction(handler) for handler, _ in handlers):
                    self._async_events.add(event)

    def handlers_changed(self) -> None:
        """Call after ``pi.on`` added a handler (the per-event counts behind :meth:`has_handlers`)."""
        self._recount()

    def has_handlers(self, event: str) -> bool:
        """True when some extension listens to ``event`` (the session skips building payloads otherwise)."""
        return event in self._counts

    def _handlers(self, event_name: str) -> list[_Entry]:
        cached = self._cache.get(event_name)
        if cached is None:
            cached = self._cache[event_name] = [
                (ext, handler, takes_ctx)
                for ext in self.extensions
                for handler, takes_ctx in ext.handlers.get(event_name, ())
            ]
        return cached

    def _ctx(self) -> Any:
        """The handlers' ``ctx`` (made once by ``context_factory``: one object serves every handler)."""
        ctx = self._ctx_value
        if ctx is None and self.context_factory is not None:
            ctx = self._ctx_value = self.context_factory()
        return ctx

    # ------------------------------------------------------------------ errors

    def report(self, error: ExtensionError) -> None:
        """Record ``error`` and pass it to ``on_error`` (see module docstring): an event handler's failure is shown
        the first time only; when it fails the same way in a later prompt it is logged with its count
        (tester3 #6: the transcript filled with one copy per prompt). A command's or shortcut's failure is
        shown each time the user runs it."""
        key = (error.path, error.event, error.error)
        if key in self._reported:
            return
        self._reported.add(key)
        self.errors.append(error)
        seen = self._seen[key] = self._seen.get(key, 0) + 1
        if seen > 1 and not error.event.startswith(("command:", "shortcut:")):
            log.warning("%s (the same failure %d times in this session; shown the first time)", error.text, seen)
            return
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
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            exc = f"{type(exc).__name__} raised (ignored)"
        text = exc if isinstance(exc, str) else error_text(exc)
        error = ExtensionError(extension.name, extension.path, event, text)
        self.report(error)
        return error

    # ------------------------------------------------------------------ timeouts

    def dialog(self) -> contextlib.AbstractAsyncContextManager[None]:
        """Wrap a wait for the user: the running handlers' timeouts are suspended while it lasts and
        extended by its length afterwards (``HandlerClock.dialog``)."""
        return self.clock.dialog()

    async def call(self, awaitable: Any) -> Any:
        """Await ``awaitable`` within the handler timeout (dialog time excluded); raises ``TimeoutError``."""
        return await self.clock.call(awaitable)

    # ------------------------------------------------------------------ the handler loop

    async def each(self, event_name: str, event: Any, step: Step | None = None) -> None:
        """Run the handlers of ``event_name`` in load order; after each one ``step(extension, ok, result)``
        (``ok`` False: it failed and was reported) says whether to stop."""
        handlers = self._cache.get(event_name)
        if handlers is None:
            handlers = self._handlers(event_name)
        if handlers:
            await self._loop(event_name, event, handlers, step)

    async def _loop(self, event_name: str, event: Any, handlers: list[_Entry], step: Step | None) -> None:
        ctx = self._ctx()
        clock = self.clock
        if clock.armed_on is not _get_running_loop():  # the only cost of timeouts here (clock.py)
            clock.ensure_watchdog()
        result: Any = None
        for ext, handler, takes_ctx in handlers:
            try:
                result = handler(event, ctx) if takes_ctx else handler(event)
                if result is not None:
                    if type(result) is _COROUTINE:
                        result = await result  # no StopIteration, no timer (clock.py)
                    elif inspect.isawaitable(result):
                        result = await clock.call(result)
                ok = True
            except asyncio.CancelledError:
                if not clock.expired(result):  # ``result`` is still the coroutine that was awaited
                    raise
                self.fail(ext, event_name, clock.timeout_error())
                ok, result = False, None
            except BaseException as exc:  # noqa: BLE001 - an extension's failure is never the session's
                self.fail(ext, event_name, exc)
                ok, result = False, None
            if step is not None and step(ext, ok, result):
                return

    async def _notify(self, event_name: str, event: Any, handlers: list[_Entry]) -> None:
        """:meth:`_loop` without results (``dispatch`` of events whose results pi ignores): the same calls,
        awaits and failure reports, minus the per-handler bookkeeping of results."""
        ctx = self._ctx_value
        if ctx is None:
            ctx = self._ctx()
        clock = self.clock
        if clock.armed_on is not _get_running_loop():
            clock.ensure_watchdog()
        result: Any = None
        for ext, handler, takes_ctx in handlers:
            try:
                result = handler(event, ctx) if takes_ctx else handler(event)
                if result is not None:
                    if type(result) is _COROUTINE:
                        await result
                    elif inspect.isawaitable(result):
                        await clock.call(result)
            except asyncio.CancelledError:
                if not clock.expired(result):
                    raise
                self.fail(ext, event_name, clock.timeout_error())
            except BaseException as exc:  # noqa: BLE001 - an extension's failure is never the session's
                self.fail(ext, event_name, exc)

    async def emit(self, event_name: str, event: Any) -> list[tuple[LoadedExtension, Any]]:
        """Run every handler of ``event_name`` in load order; returns ``(extension, result)`` for the
        handlers that succeeded and returned something other than None."""
        results: list[tuple[LoadedExtension, Any]] = []

        def keep(ext: LoadedExtension, ok: bool, result: Any) -> bool:
            if ok and result is not None:
                results.append((ext, result))
            return False

        await self.each(event_name, event, keep)
        return results

    def dispatch(self, event_name: str, event: Any) -> Any:
        """Run the handlers of an event whose results pi ignores (``message_update``, ``turn_end`` ...):
        returns None when every handler finished at once, else an awaitable that finishes them. Handlers that
        are all plain ``def`` run here without a coroutine (the hot path of every streamed token); with an
        ``async def`` one, the handler loop runs."""
        handlers = self._cache.get(event_name)
        if handlers is None:
            handlers = self._handlers(event_name)
        if not handlers:
            return None
        if event_name in self._async_events:
            return self._notify(event_name, event, handlers)
        ctx = self._ctx()
        index = -1
        for ext, handler, takes_ctx in handlers:
            index += 1
            try:
                result = handler(event, ctx) if takes_ctx else handler(event)
            except asyncio.CancelledError:
                raise
            except BaseException as exc:  # noqa: BLE001
                self.fail(ext, event_name, exc)
                continue
            if result is not None and inspect.isawaitable(result):  # a def that returned an awaitable
                return self._finish_dispatch(event_name, event, handlers, index, result)
        return None

    async def _finish_dispatch(self, event_name: str, event: Any, handlers: list[_Entry], index: int,
                               pending: Any) -> None:
        try:
            await self.clock.call(pending)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: BLE001
            self.fail(handlers[index][0], event_name, exc)
        if index + 1 < len(handlers):
            await self._loop(event_name, event, handlers[index + 1:], None)

    async def emit_notification(self, event_name: str, event: Any) -> None:
        """Run the handlers of an event whose results pi ignores (awaitable form of :meth:`dispatch`)."""
        pending = self.dispatch(event_name, event)
        if pending is not None:
            await pending

    # ------------------------------------------------------------------ events with results (combine.py)

    async def emit_tool_call(self, event: ToolCallEvent) -> tuple[bool, str | None]:
        """``(blocked, reason)``: ``combine.tool_call``."""
        return await combine.tool_call(self, event)

    async def emit_tool_result(self, event: ToolResultEvent) -> ToolResultEvent:
        """``event`` with the handlers' patches: ``combine.tool_result``."""
        return await combine.tool_result(self, event)

    async def emit_context(self, messages: list[Any]) -> list[Any] | None:
        """The rewritten messages or None: ``combine.context``."""
        return await combine.context(self, messages) if self.has_handlers("context") else None

    async def emit_input(self, event: InputEvent) -> tuple[str, InputEvent]:
        """``(action, event)``: ``combine.user_input``."""
        return await combine.user_input(self, event)

    async def emit_before_agent_start(self, event: BeforeAgentStartEvent) -> tuple[list[Any], str | None]:
        """``(messages, system prompt or None)``: ``combine.before_agent_start``."""
        return await combine.before_agent_start(self, event)

    async def emit_cancellable(self, event_name: str, event: Any) -> tuple[bool, Any]:
        """``(cancelled, compaction)``: ``combine.cancellable``."""
        return await combine.cancellable(self, event_name, event)

    async def emit_message_end(self, event: Any) -> Any:
        """The replacement message or None: ``combine.message_end``."""
        return await combine.message_end(self, event) if self.has_handlers("message_end") else None

    async def emit_user_bash(self, event: Any) -> Any:
        """The replacing result or None: ``combine.user_bash``."""
        return await combine.user_bash(self, event)

    async def emit_before_provider_request(self, payload: Any) -> Any:
        """The replaced request body or None: ``combine.provider_request``."""
        return await combine.provider_request(self, payload)

    async def emit_resources_discover(self, event: Any) -> dict[str, list[str]]:
        """The offered paths: ``combine.resources_discover``."""
        return await combine.resources_discover(self, event)


def monotonic_ms() -> int:
    """Milliseconds since the epoch (event timestamps)."""
    return int(time.time() * 1000)
