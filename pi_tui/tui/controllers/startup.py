"""``StartupFlow``: how the app gets its session after the first paint.

The app paints first; then this part shows the end of the session file (``SessionPreview``), builds the
session in a thread (it reads settings, auth and the session file), attaches it, starts the extensions, the
localhost probe and the MCP servers, and sends what the CLI and the user gave before the session existed
(initial messages, keys typed ahead, prompts, slash commands and session keys typed during start-up: held by the
submit flow until the extensions are loaded), in order. A session that cannot be built is said once, and what
was typed meanwhile goes back to the editor.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_tui.tui.controllers.session_preview import SessionPreview
from pi_tui.tui.early_input import split_typed_ahead
from pi_tui.tui.launch import freeze_heap, pause_gc_for_start, resume_gc
from pi_tui.tui.session_adapter import maybe_await

if TYPE_CHECKING:
    from pi_tui.tui.app import PiApp
    from pi_tui.tui.session_protocol import TuiSession


class StartupFlow:
    """The start-up steps of ``app`` (a ``PiApp``), run once after its first paint (``after_first_paint``).

    ``branch_source`` is the footer's git branch: a fixed value, or a function of the cwd run in a thread (``git``
    may be slow). ``typed_ahead`` is what was typed before the CLI held the terminal (``early_input``).
    """

    def __init__(self, app: PiApp, branch_source: str | None | Callable[[str], str | None]) -> None:
        self._app = app
        self._branch_source = branch_source
        self._mcp_link: Any = None
        self._mcp_unsubscribe: Callable[[], None] | None = None
        self.preview = SessionPreview(lambda: app.transcript, app.failures.log_only,  # the file's end meanwhile
                                      app.call_after_refresh)

    @property
    def mcp_link(self) -> Any:
        """The session's MCP link once started (``resources`` completion reads its manager), or None."""
        return self._mcp_link

    def mcp_resources(self) -> dict[str, list[Any]]:
        """Server -> listed resources of the MCP link's connected servers (``@server:`` completion; ``{}`` before
        the link exists). The MCP code is imported here, at the first ``@``, not before the first paint."""
        from pi_tui.coding.mcp.resources import listed_resources

        return dict(listed_resources(getattr(self._mcp_link, "manager", None)))

    def take_typed_ahead(self) -> None:
        """Keys typed before the CLI held the terminal: each line ended by Enter is submitted (held until the
        session is ready), the rest goes to the editor (issue 9: type-ahead at launch was lost)."""
        app = self._app
        lines, rest = split_typed_ahead(app.typed_ahead)
        app.typed_ahead = ""
        for line in lines:
            app.submit_flow.submit(line, "steer")
        if rest:
            app.prompt_input.insert(rest)

    def after_first_paint(self) -> None:
        """Start the session worker (called once the first frame is on screen)."""
        self._app.run_worker(self._start_session(), name="session-start", group="startup", exclusive=True)

    async def _start_session(self) -> None:
        app = self._app
        source = self._branch_source
        if callable(source):
            app.run_worker(self._find_branch(source), name="git-branch", group="branch", exclusive=True)
        else:
            app.branch = source
        if app.session is None and app.session_factory is not None:
            await self.preview.show()  # the end of the session file while the session is built (issue 15)
            pause_gc_for_start()  # until freeze_heap below (issue 15)
            try:
                app.session = await maybe_await(await asyncio.to_thread(app.session_factory))
            except Exception as exc:
                resume_gc()
                app.failures.log_only("session start", exc)
                app.session_error = str(exc)
                for warning in app.take_startup_warnings():
                    app.add_notice("warning", warning)
                app.add_notice("error", f"Could not start the session: {exc}")
                self._give_back_pending()
                app.refresh_footer()
                return
        if app.session is None:
            resume_gc()
            app.add_notice("error", "No session")
            self._give_back_pending()
            return
        app.attach_session(app.session)
        try:
            await app.extensions_controller.start(app.session)  # their UI is this app's; session_start
        except Exception as exc:  # never leaves what was typed held for good
            app.failures.report("extensions start", exc)
        app.call_after_refresh(freeze_heap)
        app.submit_flow.starting = False  # from now on what is typed goes straight to the session
        if app.probe_local:
            app.run_worker(self._probe_local(), name="probe-local", group="probe", exclusive=True)
        if app.open_resume_on_start:
            app.run_slash("/resume")
        for index, text in enumerate(app.initial_messages):  # the CLI's @file blocks go with the first one
            await app.submit_flow.submit_text(text, attached=app.initial_file_text if index == 0 else "")
        if app.submit_flow.compaction_queue:  # typed during start-up (commands too): run now, in order
            await app.submit_flow.flush_compaction_queue()

    def _give_back_pending(self) -> None:
        """No session after all: what was typed meanwhile goes back to the editor (never lost)."""
        app = self._app
        app.submit_flow.starting = False
        texts = app.submit_flow.take_compaction_queue()
        if texts:
            app.prompt_input.set_text("\n\n".join([*texts, app.prompt_input.text.strip()]).strip())

    async def _find_branch(self, source: Callable[[str], str | None]) -> None:
        app = self._app
        try:
            app.branch = await asyncio.to_thread(source, app.cwd)
        except Exception as exc:
            app.failures.report("git branch lookup", exc)
            return
        app.refresh_footer()

    async def _probe_local(self) -> None:
        from pi_tui.tui.local_probe import probe_local_servers

        self._app.local_models = await probe_local_servers()

    def start_mcp(self, session: TuiSession) -> None:
        """Start ``session``'s MCP servers in the background once the attached session is on screen, and repaint
        the footer when one changes state. Once per MCP link; a failure is reported.

        Issue 13: the servers must not delay start-up. Their processes (often Python importing the SDK) and the
        SDK import here compete with the app for the CPU, so they start after the first paint that shows the
        session (two refreshes on: the footer repaints one refresh after attaching). A prompt sent before that
        starts them itself (``McpSessionLink.before_prompt``, which waits for them)."""
        link = getattr(session, "mcp", None)
        if link is None or self._mcp_link is link:
            return
        if self._mcp_unsubscribe is not None:
            self._mcp_unsubscribe()
        self._mcp_link = link
        self._mcp_unsubscribe = link.subscribe(lambda _change: self._app.refresh_footer())
        app = self._app
        app.call_after_refresh(lambda: app.call_after_refresh(self._start_link, link))

    def _start_link(self, link: Any) -> None:
        if link is not self._mcp_link:  # another session was attached meanwhile
            return
        try:
            link.start()
        except Exception as exc:  # MCP never stops the app
            self._app.failures.report("MCP start", exc)
