"""``run_app``: what the CLI launches (the interactive app over a session built after the first paint).

``run_app(options)`` takes the CLI's dict: the ``create_agent_session`` keyword arguments plus ``theme``,
``resume`` and ``initial_messages``; it returns the exit code. ``pi_tui.tui.app`` re-exports it.
"""

from __future__ import annotations

import asyncio
import gc
import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

    from pi_tui.tui.session_protocol import TuiSession


def no_colour_means_none(app: App[Any]) -> None:
    """With ``NO_COLOR`` set, Textual keeps colours as greys (its ``Monochrome`` filter), which a 256-colour
    terminal still receives as colour codes; no-color.org asks for none. Swap in Textual's ``NoColor`` filter
    (default foreground/background; bold, italic, underline and reverse stay). Issue 9."""
    from textual.filter import Monochrome, NoColor

    if app.no_color:
        app._filters = [NoColor() if isinstance(f, Monochrome) else f for f in app._filters]


def freeze_heap() -> None:
    """Move everything alive after start-up (modules, the loaded session) out of the collector's view.

    Full (generation 2) collections otherwise re-scan that heap and stalled the event loop for 100+ ms while
    a long reply streamed; with it frozen the worst pause measured fell to ~30 ms. The collector, off while the
    session was built (:func:`pause_gc_for_start`), is on again from here.
    """
    gc.collect()
    gc.freeze()
    resume_gc()


FULL_COLLECTION_EVERY = 100
"""Young (generation 1) collections between two full ones (CPython's default is 10); see
:func:`space_full_collections`."""


def space_full_collections() -> None:
    """Full (generation 2) collections ten times rarer than CPython's default (issue 15). Once the start-up heap
    is frozen (:func:`freeze_heap`) a full collection scans what was allocated since, which while paging through a
    long session is mostly the rendered lines kept for the items around the view (~25,000 objects): 28-42 CPU ms
    each, every 60 pages (bench: 5 in 300 PageUps through 10,000 messages; none with this, RSS +1 MB). Cyclic
    garbage still goes, only later; reference counting frees everything else at once. ``run_app`` calls it."""
    young, middle, _old = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


_gc_paused_by_start = False


def pause_gc_for_start() -> None:
    """Turn the cyclic collector off until :func:`freeze_heap` (issue 15): building a 10,000-message session
    allocates ~300,000 containers, and the collections they set off re-scanned the growing heap (a second of
    CPU); the one collection in ``freeze_heap`` does that work once, after the transcript is on screen. The app
    calls it before its session factory, and :func:`resume_gc` when no session comes or it is unmounted first."""
    global _gc_paused_by_start
    if gc.isenabled():
        gc.disable()
        _gc_paused_by_start = True


def resume_gc() -> None:
    """The collector on again if :func:`pause_gc_for_start` turned it off (a collector that was off stays off)."""
    global _gc_paused_by_start
    if _gc_paused_by_start:
        _gc_paused_by_start = False
        gc.enable()


def run_app(options: dict[str, Any], theme: str | None = None) -> int:
    """Run the interactive app; ``options`` are the CLI's ``create_agent_session`` kwargs plus ``theme``,
    ``resume`` (open the session picker first), ``initial_messages`` and ``initial_images`` (``@file`` image paths,
attached to the first message). Returns the exit code.

    Theme: ``--theme`` > ``PI_TUI_THEME`` > settings ``theme`` > dark; thinking blocks start hidden when settings
    say ``hideThinkingBlock`` (both are saved again when changed in the app)."""
    from pi_tui.tui.paste_parser import install as read_pastes_whole

    read_pastes_whole()  # bracketed pastes with ESC bytes stay one paste (tester2 #15)
    from pi_tui.tui import terminal_guard

    terminal_guard.install()  # no shown name or label can drive the terminal (tester2 #25)
    space_full_collections()  # issue 15: full collections stalled paging through long sessions
    opts = dict(options)
    theme = theme or opts.pop("theme", None)
    initial = list(opts.pop("initial_messages", None) or [])
    initial_images = list(opts.pop("initial_images", None) or [])  # @file images: pending attachments
    initial_file_text = str(opts.pop("initial_file_text", "") or "")  # @file text blocks: before the first
    typed_ahead = str(opts.pop("typed_ahead", "") or "")  # keys typed before the CLI held the terminal
    resume = bool(opts.pop("resume", False))
    cwd = opts.get("cwd") or os.getcwd()

    async def factory() -> TuiSession:
        from pi_tui.coding.agent_session.factory import create_agent_session
        from pi_tui.coding.session.lock import SessionLockedError
        from pi_tui.tui.modals.trust import ask_project_trust

        trusted = await ask_project_trust(app, cwd, flagged=bool(opts.get("trust_project")))  # before anything loads
        if trusted and theme:
            app.theme_after_trust(theme)  # a project theme loads once the folder is trusted
        # Built in a thread, as a plain factory is (the app runs those in one): on the event loop it froze the
        # first frame, footer included, for the seconds a long session takes to open (new-user run #32).
        try:
            session = await asyncio.to_thread(create_agent_session, **opts)
        except SessionLockedError as exc:  # another live pi-tui writes it: the user decides (issue 9 item 5)
            from pi_tui.tui.modals.lock_choice import LockChoice

            choice = await app.push_screen_wait(LockChoice(exc.summary))
            session = await asyncio.to_thread(create_agent_session, **{**opts, "if_locked": choice or "read-only"})
        # From now on the app edits the session's settings: read after the trust question, so a trusted
        # project's .pi-tui/settings.json is in them (/settings shows where it overrides).
        app.settings_manager = session.settings_manager or app.settings_manager
        if trusted:  # the project's UI settings apply in this run too (new-user run #14)
            from pi_tui.tui.trusted_ui import apply_trusted_ui

            apply_trusted_ui(app, session.settings_manager, explicit_theme)
        return session

    from pi_tui.coding.config.paths import get_agent_dir
    from pi_tui.coding.config.settings import SettingsManager
    from pi_tui.tui.log_setup import configure_logging

    log_file = configure_logging()
    settings = SettingsManager.create(os.path.abspath(cwd), get_agent_dir())
    settings.drain_errors()  # the session's own manager reports the same problems as startup warnings
    explicit_theme = theme or os.environ.get("PI_TUI_THEME")  # wins over every settings file
    theme = explicit_theme or settings.theme
    from pi_tui.tui.app import PiApp
    from pi_tui.tui.controllers.session_preview import preview_path

    app = PiApp(session_factory=factory, theme=theme, cwd=cwd, initial_messages=initial,
                hide_thinking=settings.hide_thinking_block, settings_manager=settings)
    app.log_file = log_file
    app.open_resume_on_start = resume
    app.typed_ahead = typed_ahead
    app.image_attachments.initial_paths = initial_images
    app.initial_file_text = initial_file_text
    app.startup.preview.locate = lambda: preview_path(opts, cwd, settings.session_dir)  # shown while it is built
    from pi_tui.coding.session.lock import release_all

    app.quit_controller.on_settled = release_all  # the session lock is gone before the process is
    try:
        result = app.run()
    finally:
        release_all()
        terminal_guard.uninstall()
        say_unsent(app.quit_controller.unsent_at_exit)
    return int(result or 0)


def say_unsent(texts: list[str]) -> None:
    """Print what was typed and never sent because the app quit before its session existed (on stderr, once
    the terminal is back; nothing when ``texts`` is empty)."""
    import sys

    if texts:
        lines = "\n".join(f"  • {text}" for text in texts)
        print(f"pi-tui quit before the session was ready; not sent:\n{lines}", file=sys.stderr)
