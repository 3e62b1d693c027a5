"""Slash command implementations (pi-reference §3.14 "Slash commands"). Mixin of ``PiApp``.

``run_slash(text)`` returns False when ``text`` is not a known command (the submit flow refuses unknown ones,
``commands.classify_submit``). Messages follow pi: ``✓ New session started``, ``Session name set: …``,
``No agent messages to copy yet.``; ``/name`` alone shows the name (also when there is none, DIFFERENCES.md).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from textual.app import App

if TYPE_CHECKING:
    from pi_tui.tui.session_protocol import TuiSession

from pi_tui.tui import clipboard
from pi_tui.tui.commands import COMMANDS, parse_slash
from pi_tui.tui.keymap import DESCRIPTIONS
from pi_tui.tui.log_setup import log
from pi_tui.tui.session_adapter import maybe_await
from pi_tui.tui.theme_loader import ThemeError, available_themes
from pi_tui.tui.widgets.footer import format_tokens
from pi_tui.tui.widgets.transcript_items import SummaryItem

_Base = App


class SlashActions(_Base):
    """``cmd_<name>(arg)`` for every command in ``commands.COMMANDS``."""

    if TYPE_CHECKING:
        session: TuiSession | None
        transcript: Any
        tool_panel: Any
        queue_view: Any
        status_line: Any
        prompt_input: Any
        keymap: Any
        ctx: Any
        pi_theme: Any
        cwd: str
        working: bool
        local_models: list[Any]
        _last_clear: float
        session_error: str | None

        def add_notice(self, level: str, text: str) -> Any: ...
        def refresh_footer(self) -> None: ...
        def update_offline_notice(self) -> None: ...
        def update_prompt_mode(self) -> None: ...
        def update_title(self) -> None: ...
        def rebuild_transcript(self) -> None: ...
        def set_working(self, working: bool) -> None: ...
        def set_pi_theme(self, name: str) -> None: ...
        def now(self) -> float: ...
        def action_toggle_tools(self) -> None: ...
        def action_quit_app(self) -> None: ...
        async def action_interrupt(self) -> None: ...

    def run_slash(self, text: str) -> bool:
        """Run ``/name [arg]``; False when it is not a command."""
        parsed = parse_slash(text)
        if parsed is None:
            return False
        cmd, arg = parsed
        self.run_worker(self._run_command(cmd.name, arg), group="slash")
        return True

    async def _run_command(self, name: str, arg: str) -> None:
        try:
            await maybe_await(getattr(self, f"cmd_{name}")(arg))
        except Exception as exc:
            log.warning("/%s failed", name, exc_info=exc)
            self.add_notice("error", str(exc))

    def _need_session(self) -> TuiSession | None:
        """The session, or None after telling the user why there is none (still starting / failed)."""
        if self.session is None:
            self.add_notice("error", f"No session: {self.session_error}" if self.session_error
                            else "The session is still starting; try again in a moment.")
        return self.session

    # ------------------------------------------------------------------ commands
    async def cmd_model(self, arg: str) -> None:
        from pi_tui.tui.modals.model_picker import ModelPicker

        session = self._need_session()
        if session is None:
            return
        models = list(session.available_models())
        picker = ModelPicker(models, session.model, self.local_models, query=arg)
        self.push_screen(picker, self._model_chosen)

    def _model_chosen(self, model: Any) -> None:
        if model is None:
            return
        session = self.session
        if session is None:
            return
        allow = getattr(session.models, "allow", None)  # not part of the ModelAccess protocol
        if model in self.local_models and callable(allow):
            allow(model.provider, model.id, model)  # a local server found by the probe needs no key
        try:
            session.set_model(model, announce=False)  # announced once, below
        except Exception as exc:
            log.warning("switching the model failed", exc_info=exc)
            self.add_notice("error", str(exc))
            return
        self.add_notice("status", f"Switched to {model.name or model.id}")
        self.refresh_footer()
        self.update_offline_notice()
        self.update_prompt_mode()

    async def cmd_new(self, arg: str) -> None:
        """``/new``; while the agent works it asks first (abort the run and start new, or cancel). Aborting
        moves the queued messages into the editor, as Escape does."""
        session = self._need_session()
        if session is None:
            return
        if self.working or session.is_streaming:
            from pi_tui.tui.modals.confirm import ConfirmModal

            question = "The agent is still working. Abort the run and start a new session?"
            if not await self.push_screen_wait(ConfirmModal(question, "Abort and start new", "Cancel")):
                self.add_notice("status", "Kept the current session")
                return
            await self.action_interrupt()
            await maybe_await(session.wait_for_idle())
        await maybe_await(session.new_session())
        self.rebuild_transcript()
        self.queue_view.set_queues([], [])
        self.add_notice("info", "✓ New session started")
        self.refresh_footer()

    async def cmd_resume(self, arg: str) -> None:
        from pi_tui.tui.modals.session_picker import SessionPicker

        session = self._need_session()
        if session is None:
            return
        infos = await self._session_infos()
        if not infos:
            self.add_notice("status", "No previous sessions in this project")
            return
        self.push_screen(SessionPicker(infos), self._session_chosen)

    async def _session_infos(self) -> list[Any]:
        """This project's other sessions. Listing reads every session file, so it runs in a thread: keys
        typed meanwhile reach the editor (a large session directory froze the UI)."""
        from pathlib import Path

        from pi_tui.coding.session.listing import list_sessions_in_dir

        if self.session is None:
            return []
        directory = self.session.session_manager.session_dir
        if not directory:
            return []
        current = self.session.session_file
        infos = await asyncio.to_thread(list_sessions_in_dir, Path(directory))
        return [i for i in infos if str(i.path) != str(current)]

    def _session_chosen(self, path: Any) -> None:
        if path is None:
            return

        async def switch() -> None:
            if self.session is None:
                return
            from pi_tui.coding.session.session_manager import SessionManager

            try:
                manager = await asyncio.to_thread(SessionManager.open, path)  # reads the file off the loop
                await self.session.switch_session(path, manager=manager)
            except Exception as exc:
                log.warning("opening a session failed", exc_info=exc)
                self.add_notice("error", f"Could not open session: {exc}")
                return
            self.rebuild_transcript()
            self.add_notice("status", "Resumed session")
            self.refresh_footer()
            self.update_title()

        self.run_worker(switch(), group="slash")

    async def cmd_name(self, arg: str) -> None:
        session = self._need_session()
        if session is None:
            return
        if not arg:
            current = session.session_name
            self.add_notice("info", f"Session name: {current}" if current
                            else "Session name: (unnamed) · /name <name> sets one")
            return
        session.set_session_name(arg)
        self.add_notice("info", f"Session name set: {arg}")
        self.refresh_footer()
        self.update_title()

    async def cmd_session(self, arg: str) -> None:
        session = self._need_session()
        if session is None:
            return
        stats = session.get_session_stats()
        get = stats.get if isinstance(stats, dict) else lambda k, d=None: getattr(stats, k, d)
        tokens = get("tokens", {}) or {}
        cost = get("cost", 0) or 0
        lines = [
            f"Name: {session.session_name or '(unnamed)'}",
            f"File: {get('sessionFile') or 'In-memory'}",
            f"ID: {get('sessionId')}",
            f"Messages: {get('userMessages', 0)} user, {get('assistantMessages', 0)} assistant, "
            f"{get('toolCalls', 0)} tool calls, {get('totalMessages', 0)} total",
            f"Tokens: ↑{format_tokens(tokens.get('input', 0))} ↓{format_tokens(tokens.get('output', 0))} "
            f"R{format_tokens(tokens.get('cacheRead', 0))} W{format_tokens(tokens.get('cacheWrite', 0))}",
            f"Cost: ${float(cost):.3f}",
        ]
        self.transcript.add(SummaryItem("session", "\n\n".join(lines), collapsed_by_default=False))

    async def cmd_compact(self, arg: str) -> None:
        session = self._need_session()
        if session is None:
            return
        await maybe_await(session.compact(arg or None))

    async def cmd_export(self, arg: str) -> None:
        """pi's ``/export [path]``: HTML to any path (or one HTML file at the default place when no path is
        given); a ``.md`` path gets the Markdown transcript (a pi-tui addition). The file is rendered and
        written in a thread (a long session's HTML is large): the UI keeps taking keys."""
        session = self._need_session()
        if session is None:
            return
        if arg.lower().endswith(".md"):
            path = await asyncio.to_thread(session.export_markdown, arg)
        else:
            path = await asyncio.to_thread(session.export_html, arg or None)
        self.add_notice("info", f"Session exported to: {path}")

    async def cmd_copy(self, arg: str) -> None:
        session = self._need_session()
        if session is None:
            return
        text = session.get_last_assistant_text()
        if not text:
            self.add_notice("info", "No agent messages to copy yet.")
            return
        self.add_notice("info", await clipboard.copy_text(text, self.copy_to_clipboard))

    async def cmd_theme(self, arg: str) -> None:
        from pathlib import Path

        names = available_themes(Path(self.cwd))
        if not arg:
            from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry

            entries = [PickerEntry(n, n, current=n == self.pi_theme.name) for n in names]

            def chosen(name: Any) -> None:
                if name:
                    self.run_worker(self._run_command("theme", str(name)), group="slash")

            self.push_screen(FuzzyPicker("Select theme", entries), chosen)
            return
        try:
            self.set_pi_theme(arg)
        except ThemeError as exc:
            self.add_notice("error", str(exc))
            return
        self.add_notice("status", f"Theme: {self.pi_theme.name}")

    async def cmd_tools(self, arg: str) -> None:
        self.action_toggle_tools()

    async def cmd_hotkeys(self, arg: str) -> None:
        km = self.keymap
        rows = ["| Key | Action |", "|---|---|"]
        for action, desc in DESCRIPTIONS.items():
            rows.append(f"| {km.display(action)} | {desc} |")
        rows.append("")
        rows.append("Slash commands: " + ", ".join(f"`{c.usage or '/' + c.name}`" for c in COMMANDS))
        rows.append("")
        rows.append("Home/End on an empty editor scroll to the top/bottom; Tab completes a slash command. "
                    "Click a tool line or an artifact card to expand it, a message to collapse its thinking. "
                    "Keys can be changed in `keybindings.json` (pi's action ids).")
        item = SummaryItem("hotkeys", "\n".join(rows), collapsed_by_default=False)
        self.transcript.add(item)
        self.transcript.scroll_end_now()

    async def cmd_quit(self, arg: str) -> None:
        self.action_quit_app()
