"""``/resume``, ``/fork`` and ``/clone`` in the app (pi-reference §3.4, pi 0.73.1 docs/sessions.md, issue 12).

Each goes through the same ``AgentSession`` call as RPC and extensions (``switch_session``, ``fork``, ``clone``),
so ``session_before_switch``/``session_before_fork`` fire and may cancel; the app then redraws the transcript
from the new session. Messages follow pi: ``Resumed session``, ``Forked to new session`` (the message's text in
the editor), ``Cloned to new session``, ``No messages to fork from``, ``Nothing to clone yet``.
While the agent works, ``/resume``, ``/fork`` and ``/clone`` ask first (abort the run, or keep it), as ``/new``
does; the stopped run's queued messages stay in the editor.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pi_tui.tui.controllers.host import AppHost, need_session, session_working
from pi_tui.tui.log_setup import log
from pi_tui.tui.session_adapter import maybe_await
from pi_tui.tui.transcript_builder import compaction_note


class SessionSwitchCommands:
    """The handlers of ``/resume``, ``/fork`` and ``/clone``. Given: the ``host``; ``interrupt()`` (Escape's
    abort); ``sessions_root()`` (the folder of every project's sessions, for the picker's all-folders view)."""

    def __init__(self, host: AppHost, *, interrupt: Callable[[], Any],
                 sessions_root: Callable[[], Path] | None = None) -> None:
        self.host = host
        self._interrupt = interrupt
        self._sessions_root = sessions_root

    async def _stop_run_first(self, what: str) -> str | None:
        """Ask before a switch while the agent works: None when the user keeps the run (nothing is done then);
        else the editor's text after the run was stopped (Escape's abort moves the queued messages there), ""
        when nothing was running. The switch keeps that text in the editor (tester3 #8: the queued messages
        were lost by /resume, /fork and /clone)."""
        host = self.host
        session = host.session
        if session is None or not session_working(host, session):
            return ""
        from pi_tui.tui.modals.confirm import ConfirmModal

        question = f"The agent is still working. Abort the run and {what}?"
        if not await host.push_screen_wait(ConfirmModal(question, "Abort and go on", "Cancel")):
            host.add_notice("status", "Kept the current session")
            return None
        await maybe_await(self._interrupt())
        await maybe_await(session.wait_for_idle())
        return host.prompt_input.text

    def _redraw(self, status: str) -> None:
        host = self.host
        host.rebuild_transcript()
        host.queue_view.set_queues([], [])
        host.add_notice("status", status)
        host.refresh_footer()
        host.update_title()

    # ------------------------------------------------------------------ /fork and /clone
    async def fork(self, arg: str, context: Any = None) -> None:
        """``/fork``: the picker of the current branch's user messages (``ForkPicker``)."""
        from pi_tui.tui.modals.fork_picker import ForkPicker

        session = need_session(self.host)
        if session is None:
            return
        messages = session.get_fork_messages(branch_only=True)
        if not messages:
            self.host.add_notice("status", "No messages to fork from")
            return
        picker = ForkPicker(messages)
        self.host.push_screen(picker, lambda entry_id: self._fork_chosen(entry_id, picker.late_keys))

    def _fork_chosen(self, entry_id: Any, late_keys: list[tuple[str, str | None]] | None = None) -> None:
        if entry_id is not None:  # keys typed while the fork is made (and behind the picker's Enter) follow
            self.host.prompt_input.hold_keys(late_keys)  # the text it puts in the editor
            self.host.run_worker(self._then_release(self.fork_at(str(entry_id))), group="slash")

    async def _then_release(self, work: Any) -> None:
        """Run ``work``, then replay the keys held meanwhile after the editor text it set (issue 9)."""
        try:
            await work
        finally:
            self.host.prompt_input.release_keys()

    async def fork_at(self, entry_id: str) -> None:
        """Fork before the user message ``entry_id``: a new session file, that message's text in the editor."""
        host = self.host
        session = host.session
        kept = None if session is None else await self._stop_run_first("fork")
        if session is None or kept is None:
            return
        try:
            result = await session.fork(entry_id)
        except Exception as exc:
            log.warning("forking failed", exc_info=exc)
            host.add_notice("error", f"Could not fork: {exc}")
            return
        if result.get("cancelled"):
            host.add_notice("status", "Fork cancelled by an extension")
            return
        self._redraw("Forked to new session")
        host.prompt_input.set_text("\n\n".join(t for t in (str(result.get("text") or ""), kept) if t.strip()))

    async def clone(self, arg: str, context: Any = None) -> None:
        """``/clone``: the current branch copied into a new session file."""
        host = self.host
        session = need_session(host)
        if session is None:
            return
        if session.session_manager.get_leaf_id() is None:
            host.add_notice("status", "Nothing to clone yet")
            return
        kept = await self._stop_run_first("clone the session")
        if kept is None:
            return
        host.prompt_input.hold_keys()  # what is typed while the copy is made is not wiped by the clear below
        try:
            await self._clone(session, kept)
        finally:
            host.prompt_input.release_keys()

    async def _clone(self, session: Any, kept: str = "") -> None:
        host = self.host
        try:
            result = await session.clone()
        except Exception as exc:
            log.warning("cloning failed", exc_info=exc)
            host.add_notice("error", f"Could not clone: {exc}")
            return
        if result.get("cancelled"):
            host.add_notice("status", "Clone cancelled by an extension")
            return
        self._redraw("Cloned to new session")
        host.prompt_input.set_text(kept)  # the stopped run's queued messages stay (else the editor is cleared)

    # ------------------------------------------------------------------ /resume
    async def resume(self, arg: str, context: Any = None) -> None:
        """``/resume`` (and ``-r``): the session picker of this folder, the open session marked (also with no
        session here: ``No sessions in this folder · Tab shows every folder``, as pi's selector)."""
        from pi_tui.tui.modals.resume_picker import ResumePicker

        session = need_session(self.host)
        if session is None:
            return
        infos = await self._session_infos()
        current = session.session_file
        # with none here the picker still opens (pi): it says so, and Tab lists every folder's sessions
        picker = ResumePicker(infos, self._sources(), current_path=current, keymap=self.host.keymap)
        self.host.push_screen(picker, self._session_chosen)

    async def _session_infos(self) -> list[Any]:
        """This folder's sessions. Listing reads every session file, so it runs in a thread: keys typed
        meanwhile reach the editor (a large session directory froze the UI)."""
        from pi_tui.coding.session import listing

        session = self.host.session
        directory = session.session_manager.session_dir if session is not None else None
        if session is None or not directory:
            return []
        cwd = session.session_manager.get_cwd()
        return await asyncio.to_thread(listing.list_sessions_in_dir, Path(directory),
                                       listing.folder_scope(Path(directory), cwd))

    def _sources(self) -> Any:
        from pi_tui.coding.config.paths import get_sessions_dir
        from pi_tui.coding.session import listing
        from pi_tui.coding.session.preview import session_preview
        from pi_tui.tui.modals.resume_picker import ResumeSources

        root = self._sessions_root or get_sessions_dir
        session = self.host.session
        directory = session.session_manager.session_dir if session is not None else None
        custom = None
        if session is not None and directory and listing.folder_scope(Path(directory), session.cwd):
            custom = Path(directory)

        def load_all() -> list[Any]:
            infos = listing.list_all_sessions(root())
            if custom is not None and custom.parent != root():  # a custom session dir: its sessions too (pi 0.77.0)
                infos = sorted([*infos, *listing.list_sessions_in_dir(custom)], key=lambda i: i.modified, reverse=True)
            return infos

        return ResumeSources(load_all=load_all, load_preview=session_preview, rename=self._rename,
                             delete=self._delete)

    def _is_open(self, path: str) -> bool:
        current = self.host.session.session_file if self.host.session is not None else None
        return bool(current) and os.path.realpath(str(current)) == os.path.realpath(path)

    async def _rename(self, path: str, name: str) -> str:
        """The open session is renamed through the session (footer and title follow); another file gets a
        ``session_info`` entry appended (pi's rename)."""
        from pi_tui.coding.session.file_actions import rename_session_file

        session = self.host.session
        if session is not None and self._is_open(path):
            session.set_session_name(name)
            self.host.refresh_footer()
            self.host.update_title()
            return session.session_name or name
        return await asyncio.to_thread(rename_session_file, path, name)

    async def _delete(self, path: str) -> str:
        from pi_tui.coding.session.file_actions import delete_session_file

        if self._is_open(path):
            raise ValueError("it is the open session")
        return await asyncio.to_thread(delete_session_file, path)

    def _session_chosen(self, path: Any) -> None:
        if path is None:
            return
        host = self.host
        if self._is_open(str(path)):
            host.add_notice("status", "That session is already open")
            return

        async def switch() -> None:
            if host.session is None or await self._stop_run_first("open that session") is None:
                return  # while the agent works it asks first, as /new does (tester3 #8)
            from pi_tui.coding.session.session_manager import SessionManager

            try:
                manager = await asyncio.to_thread(SessionManager.open, path)  # reads the file off the loop
                await host.session.switch_session(path, manager=manager)
            except Exception as exc:
                log.warning("opening a session failed", exc_info=exc)
                host.add_notice("error", f"Could not open session: {exc}")
                return
            host.rebuild_transcript()
            note = compaction_note(host.session)  # pi: shown when a session is opened
            host.add_notice("status", "Resumed session" + (f" · {note[0].lower()}{note[1:]}" if note else ""))
            started_in = manager.get_cwd()
            if started_in and not _same_folder(started_in, host.session.cwd):
                host.add_notice("warning", f"This session was started in {started_in}; tools and context files "
                                f"still use {host.session.cwd}.")
            host.refresh_footer()
            host.update_title()

        host.run_worker(switch(), group="slash")


def _same_folder(a: str, b: str) -> bool:
    """Whether two folder paths name the same folder (symlinks resolved)."""
    return os.path.realpath(a) == os.path.realpath(b)
