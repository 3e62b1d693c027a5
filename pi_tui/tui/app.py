"""The pi-tui Textual app (``run_app``, what the CLI launches, lives in ``launch`` and is re-exported here).

The app paints first and creates the session right after the first paint (so startup is as fast as a minimal
Textual app), then probes localhost for OpenAI-compatible servers in a worker. What its keys, commands and
quit paths do lives in ``pi_tui.tui.controllers``.

Layout (top to bottom): header, transcript (+ tool panel on the right when shown), status line, queued
messages, prompt editor, footer (pi-reference §3.14).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal

from pi_tui import __version__
from pi_tui.coding.agent_session.shutdown import session_busy
from pi_tui.coding.extensions.registries import CommandSpec
from pi_tui.tui.commands import SlashCommandProvider, classify_submit, usage_line
from pi_tui.tui.controllers.command_runner import AppCommands, SlashRunner
from pi_tui.tui.controllers.editor_completion import attach_completion
from pi_tui.tui.controllers.extensions import ExtensionsController
from pi_tui.tui.controllers.images import ImageAttachments
from pi_tui.tui.controllers.key_actions import KeyActions
from pi_tui.tui.controllers.prompt_mode import prompt_mode
from pi_tui.tui.controllers.quit import QuitController, SignalHandlers
from pi_tui.tui.controllers.settings_commands import SettingsCommands
from pi_tui.tui.controllers.slash_commands import SlashCommandHandlers
from pi_tui.tui.controllers.startup import StartupFlow
from pi_tui.tui.controllers.submit import SubmitController
from pi_tui.tui.controllers.user_bash import BashRunner
from pi_tui.tui.key_routing import editor_takes_key
from pi_tui.tui.keymap import Keymap, load_keymap
from pi_tui.tui.launch import no_colour_means_none, resume_gc
from pi_tui.tui.launch import run_app as run_app  # re-exported: the CLI and tests import it from here
from pi_tui.tui.log_setup import FailureReporter
from pi_tui.tui.modals import arrival_guard
from pi_tui.tui.screen_cancel import escape_for
from pi_tui.tui.session_adapter import cwd_display, footer_data, git_branch
from pi_tui.tui.session_title import app_title
from pi_tui.tui.session_view import SessionView
from pi_tui.tui.theme_loader import PiTheme, ThemeError, find_theme, to_textual_theme
from pi_tui.tui.transcript_builder import compaction_note, items_for_session
from pi_tui.tui.widgets.attachment_bar import AttachmentBar
from pi_tui.tui.widgets.footer import Footer
from pi_tui.tui.widgets.header import Header, offline_notice
from pi_tui.tui.widgets.message_render import RenderContext
from pi_tui.tui.widgets.prompt_input import PromptInput
from pi_tui.tui.widgets.queue_view import QueueView
from pi_tui.tui.widgets.status_line import StatusLine
from pi_tui.tui.widgets.tool_panel import ToolPanel
from pi_tui.tui.widgets.transcript import Transcript
from pi_tui.tui.widgets.transcript_items import NoticeItem, ToolItem, UserItem

if TYPE_CHECKING:
    from textual.worker import Worker

    from pi_tui.tui.session_protocol import TuiSession

SessionFactory = Callable[[], "TuiSession | Awaitable[TuiSession]"]

NARROW_WIDTH = 100  # columns; below it the tool panel covers the transcript while open
SHORT_HEIGHT = 20  # rows; below it the header is one truncated line
TINY_HEIGHT = 9  # rows; below it the header is hidden


OWNERSHIP_CHECK_S = 2.0
"""How often (seconds) the app checks that another window has not taken its session over."""


class PiApp(App[int]):
    """The interactive app. Inject ``session`` or ``session_factory`` (tests inject a scripted session).

    ``cwd_label``/``branch`` fix the footer's location text (deterministic snapshots); ``probe_local`` turns
    the localhost server probe on; ``spin`` turns the spinner on; ``show_timing=False`` hides elapsed times;
    ``agent_dir_label`` replaces the agent directory shown in the offline notice.

    The app's behaviour lives in parts (``pi_tui.tui.controllers``) built here with the app as their ``AppHost``:
    ``submit_flow``, ``key_actions``, ``slash_runner`` + ``builtin_commands``, ``quit_controller``; the
    ``action_*`` methods and message handlers Textual looks up on the App delegate to them.
    """

    TITLE = "π"
    COMMANDS = {SlashCommandProvider}  # the app's commands only (not Textual's Keys/Screenshot/...)
    COMMAND_PALETTE_BINDING = "f1"
    # Narrow terminals: the tool panel covers the transcript at full width instead of squeezing it into a few
    # columns (its own layer, so the transcript keeps its width and does not re-wrap); wide ones keep the column.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW_WIDTH, "-wide")]
    # Short terminals: the header is one truncated line and the queue area is capped; tiny ones hide the header
    # and the queue and keep one footer line (model, tokens), so the editor and footer always stay on screen
    # (fixed-height rows would otherwise push them off the bottom; the transcript keeps at least one row).
    VERTICAL_BREAKPOINTS = [(0, "-tiny"), (TINY_HEIGHT, "-short"), (SHORT_HEIGHT, "-tall")]
    CSS = """
    Screen { layout: vertical; }
    #main { height: 1fr; }
    Screen.-narrow #main { layers: default panel; }
    Screen.-narrow ToolPanel { layer: panel; width: 100%; min-width: 0; border-left: none; }
    Screen.-short Header { height: 1; }
    Screen.-tiny Header { display: none; }
    Screen.-short QueueView { max-height: 2; }
    Screen.-tiny QueueView { max-height: 0; }
    Screen.-tiny Footer { height: 1; }
    App:nocolor TextArea > .text-area--cursor, App:nocolor Input > .input--cursor { text-style: reverse; }
    App:nocolor OptionList > .option-list--option-highlighted { text-style: bold underline; }
    App:nocolor TextArea > .text-area--selection { text-style: reverse; }
    ToastRack { dock: top; align: right top; margin-bottom: 0; margin-top: 1; }
    """  # toasts (ctx.ui.notify, failures) at the top right, under the header: never over the editor (issue 12)
    # The panel toggle and every other app key come from the keymap (the editor runs them; ``on_event`` hands
    # them to the editor when something else has focus), so a remapped key works everywhere and the default
    # one is not left wired up.
    BINDINGS = [
        Binding("escape", "focus_input", "Back to the editor", show=False),
    ]

    def __init__(
        self,
        session: TuiSession | None = None,
        session_factory: SessionFactory | None = None,
        theme: str | None = None,
        cwd: str | None = None,
        cwd_label: str | None = None,
        branch: str | None | Callable[[str], str | None] = git_branch,
        keymap: Keymap | None = None,
        probe_local: bool = True,
        spin: bool = True,
        initial_messages: list[str] | None = None,
        escape_delay: float = 0.05,
        hide_thinking: bool = False,
        show_timing: bool = True,
        agent_dir_label: str | None = None,
        settings_manager: Any = None,
    ) -> None:
        self.settings_manager = settings_manager  # a SettingsManager: /theme and Ctrl+T are saved there (pi)
        self.keymap = keymap or load_keymap()
        palette_keys = self.keymap.keys.get("app.commandPalette") or []
        if palette_keys:
            self.COMMAND_PALETTE_BINDING = ",".join(palette_keys)  # type: ignore[misc]  # read by App.__init__
        super().__init__()
        no_colour_means_none(self)
        self.session: TuiSession | None = session
        self.session_factory = session_factory
        self.cwd = cwd or getattr(session, "cwd", None) or os.getcwd()
        self.cwd_label = cwd_label if cwd_label is not None else cwd_display(self.cwd)
        self.branch: str | None = None
        self.probe_local = probe_local
        self.spin = spin
        self.initial_messages = list(initial_messages or [])
        self.escape_delay = escape_delay
        self.theme_warning: str | None = None
        self.pi_theme = self._load_theme(theme or os.environ.get("PI_TUI_THEME") or "dark")
        self.ctx = RenderContext(self.pi_theme, hide_thinking=hide_thinking, show_timing=show_timing)
        self.ctx.expand_key = self.keymap.first("app.tools.expand")  # every hint names the keymap's key
        self.ctx.interrupt_key = self.keymap.first("app.interrupt")
        self._apply_textual_theme()  # before the first style pass (switching later restyles everything)
        self.view = SessionView(self)
        self.working = False
        self.compacting = False  # between compaction_start and compaction_end
        self._shown_saving = True  # what the editor title and footer last said of SessionOwnership.saving
        self.bash_running = False  # a user ``!cmd`` runs (Escape cancels it)
        self.local_models: list[Any] = []
        self._unsubscribe: Callable[[], None] | None = None
        self.session_ready = False
        self.agent_dir_label = agent_dir_label
        self.open_resume_on_start = False
        self.initial_file_text = ""  # the CLI's @file text blocks, sent in front of the first initial message
        self.typed_ahead = ""  # keys typed before the terminal was held (``early_input``): taken on mount
        self.session_error: str | None = None
        self._startup_warnings: list[str] = []
        self._footer_pending = False
        self._multi_provider: bool | None = None  # computed once per session (available models)
        self._ui_ready = False
        self._view_out_of_step = False  # a session listener failure left the transcript out of step
        self.session_changed = asyncio.Event()  # set after each session event and worker state change
        self.failures = FailureReporter(lambda text: self.notify(text, severity="error", timeout=15),
                                        log_file=lambda: self.log_file)
        self.log_file: Any = None  # the log file's path once ``run_app`` configured it
        self._bash_mode = False  # the editor's text starts with ``!`` (its title says so)
        self.startup = StartupFlow(self, branch)  # builds the session after the first paint
        self._build_parts()

    def _build_parts(self) -> None:
        """The app's parts, each given what it needs (see ``pi_tui.tui.controllers``)."""
        self.quit_controller = QuitController(lambda: self.session, lambda text: self.status_line.show(text),
                                              self.exit, held=lambda: self.submit_flow.take_compaction_queue())
        self.signal_handlers = SignalHandlers(self.quit_controller.request_quit)
        self.app_commands = AppCommands()
        self.slash_runner = SlashRunner(self, lambda: self.app_commands.registry, lambda: self)
        self.attachment_bar = AttachmentBar(self.pi_theme)  # images for the next message (controllers/images.py)
        self.image_attachments = ImageAttachments(self, self.attachment_bar, self.settings_manager)
        self.submit_flow = SubmitController(self, lambda text: classify_submit(text, self.slash_commands()),
                                            self.slash_runner.run_slash, BashRunner(self), self.session_changed,
                                            images=self.image_attachments)
        self.key_actions = KeyActions(self, submit=self.submit_flow.submit,
                                      take_local_queue=self.submit_flow.take_compaction_queue,
                                      quit=self.action_quit_app, run_slash=self.slash_runner.run_slash,
                                      open_palette=self.action_command_palette,
                                      hold=self.submit_flow.hold_until_session)
        self.slash_runner.hold, self.submit_flow.run_action = self.submit_flow.hold_command, self.dispatch_action
        self.settings_commands = SettingsCommands(  # /settings, /scoped-models, the app's part of /reload
            self, settings_manager=lambda: self.settings_manager,
            set_hide_thinking=lambda hidden: self.key_actions.toggle_thinking()
            if hidden != self.ctx.hide_thinking else None)
        self.builtin_commands = SlashCommandHandlers(
            self, interrupt=self.key_actions.interrupt, toggle_tools=self.key_actions.toggle_tools,
            quit=self.action_quit_app, run_command=self.slash_runner.run_command,
            command_usages=lambda: [usage_line(c) for c in self.slash_commands()],
            more={"settings": self.settings_commands.settings,
                  "scoped-models": self.settings_commands.scoped_models})
        self.builtin_commands.register(self.app_commands.registry)
        self.extensions_controller = ExtensionsController(self)

    def slash_commands(self) -> list[CommandSpec]:
        """Every slash command (``AppCommands.all``): dispatch, Tab completion, the F1 palette and ``/hotkeys``
        read this one list, so a command an extension, template or skill registers shows up everywhere."""
        return self.app_commands.all()

    # ------------------------------------------------------------------ setup
    def _load_theme(self, name: str) -> PiTheme:
        try:
            return find_theme(name, _cwd_path(self.cwd))
        except ThemeError as exc:
            self.theme_warning = str(exc)
            return find_theme("dark")

    def key_hints(self) -> str:
        """The header's key hints, from the keymap as it is now (a remap in keybindings.json shows after /reload)."""
        km = self.keymap
        return (f"{km.first('tui.input.submit')} send · {km.first('app.model.select')} model · "
                f"{km.first('app.tools.expand')} expand · {km.first('app.tools.panel')} tools · "
                f"{km.first('app.commandPalette')} commands · /hotkeys")

    def refresh_key_hints(self) -> None:
        """Show the keymap's keys again where they are named (the header; after ``/reload`` re-read the keys)."""
        self.header_widget.hints = self.key_hints()
        self.header_widget.refresh(layout=True)

    def compose(self) -> ComposeResult:
        km = self.keymap
        self.header_widget = Header(self.pi_theme, __version__, self.key_hints())
        self.transcript = Transcript(self.ctx, bottom_key=km.first("app.scroll.bottom"))
        self.tool_panel = ToolPanel(self.pi_theme, show_timing=self.ctx.show_timing,
                                    toggle_key=km.first("app.tools.panel"))
        self.status_line = StatusLine(self.pi_theme, spin=self.spin)
        self.transcript.on_flush = self.status_line.join_frame  # one screen update for both while streaming
        self.queue_view = QueueView(self.pi_theme, dequeue_key=km.first("app.message.dequeue"))
        self.prompt_input = PromptInput(km, escape_delay=self.escape_delay, slash_commands=self.slash_commands,
                                        id="prompt")
        self.completion_list = attach_completion(self.prompt_input, lambda: self.pi_theme, self.slash_commands,
                                                 lambda: self.cwd, self.failures.report,
                                                 resources=self.startup.mcp_resources,
                                                 max_visible=lambda: getattr(self.settings_manager, "autocomplete_max_visible", 5))
        self.footer = Footer(self.pi_theme)
        yield self.header_widget
        yield self.extensions_controller.parts.header_slot  # an extension's header (ctx.ui.set_header)
        with Horizontal(id="main"):
            yield self.transcript
            yield self.tool_panel
        yield self.status_line
        yield self.queue_view
        yield self.extensions_controller.widgets_above
        yield self.attachment_bar
        yield self.prompt_input
        yield self.completion_list
        yield self.extensions_controller.widgets_below
        yield self.footer
        yield self.extensions_controller.parts.footer_slot  # an extension's footer (ctx.ui.set_footer)

    def on_mount(self) -> None:
        self._ui_ready = True
        self.image_attachments.mount()  # editor hooks, image previews from settings
        self.signal_handlers.install()
        self.prompt_input.focus()
        self.startup.take_typed_ahead()
        self.update_prompt_mode()
        self.refresh_footer()
        # Shown once the session's transcript is in place (attaching rebuilds the transcript).
        self._startup_warnings = [w for w in [self.theme_warning, *self.keymap.warnings] if w]
        self.call_after_refresh(self.startup.after_first_paint)
        self.set_interval(OWNERSHIP_CHECK_S, self.check_ownership)  # a take-over by another window is said at once

    def check_ownership(self) -> None:
        """Is this window still the session's writer? When another pi-tui took the session over, its warning is
        shown now (``SessionOwnership.check``), not after the next prompt ran (issue 9 new-user run)."""
        ownership = getattr(self.session, "ownership", None)
        if ownership is None:
            return
        try:
            ownership.check(getattr(self.session, "session_file", None))
        except Exception as exc:  # a lock file that cannot be read never stops the app
            self.failures.report("session lock check", exc)
        if ownership.saving != self._shown_saving:  # the editor title and the footer say read-only (or no longer)
            self._shown_saving = ownership.saving
            self.update_prompt_mode()
            self.refresh_footer()

    def _not_saving(self) -> bool:
        ownership = getattr(self.session, "ownership", None)
        return ownership is not None and not getattr(ownership, "saving", True)

    def take_startup_warnings(self) -> list[str]:
        """The start-up warnings not yet shown (theme, keymap), emptied: each is shown once."""
        warnings, self._startup_warnings = self._startup_warnings, []
        return warnings

    def attach_session(self, session: TuiSession) -> None:
        """Subscribe to ``session`` and show its messages."""
        # What the app said before the first session was attached (an unknown command typed during start-up,
        # /hotkeys) is in no session: kept across the rebuild, after the session's messages (issue 9 new-user run)
        first = self._unsubscribe is None
        said_before = self.startup.preview.said_before(self.transcript.items) if first else []
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.session = session
        self._unsubscribe = session.subscribe(self._on_session_event)
        self._multi_provider = None
        self.session_ready = True
        self.rebuild_transcript()
        self.transcript.extend(said_before)
        note = compaction_note(session)  # pi shows it when a session is opened
        if note:
            self.add_notice("status", note)
        warnings = [*self.take_startup_warnings(), *session.startup_warnings,
                    *self.app_commands.adopt(getattr(session, "commands", None), self.builtin_commands.register)]
        for warning in warnings:
            self.add_notice("warning", str(warning))
        self.startup.start_mcp(session)
        self.settings_commands.attach(session)  # /reload also reloads keybindings and the theme here
        self.refresh_footer()
        self.update_offline_notice()
        self.update_title()

    def rebuild_transcript(self) -> None:
        """Re-create every item from the session (its messages and compacted history; session switch, compaction)."""
        self.view.reset()
        items = items_for_session(self.session) if self.session is not None else []
        self.transcript.replace_items(items, self.startup.preview.take_shown())  # a reader keeps the place (issue 9)
        # pi's renderInitialMessages adds the prompts it renders to the editor history (Up after -c / a switch)
        self.prompt_input.seed_history(item.text for item in items if isinstance(item, UserItem))
        tools = [item for item in items if isinstance(item, ToolItem)]
        for item in tools:
            self.view.tools[item.tool_call_id] = item
        self.tool_panel.set_calls(tools)

    # ------------------------------------------------------------------ key routing
    async def on_event(self, event: events.Event) -> None:
        """Typed text, Enter, pastes and app keys reach the editor whatever has focus (``key_routing``); Ctrl+C
        closes an open screen as Escape does (``screen_cancel``)."""
        if self._ui_ready and isinstance(event, events.Key | events.Paste) and not event.is_forwarded:
            editor = self.prompt_input
            if arrival_guard.holds(self.screen):  # a dialog that just appeared: typing goes on in the editor
                editor._forward_event(event)
                return
            escape = (escape_for(event, self.screen, self.screen_stack[0], self.keymap)
                      if isinstance(event, events.Key) else None)
            if escape is not None:
                if not editor.text.strip():  # a second Ctrl+C quits; never over a draft
                    self.key_actions.last_clear = self.now()
                event.stop()
                if not await self._check_bindings("escape"):  # its Escape binding at once: a second key finds
                    await super().on_event(escape)  # the screen closed; else its own Escape key handling
                return
            if (self.focused is not editor and editor.screen is self.screen
                    and (isinstance(event, events.Paste)
                         or editor_takes_key(event, self.keymap, busy=session_busy(self.session)))):
                editor.focus()
                editor._forward_event(event)
                return
        await super().on_event(event)

    # ------------------------------------------------------------------ state shown around the editor
    def show_status(self, text: str) -> None:
        """A transient status line above the editor (a branch summary's progress)."""
        self.status_line.show(text)

    def clear_status(self) -> None:
        """Remove the status line (back to "Working..." while the agent runs)."""
        if self.working:
            self.status_line.show("Working...")
        else:
            self.status_line.clear()

    def set_working(self, working: bool) -> None:
        """Agent run started/ended: status line and the editor's mode hint."""
        self.working = working
        if working:
            self.status_line.show("Working...")
        elif not self.compacting:  # a compaction the run's end started keeps its status line (tester3 #16)
            self.status_line.clear()
        self.update_prompt_mode()

    def update_prompt_mode(self) -> None:
        """Border title says what the next Enter does; border colour is the thinking level (pi)."""
        session = self.session
        title, colour = prompt_mode(
            self.keymap, self.pi_theme, self.prompt_input.text if self._ui_ready else "",
            working=self.working, compacting=self.compacting, bash_running=self.bash_running,
            retry_countdown=(bool(getattr(session, "is_retrying", False))
                             and not getattr(session, "is_streaming", False)),
            thinking_level=session.thinking_level if session is not None else "off",
            read_only=self._not_saving())
        self.prompt_input.border_title = title
        if colour:
            self.prompt_input.styles.border = ("round", colour)

    def refresh_footer(self) -> None:
        """Recompute the footer from the session after the next screen refresh (coalesced; called after
        events, never on a timer), so a reply is painted before the session's statistics are summed."""
        if not self._ui_ready or self._footer_pending:
            return
        self._footer_pending = True
        self.call_after_refresh(self._refresh_footer_now)

    def _refresh_footer_now(self) -> None:
        self._footer_pending = False
        if self._multi_provider is None and self.session_ready:
            self._multi_provider = len({m.provider for m in self._safe_models()}) > 1
        data = footer_data(self.session, self.cwd_label, self.branch, bool(self._multi_provider),
                           starting=self.session_error is None)
        data.statuses = dict(self.extensions_controller.statuses)  # extension status segments (pi)
        self.footer.set_data(data)
        self.extensions_controller.parts.footer_changed()  # a custom footer renders again

    def _on_session_event(self, event: Any) -> None:
        """The session listener: apply ``event`` to the widgets; a failure is logged and shown once (it used
        to reach only an unconfigured logger under Textual's stderr redirect, and nobody saw it)."""
        etype = getattr(event, "type", None)
        try:
            self.view.handle(event)
        except Exception as exc:
            self._view_out_of_step = True
            self.failures.report("session listener", exc, detail=f"event {etype}")
        finally:
            self.session_changed.set()  # wakes ``wait_for_session``
        if self._view_out_of_step and etype == "agent_end":
            self._resync_transcript()

    def _resync_transcript(self) -> None:
        """After a listener failure the transcript may miss or half-show items: once the run ends, rebuild it
        from the session's messages so the screen is back in step."""
        self._view_out_of_step = False
        try:
            self.rebuild_transcript()
            self.set_working(False)
        except Exception as exc:
            self.failures.report("transcript rebuild", exc)

    def _safe_models(self) -> list[Any]:
        if self.session is None:
            return []
        try:
            return list(self.session.available_models())
        except Exception as exc:
            self.failures.report("model list", exc)
            return []

    def update_offline_notice(self) -> None:
        """Header second line while the offline model is active."""
        offline = self.session is not None and self.session.is_offline_model
        if offline:
            from pi_tui.coding.config.paths import get_agent_dir

            label = self.agent_dir_label or cwd_display(str(get_agent_dir()))
            self.header_widget.set_notice(offline_notice(label))
        else:
            self.header_widget.set_notice(None)

    def update_title(self) -> None:
        """Terminal title ``π - <session name> - <cwd basename>`` (pi)."""
        self.title = app_title(self.session.session_name if self.session is not None else None, self.cwd)

    def add_notice(self, level: str, text: str) -> NoticeItem:
        """A status/info/warning/error line in the transcript (not persisted)."""
        item = NoticeItem(level, text)
        return self.transcript.add(item)  # type: ignore[return-value]

    # ------------------------------------------------------------------ theme
    def _apply_textual_theme(self) -> None:
        theme = to_textual_theme(self.pi_theme)
        if theme.name not in self.available_themes or self.get_theme(theme.name) != theme:
            self.register_theme(theme)  # again when its file changed (/reload)
        if self.theme == theme.name:
            self.refresh_css()
        self.theme = theme.name

    def theme_after_trust(self, name: str) -> None:
        """The folder was trusted at start-up: the theme asked for (a project theme the loader had to leave out
        while the folder was untrusted, ``theme_loader.theme_dirs``, or the trusted project settings' theme)
        applies now and its warning goes."""
        if self.pi_theme.name == name:
            return
        try:
            self.set_pi_theme(name, save=False)
        except ThemeError:
            return
        self._startup_warnings = [w for w in self._startup_warnings if w != self.theme_warning]
        self.theme_warning = None

    def set_pi_theme(self, name: str, save: bool = True) -> None:
        """Switch theme (``/theme``): Textual theme, Rich styles, every widget; raises ``ThemeError``.
        ``save=False``: not written to settings.json (the /settings preview, /reload, a trusted project's theme)."""
        self.pi_theme = find_theme(name, _cwd_path(self.cwd))
        self.ctx.set_theme(self.pi_theme)
        for widget in (self.header_widget, self.tool_panel, self.status_line, self.queue_view, self.footer):
            widget.pi_theme = self.pi_theme
            widget.refresh()
        self._apply_textual_theme()
        self.transcript.invalidate_all()
        self.update_prompt_mode()
        self.tool_panel.update_calls()
        if save:
            self.save_setting("set_theme", name)

    def save_setting(self, setter: str, *args: Any) -> None:
        """``settings_manager.<setter>(*args)``: saved to the global settings.json at once (unknown keys and the
        project file are kept; pi-reference §3.16); a failed save is shown as a warning."""
        manager = self.settings_manager
        if manager is None:
            return
        getattr(manager, setter)(*args)
        for error in manager.drain_errors():
            self.add_notice("warning", str(error))

    def on_unmount(self) -> None:
        resume_gc()  # the app ended before freeze_heap ran
        self.signal_handlers.remove()
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def now(self) -> float:
        """Monotonic clock (double-press detection)."""
        return time.monotonic()

    # ------------------------------------------------------------------ delegates to the parts
    def on_prompt_input_action_requested(self, message: PromptInput.ActionRequested) -> None:
        message.stop()
        if message.text is not None:  # submit / follow-up: the text the editor held at that key
            self.submit_flow.submit(message.text,
                                    "follow_up" if message.action == "app.message.followUp" else "steer")
        elif message.action == "app.clear" and message.cleared:
            self.key_actions.clear(clear_editor=False)
        else:
            self.dispatch_action(message.action)

    def on_prompt_input_slash_choices(self, message: PromptInput.SlashChoices) -> None:
        message.stop()
        self.add_notice("status", "Commands: " + "  ".join(message.choices))

    def on_text_area_changed(self, event: Any) -> None:
        if event.text_area is self.prompt_input and self._bash_mode != self.prompt_input.text.startswith("!"):
            self._bash_mode = not self._bash_mode
            self.update_prompt_mode()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker started or ended: wake ``wait_for_session`` waiters (no polling)."""
        self.session_changed.set()

    def dispatch_action(self, action: str) -> None:
        """Run a pi action id or an extension shortcut (from the editor or the palette)."""
        if not (self.extensions_controller.run_shortcut(action) or self.image_attachments.dispatch(action)):
            self.key_actions.dispatch(action)

    def run_slash(self, text: str) -> bool:
        """Run ``/name [arg]``; False when it is not a command."""
        return self.slash_runner.run_slash(text)

    async def submit_text(self, text: str, behaviour: str = "steer", as_message: bool = False) -> None:
        """The submit flow (``SubmitController.submit_text``)."""
        await self.submit_flow.submit_text(text, behaviour, as_message)

    @property
    def compaction_queue(self) -> list[tuple[str, str]]:
        """``(behaviour, text)`` typed while compacting (``SubmitController``)."""
        return self.submit_flow.compaction_queue

    async def flush_compaction_queue(self, will_retry: bool = False) -> None:
        """Send what was typed during compaction (``SubmitController.flush_compaction_queue``)."""
        await self.submit_flow.flush_compaction_queue(will_retry)

    def action_focus_input(self) -> None:
        """Escape outside the editor (tool panel): back to the editor."""
        self.prompt_input.focus()

    def action_quit_app(self) -> None:
        """Quit (Ctrl+D on an empty editor, Ctrl+C twice, /quit): save what was shown, then exit."""
        self.quit_controller.request_quit()

    async def action_quit(self) -> None:
        """Textual's own quit (Ctrl+Q, the palette's "Quit"): the same safe path."""
        self.quit_controller.request_quit()


def _cwd_path(cwd: str) -> Any:
    from pathlib import Path

    return Path(cwd)
