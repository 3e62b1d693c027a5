"""``SlashCommandHandlers``: the built-in slash commands (pi-reference §3.14 "Slash commands").

They are registered into the app's ``CommandRegistry`` (``source="builtin"``) exactly as extensions register
theirs, so the palette, completion, ``/hotkeys`` and dispatch see one list. Messages follow pi: ``✓ New
session started``, ``Session name set: …``, ``No agent messages to copy yet.``; ``/name`` alone shows the name
(also when there is none, DIFFERENCES.md). Each handler takes the argument text (after the command name,
stripped) and the front end's context (unused by the built-ins); one that raises is reported by the runner.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any

from pi_tui.coding.extensions.registries import CommandRegistry, CommandSpec
from pi_tui.tui import clipboard
from pi_tui.tui.commands import BUILTIN_COMMANDS
from pi_tui.tui.controllers.host import AppHost, need_session, session_working
from pi_tui.tui.controllers.session_switch import SessionSwitchCommands
from pi_tui.tui.controllers.tree_command import TreeCommand
from pi_tui.tui.keymap import DESCRIPTIONS, SCREEN_DESCRIPTIONS
from pi_tui.tui.log_setup import log
from pi_tui.tui.session_adapter import maybe_await
from pi_tui.tui.theme_loader import ThemeError, available_themes
from pi_tui.tui.widgets.footer import format_tokens
from pi_tui.tui.widgets.transcript_items import SummaryItem

Handler = Callable[[str, Any], Awaitable[None]]


class SlashCommandHandlers:
    """The built-in commands' handlers, by command name (:meth:`handlers`), registered with :meth:`register`.

    Given: the ``host``; ``interrupt()`` (Escape's abort, used by ``/new`` while the agent works);
    ``toggle_tools()`` (``/tools``); ``quit()`` (``/quit``); ``run_command(name, arg)`` (runs a command in a
    worker, reporting failures: the theme picker's choice goes through it); ``command_usages()`` (the usage
    texts ``/hotkeys`` lists); ``more``: handlers of built-ins that live in other parts, by name.
    """

    def __init__(self, host: AppHost, *, interrupt: Callable[[], Awaitable[None]], toggle_tools: Callable[[], None],
                 quit: Callable[[], None], run_command: Callable[[str, str], None],
                 command_usages: Callable[[], list[str]], more: dict[str, Handler] | None = None) -> None:
        self.host = host
        self._more = dict(more or {})  # handlers of built-ins that live in other parts (/settings, ...)
        self._interrupt = interrupt
        self._toggle_tools = toggle_tools
        self._quit = quit
        self._run_command = run_command
        self._command_usages = command_usages
        self.tree_command = TreeCommand(host)
        self.switching = SessionSwitchCommands(host, interrupt=interrupt)  # /resume, /fork, /clone

    def handlers(self) -> dict[str, Handler]:
        """``{name: handler(arg, context)}`` for every built-in command (``commands.BUILTIN_COMMANDS``)."""
        return {
            "model": self.model, "new": self.new, "resume": self.switching.resume, "name": self.name,
            "fork": self.switching.fork, "clone": self.switching.clone,
            "session": self.session, "compact": self.compact, "export": self.export, "copy": self.copy,
            "theme": self.theme, "tools": self.tools, "mcp": self.mcp, "hotkeys": self.hotkeys,
            "changelog": self.changelog,
            "quit": self.quit, "tree": self.tree_command.run, **self._more,
        }

    def register(self, registry: CommandRegistry) -> list[str]:
        """Register every built-in into ``registry`` (``source="builtin"``, declaration order). A built-in
        takes its name back from a command registered earlier (pi: an extension command named like a
        built-in is skipped); the warnings for those are returned ("Extension command '/x' conflicts ...")."""
        from pi_tui.coding.resources.commands import builtin_clash_warning
        from pi_tui.tui.controllers.argument_completions import builtin_argument_completions

        handlers = self.handlers()
        completions = builtin_argument_completions(self.host)
        warnings = []
        for decl in BUILTIN_COMMANDS:
            taken = registry.get(decl.name)
            if taken is not None and taken.source == "template":  # the same words as /reload (tester2 #21)
                warnings.append(builtin_clash_warning(decl.name, taken.owner or f"/{decl.name}"))
            elif taken is not None and taken.source != "builtin":
                who = f" ({taken.owner})" if taken.owner else ""
                warnings.append(f"{taken.source.capitalize()} command '/{decl.name}'{who} conflicts with a "
                                "built-in command; the built-in is kept.")
            registry.register(CommandSpec(decl.name, decl.description, handlers[decl.name], usage=decl.usage,
                                          source="builtin", get_argument_completions=completions.get(decl.name)),
                              replace=True)
        return warnings

    # ------------------------------------------------------------------ model
    async def model(self, arg: str, context: Any = None) -> None:
        """``/model [search]``: an exact ``provider/id`` or a unique exact id (case-insensitive) switches at
        once, anything else opens the model picker filtered by ``arg`` (pi 0.73.1 ``handleModelCommand``:
        ``findExactModelReferenceMatch`` over the scoped models, else the available ones; new-user run #15)."""
        from pi_tui.coding.config.model_resolver import find_exact_model_reference
        from pi_tui.tui.modals.model_picker import ModelPicker

        session = need_session(self.host)
        if session is None:
            return
        registry = getattr(getattr(session, "models", None), "registry", None)
        if registry is not None and hasattr(registry, "refresh"):
            registry.refresh()  # pi 0.82.0: /model reads an edited models.json again
        models = list(session.available_models())
        if arg.strip():
            scoped = [s.model for s in getattr(session, "scoped_models", [])]
            exact = find_exact_model_reference(arg, scoped or [*models, *self.host.local_models])
            if exact is not None:
                self._model_chosen(exact)
                return
        picker = ModelPicker(models, session.model, self.host.local_models, query=arg)
        self.host.push_screen(picker, self._model_chosen)

    def _model_chosen(self, model: Any) -> None:
        host = self.host
        session = host.session
        if model is None or session is None:
            return
        allow = getattr(session.models, "allow", None)  # not part of the ModelAccess protocol
        if model in host.local_models and callable(allow):
            allow(model.provider, model.id, model)  # a local server found by the probe needs no key
        try:
            session.set_model(model, announce=False)  # announced once, below
        except Exception as exc:
            log.warning("switching the model failed", exc_info=exc)
            host.add_notice("error", str(exc))
            return
        host.add_notice("status", f"Switched to {model.name or model.id}")
        host.refresh_footer()
        host.update_offline_notice()
        host.update_prompt_mode()

    # ------------------------------------------------------------------ sessions
    async def new(self, arg: str, context: Any = None) -> None:
        """``/new``; while the agent works it asks first (abort the run and start new, or cancel). Aborting
        moves the queued messages into the editor, as Escape does."""
        host = self.host
        session = need_session(host)
        if session is None:
            return
        if session_working(host, session):
            from pi_tui.tui.modals.confirm import ConfirmModal

            question = "The agent is still working. Abort the run and start a new session?"
            if not await host.push_screen_wait(ConfirmModal(question, "Abort and start new", "Cancel")):
                host.add_notice("status", "Kept the current session")
                return
            await self._interrupt()
            await maybe_await(session.wait_for_idle())
        await maybe_await(session.new_session())
        host.rebuild_transcript()
        host.queue_view.set_queues([], [])
        host.add_notice("info", "✓ New session started")
        host.refresh_footer()

    async def name(self, arg: str, context: Any = None) -> None:
        """``/name [name]``: set the session name, or show it."""
        host = self.host
        session = need_session(host)
        if session is None:
            return
        if not arg:
            current = session.session_name
            host.add_notice("info", f"Session name: {current}" if current
                            else "Session name: (unnamed) · /name <name> sets one")
            return
        session.set_session_name(arg)
        host.add_notice("info", f"Session name set: {arg}")
        host.refresh_footer()
        host.update_title()

    async def session(self, arg: str, context: Any = None) -> None:
        """``/session``: session info and statistics."""
        session = need_session(self.host)
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
        self.host.transcript.add(SummaryItem("session", "\n\n".join(lines), collapsed_by_default=False))

    async def compact(self, arg: str, context: Any = None) -> None:
        """``/compact [instructions]``; while the agent works it asks first, as /new does (pi aborts the run
        unasked: tester3 #16), and the stopped run's queued messages go to the editor, as Escape's abort does."""
        host = self.host
        session = need_session(host)
        if session is None:
            return
        refusal = getattr(session, "compaction_refusal", lambda: None)()
        if session_working(host, session) and not (host.compacting or session.is_compacting) and refusal is None:
            from pi_tui.tui.modals.confirm import ConfirmModal

            question = "The agent is still working. Abort the run and compact the context?"
            if not await host.push_screen_wait(ConfirmModal(question, "Abort and compact", "Cancel")):
                host.add_notice("status", "Kept the run going")
                return
            await self._interrupt()
            await maybe_await(session.wait_for_idle())
        await maybe_await(session.compact(arg or None))

    async def export(self, arg: str, context: Any = None) -> None:
        """pi's ``/export [path]``: HTML to any path (or one HTML file at the default place when no path is
        given); a ``.md`` path gets the Markdown transcript (a pi-tui addition). The file is rendered and
        written in a thread (a long session's HTML is large): the UI keeps taking keys."""
        session = need_session(self.host)
        if session is None:
            return
        from pi_tui.coding.export import default_export_path

        markdown = arg.lower().endswith(".md")
        target = arg or default_export_path(session, "html")
        replaced = await asyncio.to_thread(os.path.exists, target)  # said, never silent (new-user run #21)
        if markdown:
            path = await asyncio.to_thread(session.export_markdown, target)
        else:
            theme = self.host.pi_theme  # the page takes the colours the user sees (pi: the current theme)
            path = await asyncio.to_thread(session.export_html, target, str(theme.path or theme.name))
        self.host.add_notice("info", f"Session exported to: {path}" + (" (replaced the file there)" if replaced
                                                                          else ""))

    async def copy(self, arg: str, context: Any = None) -> None:
        """``/copy``: the last answer to the clipboard."""
        host = self.host
        session = need_session(host)
        if session is None:
            return
        text = session.get_last_assistant_text()
        if not text:
            host.add_notice("info", "No agent messages to copy yet.")
            return
        host.add_notice("info", await clipboard.copy_text(text, host.copy_to_clipboard))

    # ------------------------------------------------------------------ the app itself
    async def theme(self, arg: str, context: Any = None) -> None:
        """``/theme [name]``: switch theme (a picker without a name)."""
        from pathlib import Path

        host = self.host
        names = available_themes(Path(host.cwd))
        if not arg:
            from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry

            entries = [PickerEntry(n, n, current=n == host.pi_theme.name) for n in names]

            def chosen(name: Any) -> None:
                if name:
                    self._run_command("theme", str(name))

            host.push_screen(FuzzyPicker("Select theme", entries), chosen)
            return
        try:
            host.set_pi_theme(arg)
        except ThemeError as exc:
            host.add_notice("error", str(exc))
            return
        host.add_notice("status", f"Theme: {host.pi_theme.name}")

    async def tools(self, arg: str, context: Any = None) -> None:
        """``/tools``: show/hide the tool-call panel."""
        self._toggle_tools()

    async def mcp(self, arg: str, context: Any = None) -> None:
        """``/mcp``: the MCP servers screen (``tui/modals/mcp.py``) over the session's MCP link."""
        from pi_tui.tui.modals.mcp import McpScreen

        session = need_session(self.host)
        if session is None:
            return
        link = getattr(session, "mcp", None)
        if link is None:
            self.host.add_notice("status", "MCP is not available in this session")
            return
        words = arg.split()  # `/mcp login NAME` (pi 1.x): the screen, signing in to NAME at once
        self.host.push_screen(McpScreen(link, sign_in=words[1] if len(words) == 2 and words[0] == "login" else None))

    async def changelog(self, arg: str, context: Any = None) -> None:
        """``/changelog``: pi-tui's CHANGELOG.md in a scrollable screen (``tui/modals/changelog.py``; pi's
        "What's New"). The file is read in a thread."""
        from pi_tui.coding.changelog import changelog_markdown
        from pi_tui.tui.modals.changelog import ChangelogScreen

        self.host.push_screen(ChangelogScreen(await asyncio.to_thread(changelog_markdown)))

    async def hotkeys(self, arg: str, context: Any = None) -> None:
        """``/hotkeys``: the keymap (built-in keys, then the extensions' shortcuts) and the slash commands."""
        host = self.host
        km = host.keymap
        rows = ["| Key | Action |", "|---|---|"]
        for action, desc in {**DESCRIPTIONS, **SCREEN_DESCRIPTIONS}.items():
            rows.append(f"| {km.display(action)} | {desc} |")
        if km.added:  # extension shortcuts, from the same keymap (pi's /hotkeys has an extensions section)
            rows += ["", "Extension shortcuts:", "", "| Key | Action |", "|---|---|"]
            rows += [f"| {km.display(action)} | {desc} |" for action, desc in km.added.items()]
        rows.append("")
        rows.extend(f"Warning: {text}" for text in km.conflicts)  # a key two actions claim (keymap_conflicts)
        rows.append("Slash commands: " + ", ".join(f"`{usage}`" for usage in self._command_usages()))
        rows.append("")
        rows.append("Home/End on an empty editor scroll to the top/bottom; Tab completes a slash command. "
                    "Click a tool line or an artifact card to expand it, a message to collapse its thinking. "
                    "Keys can be changed in `keybindings.json` (pi's action ids).")
        item = SummaryItem("hotkeys", "\n".join(rows), collapsed_by_default=False)
        host.transcript.add(item)
        host.transcript.scroll_end_now()

    async def quit(self, arg: str, context: Any = None) -> None:
        """``/quit``: the safe quit path."""
        self._quit()
