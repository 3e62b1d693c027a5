"""The prompt editor: a multi-line ``TextArea`` that maps keys to pi's actions (pi-reference §3.14, §3.14b).

Local behaviour: newline (Shift+Enter / Ctrl+J), prompt history (Up on an empty editor or the first line,
Down on the last line; max 100 entries, consecutive duplicates skipped). Everything else bound in the keymap is
posted as ``ActionRequested(action_id)`` for the app to decide (submit, follow-up, dequeue, interrupt, ...).

Many terminals send Alt+Up / Alt+Enter as Escape followed by Up / Enter, which Textual reports as two keys. A
lone Escape is therefore held for ``escape_delay`` seconds: if Up or Enter follows at once, the pair is
treated as Alt+Up / Alt+Enter instead of an abort.

A paste the terminal does not bracket arrives as keys, each line ended by Enter: an Enter with another key
queued right behind it, less than ``PASTE_BURST_GAP_S`` later (sooner than anyone types), is a newline, so the
paste stays one draft (new-user run #29); an Enter ending the run, or typed at human speed, sends.

Large pastes (more than 10 lines or more than 1000 characters) are shown as a marker ``[paste #<n> +<lines>
lines]`` / ``[paste #<n> <chars> chars]`` and expanded on submit (``expanded_text``; pi-reference §3.14b).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, TypeGuard

from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.timer import Timer
from textual.widgets import TextArea
from textual.widgets.text_area import Location

from pi_tui.tui.keymap import Keymap
from pi_tui.tui.widgets.graphemes import next_boundary, prev_boundary, snap
from pi_tui.tui.widgets.paste_markers import expand_pastes, paste_marker, unit_left, unit_right

if TYPE_CHECKING:
    from pi_tui.tui.commands import CommandInfo
    from pi_tui.tui.controllers.editor_completion import EditorCompletion

HISTORY_MAX = 100
PASTE_BURST_GAP_S = 0.008  # keys arriving closer than this come from one terminal write (a paste), not typing
def _is_format_char(character: str | None) -> bool:
    """True for one Unicode format character (category Cf: U+200D ZWJ, U+200C, tags U+E0020-U+E007F)."""
    return character is not None and len(character) == 1 and unicodedata.category(character) == "Cf"


class _TextKey(events.Key):
    """A ``Key`` known to carry a character (for type narrowing only)."""

    character: str


SUBMIT_ACTIONS = {"tui.input.submit", "app.message.followUp"}
LOCAL_ACTIONS = {"tui.input.newLine", "app.history.prev", "app.history.next"}


HELD_ACTIONS: frozenset[str | None] = frozenset({
    None, "tui.input.submit", "tui.input.newLine", "app.message.followUp", "app.history.prev", "app.history.next",
})
"""Keys :meth:`PromptInput.hold_keys` keeps: those that edit or send the text (``None``: not an app action)."""


class PromptInput(TextArea):
    """Multi-line prompt. Post-processing of actions is the app's job."""

    DEFAULT_CSS = """
    PromptInput {
        height: auto;
        min-height: 3;
        border: round $border;
        padding: 0 1;
    }
    PromptInput:focus { border: round $border; }
    """

    class ActionRequested(Message):
        """A bound key was pressed; ``action`` is a pi action id (``tui.input.submit``...). For the submit
        and follow-up keys ``text`` is what the editor held at that key (pastes expanded; the editor is then
        cleared): the app handles the message later, after keys typed in the same burst. ``cleared``: the
        editor has already cleared itself for ``app.clear``."""

        def __init__(self, action: str, text: str | None = None, cleared: bool = False) -> None:
            super().__init__()
            self.action = action
            self.text = text
            self.cleared = cleared  # ``app.clear``: the editor already cleared itself at key time

    def __init__(self, keymap: Keymap, escape_delay: float = 0.05,
                 slash_commands: Callable[[], Sequence[CommandInfo]] | None = None, **kwargs: object) -> None:
        super().__init__(soft_wrap=True, show_line_numbers=False, tab_behavior="focus",
                         compact=False, **kwargs)  # type: ignore[arg-type]
        self.slash_commands = slash_commands  # the app's command list (Tab completion); the built-ins if None
        self.cursor_blink = False  # no idle timer (pi draws a steady cursor)
        self.keymap = keymap
        self.escape_delay = escape_delay
        self.prompt_history: list[str] = []
        self._history_pos: int | None = None
        self._draft = ""
        self._esc_timer: Timer | None = None
        self.pastes: dict[int, str] = {}  # large pastes by marker id (pi's editor keeps them until submit)
        self._paste_counter = 0
        self.completion: EditorCompletion | None = None  # the completion list's driver (``/``, ``@``), if any
        # Image attachments (controllers/images.py): a paste of image paths is taken by ``paste_filter``
        # (returns True); Backspace on an empty editor calls ``on_empty_backspace`` (True: it removed one).
        self.paste_filter: Callable[[str], bool] | None = None
        self.on_empty_backspace: Callable[[], bool] | None = None
        # An extension's editor component (ctx.ui.set_editor_component, tui/extension_editor.py) sees every key
        # first: ``key_filter(key, event)`` returns True when it took the key.
        self.key_filter: Callable[[str, events.Key], bool] | None = None
        self._held: list[tuple[str, str | None]] | None = None  # keys kept while the app sets the text

    # ------------------------------------------------------------ held keys
    def hold_keys(self, already: list[tuple[str, str | None]] | None = None) -> None:
        """Keep the keys typed from now on (``already``: keys typed earlier elsewhere, first) until
        :meth:`release_keys`: the app is about to set the editor text (a /tree jump), and what the user types
        meanwhile must follow that text, not precede it (issue 9: ``steer now/tree`` was sent). Held: text and
        editing keys and the send/newline keys (``HELD_ACTIONS``); the app's other keys act at once (Escape
        cancels the work being waited for, Ctrl+D quits)."""
        self._held = already if already is not None else []

    def release_keys(self) -> None:
        """Replay the held keys into the editor, in order, as if typed now (after the text the app set)."""
        held, self._held = self._held, None
        for n, (key, character) in enumerate(held or []):
            replayed = events.Key(key, character)
            replayed.time += n * PASTE_BURST_GAP_S * 2  # typed one by one: its Enter sends, as when it was typed
            self.post_message(replayed)

    @property
    def holding_keys(self) -> bool:
        """True between :meth:`hold_keys` and :meth:`release_keys`."""
        return self._held is not None

    # ------------------------------------------------------------ user-perceived characters
    # Cursor moves, Backspace and Delete step over whole grapheme clusters, and no location (mouse click,
    # Up/Down, word jump, an edit that merges clusters) ever lands inside one (Unicode UAX #29; Textual's
    # TextArea steps by code point: Textualize/textual#4694).
    def clamp_visitable(self, location: Location) -> Location:
        """Textual's clamp, then moved out of any grapheme cluster it falls inside (to the nearer edge)."""
        row, col = super().clamp_visitable(location)
        return row, snap(self.document[row], col)

    def get_cursor_left_location(self) -> Location:
        """One user-perceived character left (to the previous line's end at a line start)."""
        row, col = self.cursor_location
        if col == 0:
            return super().get_cursor_left_location()
        line = self.document[row]
        unit = unit_left(line, col, self.pastes)  # a paste marker is one unit
        return row, prev_boundary(line, col) if unit is None else unit

    def get_cursor_right_location(self) -> Location:
        """One user-perceived character right (to the next line's start at a line end)."""
        row, col = self.cursor_location
        line = self.document[row]
        if col >= len(line):
            return super().get_cursor_right_location()
        unit = unit_right(line, col, self.pastes)
        return row, next_boundary(line, col) if unit is None else unit

    def get_cursor_word_left_location(self) -> Location:
        """Textual's word jump, never inside a cluster (also what Ctrl+W / Alt+Backspace delete to)."""
        return self.clamp_visitable(super().get_cursor_word_left_location())

    def get_cursor_word_right_location(self) -> Location:
        """Textual's word jump, never inside a cluster (also what Alt+D deletes to)."""
        return self.clamp_visitable(super().get_cursor_word_right_location())

    # ------------------------------------------------------------ height
    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The text's rows, at most pi's cap ``max(5, floor(terminal rows * 0.3))`` (pi 0.73.1 editor
        ``maxVisibleLines``); a longer text scrolls inside, keeping the transcript in sight (new-user run #16)."""
        return min(super().get_content_height(container, viewport, width), max(5, viewport.height * 3 // 10))

    # ------------------------------------------------------------ logical lines
    # Home/Ctrl+A, End/Ctrl+E, Ctrl+U and Ctrl+K act on the line between newlines, not the screen row it wraps
    # to (pi 0.73.1 editor moveToLineStart/moveToLineEnd/deleteToStartOfLine/deleteToEndOfLine; readline).
    # Textual's TextArea uses the wrapped row: Ctrl+U on a 3-row line deleted only its last row (new-user #23).
    def get_cursor_line_start_location(self, smart_home: bool = False) -> Location:
        """Column 0 of the cursor's logical line (pi: no "smart home" to the first non-blank)."""
        return self.cursor_location[0], 0

    def get_cursor_line_end_location(self) -> Location:
        """The end of the cursor's logical line."""
        row = self.cursor_location[0]
        return row, len(self.document[row])

    # ------------------------------------------------------------ pastes
    async def _on_paste(self, event: events.Paste) -> None:
        """Insert a paste; a large one is stored and shown as pi's marker (expanded by ``expanded_text``)."""
        text = event.text.replace("\r\n", "\n").replace("\r", "\n")
        if self.paste_filter is not None and not self.read_only and self.paste_filter(text):
            event.stop()
            event.prevent_default()
            return
        marker = paste_marker(self._paste_counter + 1, text)
        if marker is None or self.read_only:
            return  # Textual then runs TextArea's own paste handler (handlers run along the MRO)
        event.stop()
        event.prevent_default()
        self._paste_counter += 1
        self.pastes[self._paste_counter] = text
        if result := self._replace_via_keyboard(marker, *self.selection):
            self.move_cursor(result.end_location)
        self.focus()

    def expanded_text(self) -> str:
        """The editor text with every paste marker replaced by the pasted text (what is submitted)."""
        return expand_pastes(self.text, self.pastes)

    def clear_pastes(self) -> None:
        """Forget stored pastes (after a submit; pi resets its paste counter too)."""
        self.pastes.clear()
        self._paste_counter = 0

    # ------------------------------------------------------------ history
    def remember(self, text: str) -> None:
        """Add a submitted prompt to the history (pi: max 100, consecutive duplicates skipped)."""
        text = text.strip()
        if text and (not self.prompt_history or self.prompt_history[-1] != text):
            self.prompt_history.append(text)
            del self.prompt_history[:-HISTORY_MAX]
        self._history_pos = None

    def seed_history(self, texts: Iterable[str]) -> None:
        """Add the prompts of a session being shown (pi 0.73 ``renderInitialMessages``' ``populateHistory``),
        oldest first; a prompt already in the history is not added again (a rebuild of the same session)."""
        known = set(self.prompt_history)
        for text in texts:
            text = text.strip()
            if text and text not in known:
                known.add(text)
                self.prompt_history.append(text)
        del self.prompt_history[:-HISTORY_MAX]
        self._history_pos = None

    def _history_prev(self) -> bool:
        if not self.prompt_history:
            return False
        if self._history_pos is None:
            self._draft = self.text
            self._history_pos = len(self.prompt_history)
        if self._history_pos == 0:
            return True
        self._history_pos -= 1
        self._load(self.prompt_history[self._history_pos], at_end=False)
        return True

    def _history_next(self) -> bool:
        if self._history_pos is None:
            return False
        self._history_pos += 1
        if self._history_pos >= len(self.prompt_history):
            self._history_pos = None
            self._load(self._draft, at_end=True)
        else:
            self._load(self.prompt_history[self._history_pos], at_end=True)
        return True

    def _load(self, text: str, at_end: bool) -> None:
        self.text = text
        if at_end:
            self.move_cursor(self.document.end)
        else:
            self.move_cursor((0, len(self.document.get_line(0))))

    def set_text(self, text: str) -> None:
        """Replace the editor content and put the cursor at the end. A draft it replaces goes into the history
        first (Up brings it back), whatever replaced it: ``/fork`` putting the forked message in, ``/clone``, an
        extension (tester2 #9: ``/fork`` overwrote a long draft for good)."""
        draft = self._draft if self._history_pos is not None else self.expanded_text()
        if draft.strip() and draft.strip() != text.strip():
            self.remember(draft)
        self.text = text
        self._history_pos = None
        self.move_cursor(self.document.end)

    # ------------------------------------------------------------ keys
    def _fire_escape(self) -> None:
        self._esc_timer = None
        self.post_message(self.ActionRequested("app.interrupt"))

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if self._held is not None and self.keymap.action_for(key) in HELD_ACTIONS:
            event.stop()
            event.prevent_default()
            self._held.append((key, event.character))
            return
        if self.key_filter is not None and self._esc_timer is None and self.key_filter(key, event):
            event.stop()
            event.prevent_default()
            return
        if self._esc_timer is not None:
            self._esc_timer.stop()
            self._esc_timer = None
            if key in ("up", "enter"):
                key = "alt+" + key
            else:
                self.post_message(self.ActionRequested("app.interrupt"))
        if self._pasted_enter(key, event):
            event.stop()
            event.prevent_default()
            self.insert("\n")
            return
        if self.completion is not None and self.completion.handle_key(key, event):
            event.stop()
            event.prevent_default()
            return
        if key == "escape" and self.keymap.action_for("escape") == "app.interrupt" and self.escape_delay > 0:
            event.stop()
            event.prevent_default()
            self._esc_timer = self.set_timer(self.escape_delay, self._fire_escape)
            return
        if key == "backspace" and not self.text and self.on_empty_backspace is not None and self.on_empty_backspace():
            event.stop()
            event.prevent_default()
            return
        if key in ("home", "end") and not self.text:
            # An empty editor has no line to move in: Home/End scroll the transcript.
            event.stop()
            event.prevent_default()
            self.post_message(self.ActionRequested("app.scroll.top" if key == "home" else "app.scroll.bottom"))
            return
        if key == "tab" and self.text.startswith("/") and " " not in self.text.strip():
            event.stop()
            event.prevent_default()
            self._complete_slash()
            return
        action = self.keymap.action_for(key)
        if action is None and self._is_text_key(event):
            # Typing: take this key and every text key queued right behind it as one edit. Per-key edits
            # re-wrapped the whole line each time (a 5,000-character non-bracketed paste crawled; issue 9).
            event.stop()
            event.prevent_default()
            self._replace_via_keyboard(event.character + self._take_queued_text(), *self.selection)
            # The editor grows (height: auto) only at the next layout: scroll to the cursor once it has.
            self.call_after_refresh(self.scroll_cursor_visible)
            return
        if action is None:
            if _is_format_char(event.character) and not self.read_only:
                # ZWJ, ZWNJ, tag characters: not "printable" to Textual, which dropped them, so a ZWJ
                # sequence typed or pasted without bracketed paste fell apart (👩‍👧 became 👩👧).
                event.stop()
                event.prevent_default()
                self._replace_via_keyboard(event.character or "", *self.selection)
                return
            await self._edit_key(event)
            return
        if not self._handle_local(action):
            return await self._edit_key(event)
        event.stop()
        event.prevent_default()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        """Every edit: the completion list opens, follows or closes (the message goes on to the app)."""
        if self.completion is not None:
            self.completion.text_changed()

    def on_text_area_selection_changed(self, event: TextArea.SelectionChanged) -> None:
        """The cursor moved: the completion list closes when it no longer fits the text before the cursor."""
        if self.completion is not None:
            self.completion.cursor_moved()

    def _is_text_key(self, event: Message | None) -> TypeGuard[_TextKey]:
        """True for a key that only inserts its character (printable or a format character, not bound)."""
        return (isinstance(event, events.Key) and event.character is not None and not self.read_only
                and (event.is_printable or _is_format_char(event.character)) and event.key not in ("tab", "enter")
                and self.keymap.action_for(event.key) is None)

    def _pasted_enter(self, key: str, event: events.Key) -> bool:
        """True for the submit key inside an unbracketed paste: another key is queued right behind it and
        arrived less than ``PASTE_BURST_GAP_S`` after it (module docstring)."""
        if self.read_only or self.keymap.action_for(key) != "tui.input.submit":
            return False
        pending = self._peek_message()
        return isinstance(pending, events.Key) and 0 <= pending.time - event.time < PASTE_BURST_GAP_S

    def _take_queued_text(self, limit: int = 100_000) -> str:
        """Remove the text keys waiting at the head of this widget's queue (in order; stops at any other
        message) and return their characters."""
        taken: list[str] = []
        while len(taken) < limit:
            pending = self._peek_message()
            if not self._is_text_key(pending):
                break
            self._pending_message = None  # consume it: it is handled here, never dispatched
            self._message_queue.task_done()
            self.message_signal.publish(pending)
            taken.append(pending.character)
        return "".join(taken)

    async def _edit_key(self, event: events.Key) -> None:
        """A key for the text itself: insert it, or run the editor's own binding for it (Backspace, Delete,
        arrows, ...) now, in key order.

        Textual runs a widget's bindings only once the unhandled key has bubbled up to the app, behind every
        key already queued: in a burst (``abc`` Backspace ``de``, or iOS Termius' ``ㄱ`` DEL ``가``) Backspace
        then deleted the last key of the burst instead of the one before it (anthropics/claude-code#15705).
        """
        await super()._on_key(event)
        if event._stop_propagation or self.read_only:
            return
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return

    def _complete_slash(self) -> None:
        """Tab after ``/pre``: complete a unique command (plus a space), else the common prefix; list choices."""
        from pi_tui.tui.commands import BUILTIN_COMMANDS, complete_slash

        matches = complete_slash(self.text, self.slash_commands() if self.slash_commands else BUILTIN_COMMANDS)
        if not matches:
            return
        if len(matches) == 1:
            self.set_text(f"/{matches[0].name} ")
            return
        names = [m.name for m in matches]
        prefix = names[0]
        for name in names[1:]:
            while not name.startswith(prefix):
                prefix = prefix[:-1]
        if len(prefix) + 1 > len(self.text.strip()):
            self.set_text("/" + prefix)
        self.post_message(self.SlashChoices(["/" + n for n in names]))

    class SlashChoices(Message):
        """Tab found several slash commands; the app shows them."""

        def __init__(self, choices: list[str]) -> None:
            super().__init__()
            self.choices = choices

    def _handle_local(self, action: str) -> bool:
        """Run ``action``; returns False when the key should fall through to normal editing."""
        row = self.cursor_location[0]
        if action == "tui.input.newLine":
            self.insert("\n")
            return True
        if action == "app.history.prev":
            if self.text == "" or row == 0 or self._history_pos is not None and row == 0:
                return self._history_prev() or self.text == ""
            return False
        if action == "app.history.next":
            if self._history_pos is not None and row == self.document.line_count - 1:
                return self._history_next()
            return False
        if action == "app.exit" and self.text:
            return False  # Ctrl+D deletes forward when the editor is not empty (pi)
        if action == "app.clear":
            # Cleared now, at key time: the app handles the message after keys typed behind it in the same
            # burst, and clearing then lost them ("gone" Ctrl+C "kept" ended empty). Never a lost draft (new-user
            # run): it goes into the history (Up) and the clear is an undoable edit (Ctrl+Z; pastes are kept).
            draft = self.expanded_text()
            if draft.strip():
                self.remember(draft)
                self.clear()
                self.move_cursor(self.document.end)
            self.post_message(self.ActionRequested(action, cleared=True))
            return True
        if action in SUBMIT_ACTIONS:
            self.post_message(self.ActionRequested(action, self.take_text()))
            return True
        self.post_message(self.ActionRequested(action))
        return True

    def take_text(self) -> str:
        """The text to submit (pastes expanded); a non-blank one goes into the history and the editor is
        cleared (pi's submit)."""
        text = self.expanded_text()
        if text.strip():
            self.remember(text)
            self.set_text("")
            self.clear_pastes()
        return text
