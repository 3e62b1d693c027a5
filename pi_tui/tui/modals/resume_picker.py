"""``/resume`` and ``-r``: the session picker with a preview (pi 0.73.1 session selector + issue 12).

The list (``resume_rows``) shows this folder's sessions, the open one marked; beside it (under it on a narrow
screen) a preview of the highlighted session: its name, folder, counts and times, then its last messages
(``coding.session.preview``). Keys (the keymap's ``SCREEN_KEYS``, remappable, listed in /hotkeys):

* Tab: this folder / every folder (the other folders are listed in a worker the first time);
* Ctrl+S: threaded (forks under their parent) / most recent; Ctrl+N: named sessions only; Ctrl+P: file paths;
* Ctrl+O: show the one-shot ``-p`` runs (hidden by default, pi-tui's own);
* Ctrl+R: rename (a ``session_info`` entry, pi's rename); Ctrl+D (or Ctrl+Backspace on an empty filter): delete
  after a confirmation (never the open session, never one another pi-tui holds).

Typing filters; Enter resumes the highlighted session (the screen is dismissed with its path), Escape closes
(``None``). Everything slow (listing, previews, delete, rename) runs off the event loop: the picker stays
responsive with hundreds of sessions. Previews are loaded only for the highlighted row, cached per file.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from pi_tui.tui.keymap import Keymap
from pi_tui.tui.modals.keyed_list import FilterList
from pi_tui.tui.modals.resume_rows import (
    ResumeFilters,
    ResumeRow,
    canonical,
    resume_rows,
    row_renderable,
    session_label,
    short_path,
)
from pi_tui.tui.widgets.ordered_input import OrderedInput

PICKER_ACTIONS = (
    "tui.input.tab", "app.session.toggleSort", "app.session.toggleNamedFilter", "app.session.togglePath",
    "app.session.togglePrintRuns", "app.session.rename", "app.session.delete", "app.session.deleteNoninvasive",
)
NARROW = 100  # columns below which the preview goes under the list
LIST_ROWS = 10  # rows the list keeps before a preview under it gets any
_ROLE_LABELS = {"user": "You", "assistant": "Assistant", "bash": "Shell", "summary": "Summary"}


class PreviewPane(Widget):
    """The preview text, drawn in a fixed region: a new preview repaints this widget only (``Static.update``
    re-laid out the whole screen on every move; ``bench/resume_picker.py``). Text past the bottom is cut."""

    DEFAULT_CSS = "PreviewPane { width: 1fr; height: 1fr; }"

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = Text("")

    def show(self, text: Text) -> None:
        """Draw ``text`` (wrapped to the pane's width)."""
        self._text = text
        self.refresh()

    def render(self) -> Text:
        return self._text


@dataclass
class ResumeSources:
    """What the picker reads and changes, given by its owner (blocking calls run in threads here):
    ``load_all()`` → every folder's ``SessionInfo`` list; ``load_preview(path)`` → ``PreviewMessage`` list;
    ``rename(path, name)`` → the stored name (async; raises with a message); ``delete(path)`` → ``"trash"`` or
    ``"unlink"`` (async; raises with a message)."""

    load_all: Callable[[], list[Any]]
    load_preview: Callable[[str], list[Any]]
    rename: Callable[[str, str], Awaitable[str]]
    delete: Callable[[str], Awaitable[str]]


class ResumePicker(ModalScreen[str | None]):
    """Dismisses with the chosen session file path (str) or ``None``. ``infos``: this folder's sessions;
    ``current_path``: the open session's file (marked, never deleted); ``keymap``: the app's."""

    DEFAULT_CSS = """
    ResumePicker { align: center middle; }
    ResumePicker > Vertical {
        width: 96%; max-width: 170; height: 90%; border: round $border; background: $surface; padding: 0 1;
    }
    ResumePicker #resume-title { height: 1; }
    ResumePicker Input, ResumePicker Input:focus { border: none; height: 1; padding: 0 1; }
    ResumePicker #resume-body { height: 1fr; }
    ResumePicker #resume-list, ResumePicker #resume-list:focus { width: 3fr; height: 1fr; border: none; }
    ResumePicker #resume-list {  /* one line per session, laid out for a width a scrollbar does not change */
        text-wrap: nowrap; text-overflow: ellipsis; scrollbar-gutter: stable;
    }
    ResumePicker #resume-preview { width: 2fr; height: 1fr; border-left: vkey $border; padding: 0 0 0 1; }
    ResumePicker #resume-body.stacked { layout: vertical; }
    ResumePicker #resume-body.stacked #resume-list { width: 1fr; }
    ResumePicker #resume-body.stacked #resume-preview {
        width: 1fr; height: 11; border-left: none; border-top: hkey $border; padding: 0;
    }
    ResumePicker #resume-status { height: 1; }
    ResumePicker #resume-hint { height: auto; color: $text-muted; }
    ResumePicker.-short #resume-hint, ResumePicker.-tiny #resume-hint { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    BINDINGS = [Binding("escape", "cancel", "Close", show=False)]

    def __init__(self, infos: list[Any], sources: ResumeSources, *, current_path: Any = None,
                 keymap: Keymap | None = None) -> None:
        super().__init__()
        self.sources = sources
        self.keymap = keymap or Keymap()
        self.current_path = str(current_path) if current_path else None
        self.scope = "current"
        self.filters = ResumeFilters()
        self.show_path = False
        self.sessions: dict[str, list[Any] | None] = {"current": list(infos), "all": None}
        self.rows: list[ResumeRow] = []
        self.previews: dict[str, list[Any]] = {}
        self.listing = False
        """Every folder's sessions are being read (not ``Widget.loading``: that covered the screen with a loading
        indicator, which took the keyboard from the filter; new-user run #43)."""
        self._status_timer: Any = None
        self._rows_width = 0

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="resume-title")
            yield OrderedInput(placeholder="type to filter", id="resume-filter",
                               key_handler=self.take_key)  # keys in typing order (new-user run #24)
            with Horizontal(id="resume-body"):
                yield FilterList(id="resume-list")  # the filter keeps the keyboard (new-user run #43)
                with Vertical(id="resume-preview"):
                    yield PreviewPane(id="resume-preview-text")
            yield Static(id="resume-status")
            yield Static(id="resume-hint")

    def on_mount(self) -> None:
        self._layout_for(self.size.width)
        self.call_after_refresh(self._fit_preview)
        self._refresh_rows(first=True)
        field = self.query_one(Input)
        field.cursor_blink = False  # a steady cursor, as the editor's (and a stable snapshot)
        field.focus()

    def on_resize(self, event: events.Resize) -> None:
        self._layout_for(event.size.width)
        self.call_after_refresh(self._rows_fit)
        self.call_after_refresh(self._fit_preview)

    def _fit_preview(self) -> None:
        """Under the list (a narrow screen), the preview takes what the list leaves beyond
        :data:`LIST_ROWS` rows, at most 11, and goes away below 4: on a short terminal the list keeps its rows
        (new-user run #11: at 60x16 one session row was left, the preview had the rest)."""
        bodies = self.query("#resume-body")
        if not bodies:
            return
        body = bodies.first()
        preview = self.query_one("#resume-preview")
        if not body.has_class("stacked"):
            preview.styles.height = None
            preview.display = True
            return
        rows = min(11, body.size.height - LIST_ROWS)
        preview.display = rows >= 4
        if rows >= 4:
            preview.styles.height = rows

    def _rows_fit(self) -> None:
        """Rows are laid out for the list's width: draw them again when it changed."""
        width = self.query_one(OptionList).scrollable_content_region.width  # inside the scrollbar gutter
        if width > 0 and width != self._rows_width:
            row = self.highlighted_row
            self._refresh_rows(keep=str(row.info.path) if row is not None else None)

    def _layout_for(self, width: int) -> None:
        for body in self.query("#resume-body"):  # none while the screen is torn down
            body.set_class(width < NARROW, "stacked")

    def _colors(self) -> tuple[str, str]:
        variables = self.app.get_css_variables()
        return variables.get("accent", "cyan"), variables.get("text-warning", "yellow")

    def _title(self) -> Text:
        title = Text("Resume session ", style="bold")
        title.append("(this folder)" if self.scope == "current" else "(all folders)", style="bold")
        if self.listing:
            title.append("  loading…", style="italic")
        f = self.filters
        parts = [f"Sort: {f.sort}", f"Name: {'named' if f.named_only else 'all'}",
                 f"-p runs: {'shown' if f.show_print_runs else 'hidden'}"]
        title.append("   " + " · ".join(parts), style="dim")
        return title

    def _hint(self) -> str:
        km = self.keymap
        return (f"↑↓ select · Enter resume · Esc close · {km.first('tui.input.tab')} folders · "
                f"{km.first('app.session.toggleSort')} sort · {km.first('app.session.toggleNamedFilter')} named · "
                f"{km.first('app.session.togglePrintRuns')} -p runs · {km.first('app.session.togglePath')} path · "
                f"{km.first('app.session.rename')} rename · {km.first('app.session.delete')} delete")

    # ------------------------------------------------------------------ rows
    @property
    def highlighted_row(self) -> ResumeRow | None:
        """The highlighted row (``None`` when the list is empty)."""
        index = self.query_one(OptionList).highlighted
        return self.rows[index] if index is not None and 0 <= index < len(self.rows) else None

    def _empty_text(self) -> str:
        if self.listing:
            return "Loading sessions…"
        if self.filters.query.strip():
            return "No matching sessions"
        if self.scope == "current":
            return f"No sessions in this folder · {self.keymap.first('tui.input.tab')} shows every folder"
        return "No sessions found"

    def _refresh_rows(self, keep: str | None = None, first: bool = False) -> None:
        infos = self.sessions[self.scope] or []
        self.rows = resume_rows(infos, self.filters, self.current_path)
        accent, warning = self._colors()
        ol = self.query_one(OptionList)
        ol.clear_options()
        show_cwd = self.scope == "all"
        width = max(20, ol.scrollable_content_region.width or self.size.width // 2)
        self._rows_width = width
        if self.rows:
            ol.add_options([Option(row_renderable(r, show_cwd=show_cwd, show_path=self.show_path, accent=accent,
                                                  warning=warning, width=width)) for r in self.rows])
        else:
            ol.add_option(Option(Text("  " + self._empty_text(), style="dim italic"), disabled=True))
        paths = [canonical(r.info.path) for r in self.rows]
        index = 0
        if keep is not None and canonical(keep) in paths:
            index = paths.index(canonical(keep))
        elif first or not self.filters.query.strip():
            index = next((i for i, r in enumerate(self.rows) if not r.current), 0)
        if self.rows:
            ol.highlighted = index
        self.query_one("#resume-title", Static).update(self._title())
        self.query_one("#resume-hint", Static).update(self._hint())
        self._show_preview()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_preview()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.filters = replace(self.filters, query=event.value)
        self._refresh_rows()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._choose(self.highlighted_row)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(self.rows[event.option_index] if 0 <= event.option_index < len(self.rows) else None)

    def _choose(self, row: ResumeRow | None) -> None:
        if row is not None:
            self.dismiss(str(row.info.path))

    def action_cancel(self) -> None:
        self.dismiss(None)

    # ------------------------------------------------------------------ preview
    def _preview_head(self, info: Any, current: bool) -> Text:
        accent, warning = self._colors()
        text = Text()
        text.append(session_label(info), style=f"bold {warning}" if info.name else "bold")
        text.append("\n")
        facts = [short_path(info.cwd) if info.cwd else "", f"{info.message_count} messages",
                 f"last {info.modified:%Y-%m-%d %H:%M}", f"started {info.created:%Y-%m-%d %H:%M}"]
        text.append(" · ".join(f for f in facts if f), style="dim")
        if current:
            text.append("\nthe open session", style=accent)
        if getattr(info, "print_run", False):
            text.append("\none-shot -p run", style="dim italic")
        if info.parent_session_path:
            text.append(f"\nforked from {self._describe(str(info.parent_session_path))}", style="dim")
        if self.show_path:
            text.append(f"\n{short_path(str(info.path))}", style="dim")
        return text

    def _describe(self, path: str) -> str:
        """A session file by its label when the picker lists it, else by its file name."""
        for infos in self.sessions.values():
            for info in infos or []:
                if canonical(info.path) == canonical(path):
                    return f"“{session_label(info)[:60]}”"
        return Path(path).name

    def _render_preview(self, row: ResumeRow, messages: list[Any] | None) -> None:
        text = self._preview_head(row.info, row.current)
        text.append("\n\n")
        accent, _ = self._colors()
        if messages is None:
            text.append("Loading the last messages…", style="dim italic")
        elif not messages:
            text.append("(no messages)", style="dim italic")
        for message in messages or []:
            label = _ROLE_LABELS.get(message.role, message.role)
            text.append(f"{label}: ", style=f"bold {accent}" if message.role == "user" else "bold")
            text.append(message.text + "\n\n", style="dim" if message.role in ("bash", "summary") else "")
        self.query_one(PreviewPane).show(text)

    def _show_preview(self) -> None:
        if not self.query(PreviewPane):  # the screen is being torn down
            return
        row = self.highlighted_row
        if row is None:
            self.query_one(PreviewPane).show(Text(""))
            return
        key = canonical(row.info.path)
        cached = self.previews.get(key)
        if cached is not None:
            self._render_preview(row, cached)
            return
        # one repaint per move: the old preview stays until the new one is read, "Loading" only if that is slow
        self.set_timer(0.3, lambda: self._still_loading(key))
        # a callable, not a coroutine object: a worker cancelled before it starts leaves nothing un-awaited
        work: Any = partial(self._load_preview, row, key)  # Textual's stubs want a Never-typed coroutine function
        self.run_worker(work, group="resume-preview", exclusive=True)

    def _still_loading(self, key: str) -> None:
        row = self.highlighted_row if self.is_attached else None
        if row is not None and canonical(row.info.path) == key and key not in self.previews:
            self._render_preview(row, None)

    async def _load_preview(self, row: ResumeRow, key: str) -> None:
        await asyncio.sleep(0.04)  # holding an arrow key: only the row it stops on is read
        try:
            messages = await asyncio.to_thread(self.sources.load_preview, str(row.info.path))
        except Exception as exc:  # an unreadable file: say so in the preview, keep the picker
            messages = []
            self._status(f"Could not read the session: {exc}", error=True)
        self.previews[key] = messages
        if not self.is_attached:  # the picker closed while the file was read
            return
        now = self.highlighted_row
        if now is not None and canonical(now.info.path) == key:
            self._render_preview(now, messages)

    # ------------------------------------------------------------------ keys
    def on_key(self, event: events.Key) -> None:
        if self.take_key(event):
            event.stop()
            event.prevent_default()

    def take_key(self, event: events.Key) -> bool:
        """Run a key the picker itself handles (list moves, ``PICKER_ACTIONS``); True when it did. The filter
        input asks this first for every key, so these keys keep their place among typed ones."""
        key = event.key
        ol = self.query_one(OptionList)
        moves = {"down": ol.action_cursor_down, "up": ol.action_cursor_up, "pagedown": ol.action_page_down,
                 "pageup": ol.action_page_up}
        if key in moves:
            moves[key]()
            return True
        action = self.keymap.screen_action(key, PICKER_ACTIONS)
        if action is None:
            return False
        if action == "app.session.deleteNoninvasive" and self.filters.query:
            return False  # pi: with text in the filter it edits the filter
        self.run_action_id(action)
        return True

    def run_action_id(self, action: str) -> None:
        """Run one of ``PICKER_ACTIONS`` (the keys call this; tests may too)."""
        keep = self.highlighted_row
        keep_path = str(keep.info.path) if keep is not None else None
        if action == "tui.input.tab":
            self._toggle_scope()
            return
        if action == "app.session.toggleSort":
            self.filters = replace(self.filters, sort="recent" if self.filters.sort == "threaded" else "threaded")
        elif action == "app.session.toggleNamedFilter":
            self.filters = replace(self.filters, named_only=not self.filters.named_only)
        elif action == "app.session.togglePrintRuns":
            self.filters = replace(self.filters, show_print_runs=not self.filters.show_print_runs)
        elif action == "app.session.togglePath":
            self.show_path = not self.show_path
        elif action == "app.session.rename":
            self._ask_rename()
            return
        elif action in ("app.session.delete", "app.session.deleteNoninvasive"):
            self._ask_delete()
            return
        self._refresh_rows(keep=keep_path)

    def _toggle_scope(self) -> None:
        self.scope = "all" if self.scope == "current" else "current"
        if self.scope == "all" and self.sessions["all"] is None:
            self.listing = True
            load: Any = self._load_all
            self.run_worker(load, group="resume-list", exclusive=True)
        self._refresh_rows()

    async def _load_all(self) -> None:
        try:
            self.sessions["all"] = await asyncio.to_thread(self.sources.load_all)
        except Exception as exc:
            self.sessions["all"] = []
            self._status(f"Failed to load sessions: {exc}", error=True)
        self.listing = False
        """Every folder's sessions are being read (not ``Widget.loading``: that covered the screen with a loading
        indicator, which took the keyboard from the filter; new-user run #43)."""
        if self.scope == "all" and self.is_attached:
            self._refresh_rows()

    # ------------------------------------------------------------------ status, rename, delete
    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#resume-status", Static)
        status.update(Text(text, style="bold red" if error else self._colors()[0]))
        if self._status_timer is not None:
            self._status_timer.stop()
        self._status_timer = self.set_timer(4.0, lambda: status.update(""))

    def _ask_rename(self) -> None:
        from pi_tui.tui.modals.text_prompt import TextPromptModal

        row = self.highlighted_row
        if row is None:
            return
        path = str(row.info.path)
        prompt = TextPromptModal("Rename session", placeholder="session name", prefill=row.info.name or "")

        def done(name: str | None) -> None:
            if name is not None and name.strip():
                self.run_worker(self._rename(path, name), group="resume-change")

        self.app.push_screen(prompt, done)

    async def _rename(self, path: str, name: str) -> None:
        try:
            stored = await self.sources.rename(path, name)
        except Exception as exc:
            self._status(f"Could not rename: {exc}", error=True)
            return
        for infos in self.sessions.values():
            for info in infos or []:
                if canonical(info.path) == canonical(path):
                    info.name = stored
        self._status(f"Renamed to: {stored}")
        self._refresh_rows(keep=path)

    def _ask_delete(self) -> None:
        from pi_tui.tui.modals.confirm import ConfirmModal

        row = self.highlighted_row
        if row is None:
            return
        if row.current:
            self._status("Cannot delete the open session", error=True)
            return
        path = str(row.info.path)
        question = f"Delete session “{session_label(row.info)[:80]}”?\n{short_path(path)}"

        def done(yes: bool | None) -> None:
            if yes:
                self.run_worker(self._delete(path), group="resume-change")

        self.app.push_screen(ConfirmModal(question, "Delete", "Cancel"), done)

    async def _delete(self, path: str) -> None:
        rows = [canonical(r.info.path) for r in self.rows]
        at = rows.index(canonical(path)) if canonical(path) in rows else 0
        try:
            method = await self.sources.delete(path)
        except Exception as exc:
            self._status(f"Failed to delete: {exc}", error=True)
            return
        for scope, infos in self.sessions.items():
            if infos is not None:
                self.sessions[scope] = [i for i in infos if canonical(i.path) != canonical(path)]
        self.previews.pop(canonical(path), None)
        self._refresh_rows()
        if self.rows:
            self.query_one(OptionList).highlighted = min(at, len(self.rows) - 1)
        self._status("Session moved to trash" if method == "trash" else "Session deleted")
