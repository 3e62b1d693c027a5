"""The ACP agent: ``initialize``, ``session/new``, ``session/load``, ``session/prompt``, ``session/cancel``,
``session/set_mode`` and ``session/set_config_option`` over pi-tui sessions (ACP "Overview"; official SDK
``agent-client-protocol``, whose router validates every request against the schema).

Each ``session/new`` builds a new :class:`~pi_tui.coding.agent_session.AgentSession` for the request's
``cwd`` with the command line's options (model, tools, settings); its ACP session id is pi-tui's session id,
so ``session/load`` with it reopens the stored file (a partial id works as with ``--session``) and replays
the transcript as updates before answering. Out-of-order or bad requests get JSON-RPC errors and the
process stays up: anything before ``initialize`` → ``-32600``; an unknown ``sessionId``, an unknown mode,
option or value, unsupported content → ``-32602``; a session file that cannot be opened → ``-32002``;
no model or key → ``-32000`` (authentication required), with pi-tui's message in ``data.details``.

When the client offers ``fs`` capabilities, the file tools read and write through it (:mod:`.files`); when
it offers ``terminal``, ``bash`` runs in the client's terminals (:mod:`.terminal`), else here; either way its
output streams as tool call content.

MCP servers: the session's own (``mcp.json``) and the ones the client passes in ``session/new`` /
``session/load`` (:mod:`.mcp_servers`: stdio and streamable HTTP; ``mcpCapabilities.http`` is true, ``sse``
false) start connecting when the session opens; the first prompt waits for them as print mode does (up to 10 s).
A server the client passes that cannot be used is named in a warning on stderr.
"""

from __future__ import annotations

import logging
from typing import Any

from acp import PROTOCOL_VERSION, RequestError
from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    Implementation,
    InitializeResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
)

from pi_tui.coding.modes.acp.files import ClientFileAccess, install
from pi_tui.coding.modes.acp.mcp_servers import connect_client_servers
from pi_tui.coding.modes.acp.prompt_content import prompt_from_blocks
from pi_tui.coding.modes.acp.session_state import AcpSession
from pi_tui.coding.modes.acp.terminal import ClientTerminalOperations, install_terminal
from pi_tui.coding.modes.acp.updates import replay_updates

log = logging.getLogger(__name__)


def _details(exc: BaseException) -> dict[str, Any]:
    return {"details": str(exc) or type(exc).__name__}


class PiAcpAgent:
    """The SDK ``Agent`` implementation (module docstring). ``options``: ``create_agent_session`` keyword
    arguments from the command line; ``client``: the SDK connection, set by :meth:`on_connect`."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = {k: v for k, v in options.items() if k not in ("session_path", "continue_recent", "cwd")}
        self.client: Any = None
        self.client_capabilities: ClientCapabilities | None = None
        self.initialized = False
        self.sessions: dict[str, AcpSession] = {}

    def on_connect(self, conn: Any) -> None:
        """Keep the connection used to reach the client."""
        self.client = conn

    # ------------------------------------------------------------------ helpers

    def _require_initialized(self) -> None:
        if not self.initialized:
            raise RequestError.invalid_request({"details": "call initialize before any session method"})

    def _state(self, session_id: str) -> AcpSession:
        self._require_initialized()
        state = self.sessions.get(session_id)
        if state is None:
            raise RequestError.invalid_params(
                {"sessionId": session_id, "details": f"Unknown session {session_id!r}: call session/new or session/load first"})
        return state

    def _settings(self, cwd: str) -> tuple[str, str]:
        from pi_tui.coding.config.paths import get_agent_dir
        from pi_tui.coding.config.settings import SettingsManager
        from pi_tui.coding.resources import trust

        try:
            manager = SettingsManager.create(cwd, get_agent_dir(), project_trusted=trust.is_trusted(cwd, get_agent_dir()))
            mode, queued = manager.get("acp.defaultMode", "ask"), manager.get("acp.queuedPrompt", "steer")
        except Exception:  # a broken settings file is reported by the session itself
            mode, queued = "ask", "steer"
        return (mode if mode in ("ask", "allow", "read-only") else "ask",
                queued if queued in ("steer", "followUp") else "steer")

    async def _open(self, cwd: str, session_path: str | None, mcp_servers: Any = None) -> AcpSession:
        from pi_tui.coding.session_factory import create_agent_session

        options = {**self.options, "cwd": cwd, "session_path": session_path}
        session = create_agent_session(**options)
        for warning in getattr(session, "startup_warnings", []):
            log.warning("%s", warning)
        mode, queued = self._settings(session.cwd)
        state = AcpSession(session, self.client, default_mode=mode, queued_prompt=queued)
        fs = self.client_capabilities.fs if self.client_capabilities is not None else None
        if fs is not None and (fs.read_text_file or fs.write_text_file):
            install(session, ClientFileAccess(self.client, state.session_id, read=bool(fs.read_text_file),
                                              write=bool(fs.write_text_file)))
        if self.client_capabilities is not None and self.client_capabilities.terminal:
            install_terminal(session, ClientTerminalOperations(self.client, state.session_id,
                                                               on_terminal=state.terminal_created))
        self.sessions[state.session_id] = state
        for problem in connect_client_servers(session, mcp_servers):
            log.warning("%s", problem)
        await state.start()  # the session's extensions, with the ACP UI (dialogs as permission requests)
        return state

    # ------------------------------------------------------------------ ACP methods

    async def initialize(self, protocol_version: int, client_capabilities: ClientCapabilities | None = None,
                         client_info: Implementation | None = None, **kwargs: Any) -> InitializeResponse:
        """Negotiate the version (the lower of the two) and report what pi-tui supports."""
        from pi_tui import __version__

        self.initialized = True
        self.client_capabilities = client_capabilities
        return InitializeResponse(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=True, audio=False, embedded_context=True),
                mcp_capabilities=McpCapabilities(http=True, sse=False),
            ),
            agent_info=Implementation(name="pi-tui", title="pi-tui", version=__version__),
            auth_methods=[],
        )

    async def new_session(self, cwd: str, mcp_servers: Any = None, **kwargs: Any) -> NewSessionResponse:
        """A new session in ``cwd``; its commands follow the response."""
        self._require_initialized()
        try:
            state = await self._open(cwd, None, mcp_servers)
        except Exception as exc:
            raise RequestError.invalid_params(_details(exc)) from None
        state.send_commands_soon()
        return NewSessionResponse(session_id=state.session_id, modes=state.modes(),
                                  config_options=state.config_options())

    async def load_session(self, cwd: str, session_id: str, mcp_servers: Any = None,
                           **kwargs: Any) -> LoadSessionResponse:
        """Reopen a stored session and replay its transcript as updates, then answer."""
        self._require_initialized()
        state = self.sessions.get(session_id)
        if state is None:
            try:
                state = await self._open(cwd, session_id, mcp_servers)
            except Exception as exc:
                raise RequestError(-32002, "Resource not found", {"sessionId": session_id, **_details(exc)}) from None
            if state.session_id != session_id:  # opened by a partial id: answer under both
                self.sessions[session_id] = state
        elif state.running:
            raise RequestError.invalid_request({"details": "the session is running a prompt"})
        await state.flush()
        for update in replay_updates(state.session.messages, state.session.cwd):
            state.enqueue(update)
        await state.flush()
        state.send_commands_soon()
        return LoadSessionResponse(modes=state.modes(), config_options=state.config_options())

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        """Run one turn (or queue it while one runs); answers with the stop reason after the last update."""
        state = self._state(session_id)
        try:
            text, images = prompt_from_blocks(prompt)
        except ValueError as exc:
            raise RequestError.invalid_params(_details(exc)) from None
        mcp = getattr(state.session, "mcp", None)
        if mcp is not None:
            await mcp.before_prompt()  # servers still connecting get up to 10 s before the first prompt
        try:
            stop = await state.prompt(text, images)
        except RuntimeError as exc:
            raise RequestError.auth_required(_details(exc)) from None
        return PromptResponse(stop_reason=stop)  # type: ignore[arg-type]

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        """Abort the session's running turn (a notification: unknown sessions are ignored, as the spec says)."""
        state = self.sessions.get(session_id)
        if state is not None:
            await state.cancel()

    async def set_session_mode(self, mode_id: str, session_id: str, **kwargs: Any) -> SetSessionModeResponse:
        """Switch the permission mode (``ask``, ``allow``, ``read-only``)."""
        state = self._state(session_id)
        try:
            state.set_mode(mode_id)
        except ValueError as exc:
            raise RequestError.invalid_params(_details(exc)) from None
        return SetSessionModeResponse()

    async def set_config_option(self, config_id: str, session_id: str, value: str | bool,
                                **kwargs: Any) -> SetSessionConfigOptionResponse:
        """Set the model or thinking level."""
        state = self._state(session_id)
        try:
            options = state.set_config_option(config_id, value)
        except ValueError as exc:
            raise RequestError.invalid_params(_details(exc)) from None
        return SetSessionConfigOptionResponse(config_options=options)  # type: ignore[arg-type]

    async def close(self) -> None:
        """Release every session (end of input)."""
        for state in set(self.sessions.values()):
            await state.close()
        self.sessions.clear()
