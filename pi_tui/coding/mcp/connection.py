"""One MCP server connection, run in the background with the official SDK (``mcp`` 2.x ``ClientSession``).

A :class:`McpConnection` owns one server: :meth:`start` returns at once and a background task spawns the
process (``stdio_client``) or opens the HTTP session (``streamable_http_client``), runs ``initialize``, lists
tools and prompts, then holds the session open until :meth:`close`. The SDK's context managers are entered
and left inside that one task (anyio requires it); calls from other tasks share the session.

States: ``disabled`` → (``connecting`` → ``connected`` | ``failed``); a connected server whose transport ends
(process exit, HTTP stream gone) becomes ``disconnected`` and is reconnected by the next call (pi 1.x
docs/mcp.md "A dropped connection is shown as disconnected and reconnects on the next call").

Failures are data: :meth:`call_tool` raises :class:`McpError` with one clear sentence for a server that is
not connected, a JSON-RPC error, a timeout (``config.timeout`` seconds; the SDK then sends
``notifications/cancelled``), an abort (the request task is cancelled, so the SDK sends
``notifications/cancelled``), a connection that closes mid-call, or a malformed message from the server while
the call was in flight (the reply cannot be trusted to arrive). A stdio server's stderr is appended to
``<log_dir>/<server>.log`` (never the terminal); the tail of it is added to a start-up failure's reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import anyio
import pydantic

from pi_tui.ai.abort import AbortSignal
from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.mcp.config import McpServerConfig
from pi_tui.coding.mcp.errors import McpError, ServerState
from pi_tui.coding.mcp.oauth import SIGN_IN_HINT, needs_sign_in, oauth_applies, session_auth
from pi_tui.coding.mcp.resource_list import list_resources

if TYPE_CHECKING:  # the SDK itself is imported lazily, in a thread (pi_tui/coding/mcp/sdk.py)
    import mcp_types as mt
    from mcp import ClientSession

log = logging.getLogger(__name__)

LOG_MAX_BYTES = 1_000_000
"""Size at which ``mcp.log`` and a server's ``<server>.log`` start again; the previous one is kept as ``.1``."""

STDERR_TAIL_CHARS = 300
STDERR_TAIL_LINES = 3
CLIENT_NAME = "pi-tui"
MIN_CONNECT_TIMEOUT_S = 30.0
MALFORMED_GRACE = 10.0
"""Seconds a connecting server may still answer ``initialize`` properly after a malformed message (a stray
start-up line on stdout, then a slow start: 2 s was too short for a Python server on a loaded machine); then the
connection fails with that message as the reason, not at the 60 s connect timeout (tester2 #18)."""


_SDK_MODULE = "pi_tui.coding.mcp.sdk"


def _client_info(sdk: Any) -> mt.Implementation:
    from pi_tui import __version__

    return sdk.mt.Implementation(name=CLIENT_NAME, version=__version__)


def _mcp_error_type() -> type[BaseException] | None:
    sdk = sys.modules.get(_SDK_MODULE)
    return getattr(sdk, "MCPError", None)


def describe_exception(exc: BaseException) -> str:
    """A short, secret-free reason for ``exc`` (exception groups unwrapped to their first leaf)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    mcp_error = _mcp_error_type()
    if mcp_error is not None and isinstance(exc, mcp_error):
        error = exc.error  # type: ignore[attr-defined]
        text = f"JSON-RPC error {error.code}: {error.message}"
    elif isinstance(exc, pydantic.ValidationError):
        errors = exc.errors()
        first: dict[str, Any] = dict(errors[0]) if errors else {}
        where = ".".join(str(part) for part in first.get("loc", ()))
        if exc.title.startswith("union[JSONRPC") or first.get("type") == "json_invalid":
            text = f"not a JSON-RPC message: {str(first.get('input', ''))[:80]!r}"
        else:
            text = f"reply does not match the MCP schema ({exc.title}{'.' + where if where else ''}: {first.get('msg', '')})"
    elif isinstance(exc, FileNotFoundError):
        text = f"command not found: {exc.filename or exc}"
    elif isinstance(exc, TimeoutError):
        text = "timed out"
    else:
        text = str(exc).strip() or type(exc).__name__
        if type(exc).__name__ not in text and not isinstance(exc, OSError | McpError):
            text = f"{type(exc).__name__}: {text}"
    return redact_text(text.splitlines()[0] if text else text)


class McpConnection:
    """Connection to one configured server; see the module docstring for states and errors.

    ``log_dir``: directory of ``<server>.log`` (stderr of stdio servers); ``on_change(connection)`` is called
    (synchronously, in the event loop) after every state, tool or prompt change.
    """

    def __init__(
        self,
        config: McpServerConfig,
        *,
        log_dir: Path,
        on_change: Callable[[McpConnection], None] | None = None,
        auth_path: Path | None = None,
    ) -> None:
        self.config = config
        self.log_dir = log_dir
        self.auth_path = auth_path  # OAuth credentials (pi_tui.coding.mcp.oauth); None: <agent dir>/mcp-auth.json
        self.on_change = on_change
        self.state: ServerState = "connecting" if config.enabled else "disabled"
        self.error: str | None = None
        self.tools: list[mt.Tool] = []
        self.prompts: list[mt.Prompt] = []
        self.resources: list[mt.Resource] = []
        self.server_info: mt.Implementation | None = None
        self.instructions: str | None = None
        self.connected_at: float | None = None
        self._session: ClientSession | None = None
        self._sdk: Any = None  # pi_tui.coding.mcp.sdk once loaded
        self._task: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None
        self._ready: asyncio.Event | None = None
        self._closed: asyncio.Event | None = None
        self._malformed: asyncio.Event | None = None
        self._malformed_text = ""
        self._in_flight = 0
        self._http_status: int | None = None
        if not config.enabled:
            self.state = "disabled"

    # ------------------------------------------------------------ lifecycle

    @property
    def name(self) -> str:
        """The configured server name."""
        return self.config.name

    @property
    def connect_timeout(self) -> float:
        """Seconds allowed for start-up (spawn, ``initialize``, listings): the request timeout, at least
        :data:`MIN_CONNECT_TIMEOUT_S` (``npx``/``uvx`` launchers may install the server first)."""
        return max(self.config.timeout, MIN_CONNECT_TIMEOUT_S)

    @property
    def log_path(self) -> Path:
        """``<log_dir>/<server>.log``."""
        return self.log_dir / f"{self.name}.log"

    def start(self) -> None:
        """Begin connecting in a background task (no-op if disabled or already running). Needs a running loop."""
        if not self.config.enabled or (self._task is not None and not self._task.done()):
            return
        self._stop = asyncio.Event()
        self._ready = asyncio.Event()
        self._closed = asyncio.Event()
        self._malformed = asyncio.Event()
        self._set_state("connecting", None)
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"mcp:{self.name}")

    async def wait_ready(self, limit_s: float | None = None) -> bool:
        """Wait until the connection attempt finished (connected or failed), at most ``limit_s`` seconds;
        True when connected."""
        if self._ready is None:
            return self.state == "connected"
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(limit_s):
                await self._ready.wait()
        return self.state == "connected"

    async def close(self) -> None:
        """Stop the server (stdio: close stdin, SIGTERM, then SIGKILL, done by the SDK) and wait for it."""
        task, self._task = self._task, None
        if task is None:
            return
        if self._stop is not None:
            self._stop.set()
        try:
            async with asyncio.timeout(10):
                await asyncio.shield(task)
        except (TimeoutError, asyncio.CancelledError):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        except Exception:  # _run never raises; be safe
            log.exception("mcp: closing %s failed", self.name)
        self._session = None

    async def reconnect(self) -> bool:
        """Close and connect again; True when connected afterwards."""
        await self.close()
        self.start()
        return await self.wait_ready()

    async def disable(self) -> None:
        """Close and mark ``disabled`` (for this session only)."""
        await self.close()
        self.tools, self.prompts = [], []
        self._set_state("disabled", None)

    def _set_state(self, state: ServerState, error: str | None) -> None:
        self.state, self.error = state, error
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change(self)
            except Exception:
                log.exception("mcp: change listener failed for %s", self.name)

    def _open_stderr(self) -> TextIO:
        """The server's stderr log, opened for appending; a log over ``LOG_MAX_BYTES`` is moved to
        ``<server>.log.1`` first (a running server writes to its file directly, so logs turn over at a start)."""
        self.log_dir.mkdir(parents=True, exist_ok=True)
        try:
            if self.log_path.stat().st_size > LOG_MAX_BYTES:
                os.replace(self.log_path, self.log_path.with_name(self.log_path.name + ".1"))
        except OSError:
            pass
        fd = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        handle = os.fdopen(fd, "a", encoding="utf-8", errors="replace")
        handle.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} starting {self.name}\n")
        handle.flush()
        return handle

    def stderr_tail(self, offset: int = 0) -> str:
        """The last :data:`STDERR_TAIL_CHARS` characters written to the log after byte ``offset`` (secrets redacted)."""
        try:
            with open(self.log_path, "rb") as handle:
                handle.seek(offset)
                data = handle.read()
        except OSError:
            return ""
        text = data.decode("utf-8", errors="replace").strip()
        lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("--- ")]
        return redact_text(" | ".join(lines[-STDERR_TAIL_LINES:])[-STDERR_TAIL_CHARS:])

    async def _run(self) -> None:
        assert self._stop is not None and self._ready is not None and self._closed is not None
        stderr: TextIO | None = None
        offset = 0
        try:
            from pi_tui.coding.mcp import sdk as sdk_loader

            sdk = await sdk_loader.load()
            self._sdk = sdk
            async with contextlib.AsyncExitStack() as stack:
                if self.config.transport == "stdio":
                    stderr = self._open_stderr()
                    offset = stderr.tell()
                    params = sdk.StdioServerParameters(
                        command=self.config.command or "",
                        args=list(self.config.args),
                        env=dict(self.config.env) or None,
                        cwd=self.config.cwd,
                    )
                    read, write = await stack.enter_async_context(sdk.stdio_client(params, errlog=stderr))
                else:
                    auth = session_auth(self.config, self.auth_path)
                    http = sdk.create_mcp_http_client(headers=dict(self.config.headers) or None, auth=auth)
                    http.event_hooks["response"].append(self._on_http_response)
                    await stack.enter_async_context(http)
                    read, write = await stack.enter_async_context(
                        sdk.streamable_http_client(self.config.url or "", http_client=http)
                    )
                upstream, downstream = anyio.create_memory_object_stream[Any](0)
                group = await stack.enter_async_context(anyio.create_task_group())
                stack.callback(group.cancel_scope.cancel)
                group.start_soon(self._pump, read, upstream)
                session = await stack.enter_async_context(
                    sdk.ClientSession(
                        downstream,
                        write,
                        message_handler=self._on_message,
                        logging_callback=self._on_log,
                        client_info=_client_info(sdk),
                    )
                )
                with anyio.fail_after(self.connect_timeout):
                    await self._handshake(session, sdk)
                self._session = session
                self.connected_at = time.monotonic()
                self._set_state("connected", None)
                self._ready.set()
                stop_wait = asyncio.ensure_future(self._stop.wait())
                closed_wait = asyncio.ensure_future(self._closed.wait())
                try:
                    await asyncio.wait({stop_wait, closed_wait}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    stop_wait.cancel()
                    closed_wait.cancel()
                self._session = None
                if not self._stop.is_set():
                    tail = self.stderr_tail(offset) if stderr is not None else ""
                    reason = "the server closed the connection" + (f" (stderr: {tail})" if tail else "")
                    self._set_state("disconnected", reason)
        except asyncio.CancelledError:  # the event loop is shutting down (app exit): stop quietly, no report
            self._session = None
            self.state, self.error = "disconnected", "stopped"
            raise
        except BaseException as exc:  # noqa: B036 - the SDK raises exception groups; all are reported
            self._session = None
            leaf: BaseException = exc
            while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
                leaf = leaf.exceptions[0]
            reason = describe_exception(leaf)
            if isinstance(leaf, TimeoutError):
                reason = f"not ready within {self.connect_timeout:g} s"
            elif "Connection closed" in reason:
                reason = "the server exited or closed the connection before it was ready"
            elif oauth_applies(self.config) and (self._http_status == 401 or needs_sign_in(reason)):
                said = "the server answered HTTP 401 Unauthorized" if self._http_status == 401 else reason
                reason = SIGN_IN_HINT.format(name=self.name) + f" ({said})"
            tail = self.stderr_tail(offset) if stderr is not None else ""
            if tail:
                reason += f" (stderr: {tail})"
            if not (self._stop.is_set() and self.state == "connected"):
                self._set_state("failed", reason)
            log.warning("mcp: %s failed: %s", self.name, reason)
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
        finally:
            self._ready.set()
            if stderr is not None:
                with contextlib.suppress(OSError):
                    stderr.close()

    async def _handshake(self, session: ClientSession, sdk: Any) -> None:
        """``initialize`` and the listings, failed :data:`MALFORMED_GRACE` seconds after a malformed message if
        the handshake has not finished by then (tester2 #18: a server answering garbage waited the whole
        connect timeout; a stray start-up line followed by the real answer still connects).

        Raises :class:`McpError` naming the malformed message."""
        assert self._malformed is not None
        garbage = self._malformed  # set by the first malformed message (``_on_message`` then makes a new one)

        async def watch() -> None:
            await garbage.wait()
            await anyio.sleep(MALFORMED_GRACE)
            raise McpError(f"the server answered with a malformed message: {self._malformed_text}")

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            init = await session.initialize()
            self.server_info = init.server_info
            self.instructions = init.instructions
            self.tools = await self._list_tools(session)
            self.prompts = await self._list_prompts(session, init.capabilities)
            self.resources = await list_resources(session, init.capabilities, sdk)
            group.cancel_scope.cancel()

    async def _on_http_response(self, response: Any) -> None:
        """Remember the last HTTP status (a 401 at start-up means the server needs sign-in)."""
        self._http_status = int(response.status_code)

    async def _pump(self, source: Any, sink: Any) -> None:
        """Forward transport messages to the session; mark the connection closed when the transport ends."""
        assert self._closed is not None
        try:
            async with sink:
                async for item in source:
                    await sink.send(item)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
            pass
        finally:
            self._closed.set()

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self._malformed_text = describe_exception(message)
            log.warning("mcp: %s sent a malformed message: %s", self.name, self._malformed_text)
            if self._malformed is not None:
                self._malformed.set()  # fails the calls in flight now; later calls wait on a fresh event
            self._malformed = asyncio.Event()
            return
        sdk = self._sdk
        if sdk is not None and isinstance(message, sdk.mt.ServerNotification):
            root = getattr(message, "root", message)
            if isinstance(root, sdk.mt.ToolListChangedNotification) and self._session is not None:
                with contextlib.suppress(Exception):
                    self.tools = await self._list_tools(self._session)
                    self._changed()
            elif isinstance(root, sdk.mt.ResourceListChangedNotification) and self._session is not None:
                self.resources = await list_resources(self._session, None, sdk)
                self._changed()

    async def _on_log(self, params: mt.LoggingMessageNotificationParams) -> None:
        log.info("mcp [%s] %s %s: %s", self.name, params.level, params.logger or "", redact_text(str(params.data)))

    async def _list_tools(self, session: ClientSession) -> list[mt.Tool]:
        paginated = self._sdk.mt.PaginatedRequestParams
        tools: list[mt.Tool] = []
        cursor: str | None = None
        for _ in range(100):  # pages
            page = await session.list_tools(params=paginated(cursor=cursor) if cursor else None)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        return tools

    @staticmethod
    async def _list_prompts(session: ClientSession, capabilities: mt.ServerCapabilities) -> list[mt.Prompt]:
        if capabilities.prompts is None:
            return []
        try:
            return list((await session.list_prompts()).prompts)
        except Exception as exc:  # a server that advertises prompts but fails listing keeps its tools
            log.warning("mcp: listing prompts failed: %s", describe_exception(exc))
            return []

    # ------------------------------------------------------------ requests

    async def _ready_session(self) -> ClientSession:
        if self.state == "disabled":
            raise McpError(f"MCP server {self.name} is disabled")
        if self.state in ("disconnected", "failed"):
            if self._task is not None and not self._task.done():
                with contextlib.suppress(BaseException):
                    async with asyncio.timeout(10):
                        await asyncio.shield(self._task)  # the old transport is still being torn down
            self.start()  # reconnect on the next call (pi)
        if self.state == "connecting":
            await self.wait_ready(self.connect_timeout)
        if self._session is None or self.state != "connected":
            reason = f": {self.error}" if self.error else ""
            raise McpError(f"MCP server {self.name} is not connected ({self.state}{reason})")
        return self._session

    async def call_tool(
        self, tool: str, arguments: dict[str, Any], signal: AbortSignal | None = None
    ) -> mt.CallToolResult:
        """``tools/call``; raises :class:`McpError` (abort: ``"… aborted"``) on any failure (module docstring)."""
        return await self._request(
            f"{self.name}/{tool}",
            lambda session: session.call_tool(tool, arguments, read_timeout_seconds=self.config.timeout),
            signal,
        )

    async def get_prompt(self, prompt: str, arguments: dict[str, str] | None = None) -> mt.GetPromptResult:
        """``prompts/get``; raises :class:`McpError` on failure."""
        return await self._request(
            f"prompt {self.name}/{prompt}",
            lambda session: session.get_prompt(prompt, arguments or None),
            None,
        )

    async def read_resource(self, uri: str) -> mt.ReadResourceResult:
        """``resources/read``; raises :class:`McpError` on failure (timeout: ``config.timeout``)."""
        return await self._request(
            f"read of {self.name}:{uri}",
            lambda session: asyncio.wait_for(session.read_resource(uri), self.config.timeout),
            None,
        )

    async def _request(self, what: str, make: Callable[[ClientSession], Any], signal: AbortSignal | None) -> Any:
        if signal is not None and signal.aborted:
            raise McpError(f"MCP call {what} aborted")
        session = await self._ready_session()
        assert self._closed is not None and self._malformed is not None
        call = asyncio.ensure_future(make(session))
        waits: dict[asyncio.Future[Any], str] = {
            asyncio.ensure_future(self._closed.wait()): "closed",
            asyncio.ensure_future(self._malformed.wait()): "malformed",  # only messages from now on
        }
        if signal is not None:
            waits[asyncio.ensure_future(signal.wait())] = "aborted"
        self._in_flight += 1
        try:
            done, _ = await asyncio.wait({call, *waits}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._in_flight -= 1
            for waiter in waits:
                waiter.cancel()
        if call in done:
            try:
                return call.result()
            except self._sdk.MCPError as exc:
                if exc.error.code == self._sdk.REQUEST_TIMEOUT and "timed out" in exc.error.message:
                    raise McpError(f"MCP call {what} timed out after {self.config.timeout:g} s") from None
                if exc.error.code == self._sdk.CONNECTION_CLOSED and exc.error.message == "Connection closed":
                    raise McpError(f"MCP server {self.name} closed the connection during {what}") from None
                raise McpError(f"MCP call {what} failed: {describe_exception(exc)}") from None
            except TimeoutError:
                raise McpError(f"MCP call {what} timed out after {self.config.timeout:g} s") from None
            except Exception as exc:
                raise McpError(f"MCP call {what} failed: {describe_exception(exc)}") from None
        reason = next(waits[w] for w in waits if w in done)
        call.cancel()  # the SDK sends notifications/cancelled for a cancelled request
        with contextlib.suppress(BaseException):
            async with asyncio.timeout(2):
                await call
        if reason == "aborted":
            raise McpError(f"MCP call {what} aborted")
        if reason == "malformed":
            raise McpError(f"MCP server {self.name} sent a malformed message during {what}: {self._malformed_text}")
        raise McpError(f"MCP server {self.name} closed the connection during {what}")
