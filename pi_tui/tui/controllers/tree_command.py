"""``/tree``: the session tree screen and what choosing an entry does (pi 0.73.1 ``showTreeSelector``;
pi-reference §3.14 "/tree"; pi docs/sessions.md).

Choosing the current position says ``Already at this point``. Otherwise, when the branch being left has
entries and ``branchSummary.skipPrompt`` is off, pi's question ``Summarize branch?`` offers ``No summary`` /
``Summarize`` / ``Summarize with custom prompt`` (the last asks for instructions; Escape goes back to the
question, Escape on the question back to the tree at the same entry). The navigation runs in a worker with
``Summarizing branch... (Esc to cancel)`` shown while the model writes the summary (Escape aborts it and
the tree comes back). Afterwards the transcript shows the new branch, a chosen user message's text is put
in the editor when the editor is empty, and ``Navigated to selected point`` is shown. pi-tui: a branch with
nothing to summarise is left without the question (pi asks anyway), and the tree refuses to move while the
agent works.
"""

from __future__ import annotations

from typing import Any

from pi_tui.coding.session.tree_view import build_tree_view
from pi_tui.tui.controllers.host import AppHost, need_session, session_working
from pi_tui.tui.log_setup import log

SUMMARY_CHOICES = ("No summary", "Summarize", "Summarize with custom prompt")


class TreeCommand:
    """``/tree`` for the ``host`` app (:meth:`run`, :meth:`open`, :meth:`navigate`)."""

    def __init__(self, host: AppHost) -> None:
        self.host = host

    async def run(self, arg: str = "", context: Any = None) -> None:
        """``/tree``: open the screen (``arg`` is ignored, as in pi)."""
        self.open()

    def _settings(self) -> Any:
        return getattr(self.host.session, "settings_manager", None)

    def open(self, selected_id: str | None = None) -> None:
        """Push the tree screen (starting on ``selected_id`` or the current position)."""
        from pi_tui.tui.modals.session_tree import SessionTreeScreen

        host = self.host
        session = need_session(host)
        if session is None:
            return
        manager = session.session_manager
        if not manager.get_entries():
            host.add_notice("status", "No entries in session")
            return
        settings = self._settings()
        mode = str(getattr(settings, "tree_filter_mode", "default")) if settings is not None else "default"

        def on_label(entry_id: str, label: str | None) -> None:
            try:
                session.set_entry_label(entry_id, label)
            except Exception as exc:  # an entry that vanished (session switched): say so, keep the app
                log.warning("setting a label failed", exc_info=exc)
                host.add_notice("error", f"Could not set the label: {exc}")
                return
            host.rebuild_transcript()

        screen = SessionTreeScreen(
            lambda filter_mode, search: build_tree_view(session.session_manager, filter_mode, search),
            host.keymap, host.pi_theme, on_label=on_label, filter_mode=mode, selected_id=selected_id,
        )
        host.push_screen(screen, lambda entry_id: self._chosen(entry_id, screen.late_keys))

    def _chosen(self, entry_id: str | None, late_keys: list[tuple[str, str | None]] | None = None) -> None:
        """The tree closed on ``entry_id``: keys typed from its Enter on (``late_keys``, then the editor's) are
        held until the jump has set the editor text, then replayed after it (issue 9)."""
        if entry_id is None:
            return
        self.host.prompt_input.hold_keys(late_keys if late_keys is not None else [])
        self.host.run_worker(self._navigate_then_release(entry_id), group="tree")

    async def _navigate_then_release(self, entry_id: str) -> None:
        try:
            await self.navigate(entry_id)
        finally:
            self.host.prompt_input.release_keys()

    async def _ask_summary(self, entry_id: str) -> tuple[bool, str | None] | None:
        """``(summarize, custom instructions)``, or None to go back to the tree."""
        from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry
        from pi_tui.tui.modals.text_prompt import TextPromptModal

        host = self.host
        while True:
            entries = [PickerEntry(label=c, value=c) for c in SUMMARY_CHOICES]
            choice = await host.push_screen_wait(FuzzyPicker("Summarize branch?", entries))
            if choice is None:
                return None
            if choice != "Summarize with custom prompt":
                return choice == "Summarize", None
            instructions = await host.push_screen_wait(
                TextPromptModal("Custom summarization instructions", multiline=True))
            if instructions is not None:
                return True, instructions.strip() or None

    async def navigate(self, entry_id: str) -> None:
        """What choosing ``entry_id`` in the tree does (module docstring)."""
        host = self.host
        session = need_session(host)
        if session is None:
            return
        if entry_id == session.session_manager.get_leaf_id():
            host.add_notice("status", "Already at this point")
            return
        if session_working(host, session):
            what = "compacting the context" if host.compacting or session.is_compacting else "working"
            host.add_notice("warning", f"The agent is {what}: wait for it (or press Esc to stop it), then use /tree")
            return
        settings = self._settings()
        skip = bool(settings.get_branch_summary_settings().get("skipPrompt")) if settings is not None else False
        summarize, instructions = False, None
        if not skip and session.branch_entries_to_summarize(entry_id) > 0:
            answer = await self._ask_summary(entry_id)
            if answer is None:
                self.open(entry_id)
                return
            summarize, instructions = answer
        if summarize:
            host.show_status(f"Summarizing branch... ({host.keymap.first('app.interrupt')} to cancel)")
        try:
            result = await session.navigate_tree(entry_id, summarize=summarize, custom_instructions=instructions)
        except Exception as exc:
            log.warning("tree navigation failed", exc_info=exc)
            host.add_notice("error", str(exc))
            return
        finally:
            if summarize:
                host.clear_status()
        if result.get("aborted"):
            host.add_notice("status", "Branch summarization cancelled")
            self.open(entry_id)
            return
        if result.get("cancelled"):
            host.add_notice("status", "Navigation cancelled")
            return
        host.rebuild_transcript()
        editor_text = result.get("editorText")
        if editor_text and not host.prompt_input.text.strip():
            host.prompt_input.set_text(editor_text)
        host.add_notice("status", "Navigated to selected point")
        host.refresh_footer()
