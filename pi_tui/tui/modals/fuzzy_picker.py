"""A modal list with a fuzzy filter input; the base of the model and session pickers.

Typing filters the entries with Textual's fuzzy matcher (best matches first); Enter picks the highlighted
entry, Escape closes without a choice (the screen is dismissed with ``None``). A filter that matches nothing
shows ``empty_text`` (pi's model selector: ``No matching models``) as a line that cannot be picked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.fuzzy import Matcher
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from pi_tui.tui.modals.keyed_list import FilterList
from pi_tui.tui.widgets.ordered_input import OrderedInput


@dataclass
class PickerEntry:
    """One entry: ``label`` is matched and shown, ``detail`` shown dim after it, ``value`` returned;
    ``names``: other names it is matched (and ranked exact) by, not shown (a model's ``provider/id``)."""

    label: str
    value: Any
    detail: str = ""
    current: bool = False
    names: tuple[str, ...] = ()


def filter_entries(entries: list[PickerEntry], query: str) -> list[PickerEntry]:
    """Entries matching ``query`` fuzzily (label + names + detail): an exact label or name first, then label
    or name prefixes, then by fuzzy score; all entries for ""."""
    if not query.strip():
        return list(entries)
    matcher = Matcher(query)
    q = query.strip().lower()

    def rank(entry: PickerEntry) -> int:
        names = [n.lower() for n in (entry.label, *entry.names)]
        return 0 if q in names else 1 if any(n.startswith(q) for n in names) else 2

    scored = [(rank(e), matcher.match(" ".join([e.label, *e.names, e.detail])), i, e)
              for i, e in enumerate(entries)]
    return [e for _, score, _, e in sorted(scored, key=lambda s: (s[0], -s[1], s[2])) if score > 0]


class FuzzyPicker(ModalScreen[Any]):
    """Modal picker; dismisses with the chosen entry's ``value`` or ``None``."""

    DEFAULT_CSS = """
    FuzzyPicker { align: center middle; }
    FuzzyPicker > Vertical {
        width: 80%; max-width: 100; height: 70%; min-height: 20; max-height: 100%;  /* a short screen: all of it */
        border: round $border; background: $surface; padding: 0 1;
    }
    FuzzyPicker #picker-title { height: auto; max-height: 50%; text-style: bold; }  /* every line of a dialog title */
    FuzzyPicker Input, FuzzyPicker Input:focus { border: none; height: 1; padding: 0 1; }
    FuzzyPicker OptionList, FuzzyPicker OptionList:focus { height: 1fr; border: none; }
    FuzzyPicker OptionList { text-wrap: nowrap; text-overflow: ellipsis; }  /* one row per entry */
    FuzzyPicker #picker-hint { height: 1; color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "cancel", "Close", show=False)]

    def __init__(self, title: str, entries: list[PickerEntry], hint: str = "↑↓ select · Enter choose · Esc close",
                 query: str = "", empty_text: str = "No matches") -> None:
        super().__init__()
        self.empty_text = empty_text
        self.title_text = title
        self.entries = entries
        self.hint = hint
        self.initial_query = query
        self.shown: list[PickerEntry] = []
        self.closing = False
        self.late_keys: list[tuple[str, str | None]] = []
        """``(key, character)`` typed behind the Enter that chose: for the editor (``PromptInput.hold_keys``;
        /fork replays them after its text). They went into the closing picker's filter (issue 9)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, id="picker-title", markup=False)
            yield OrderedInput(value=self.initial_query, placeholder="type to filter", id="picker-filter",
                               key_handler=self.take_key)  # keys in typing order (new-user run #24)
            yield FilterList(id="picker-list")  # the filter keeps the keyboard (new-user run #43)
            yield Static(self.hint, id="picker-hint")

    def on_mount(self) -> None:
        self._refilter(self.initial_query)
        self.query_one(Input).focus()

    def _refilter(self, query: str) -> None:
        self.shown = filter_entries(self.entries, query)
        ol = self.query_one(OptionList)
        ol.clear_options()
        options = []
        for e in self.shown:
            text = Text(("● " if e.current else "  ") + e.label, no_wrap=True, overflow="ellipsis")
            if e.detail:
                text.append("  " + e.detail, style="dim")
            options.append(Option(text))
        if not options:  # say so: an empty list looked broken (issue 9, ``/model nonexistent``)
            options.append(Option(Text("  " + self.empty_text, style="dim italic"), disabled=True))
        ol.add_options(options)
        if self.shown:
            current = next((i for i, e in enumerate(self.shown) if e.current), 0)
            ol.highlighted = current if not query.strip() else 0

    def on_input_changed(self, event: Input.Changed) -> None:
        self._refilter(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._choose(self.query_one(OptionList).highlighted)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(event.option_index)

    def on_key(self, event: Any) -> None:
        if self.take_key(event):
            event.stop()

    def take_key(self, event: Any) -> bool:
        """Run a key the picker itself handles (↑/↓/PageUp/PageDown move in the list); True when it did.
        The filter input asks this first for every key, so list moves keep their place among typed keys.
        After the choice every key is kept in :attr:`late_keys` instead."""
        if self.closing:
            self.late_keys.append((event.key, getattr(event, "character", None)))
            return True
        ol = self.query_one(OptionList)
        if event.key == "enter":  # choose now: the keys queued behind Enter must not reach the filter first
            self._choose(ol.highlighted)
            return True
        if event.key in ("down", "up", "pagedown", "pageup"):
            getattr(ol, {"down": "action_cursor_down", "up": "action_cursor_up", "pagedown": "action_page_down",
                         "pageup": "action_page_up"}[event.key])()
            return True
        return False

    def _choose(self, index: int | None) -> None:
        if self.closing:
            return
        if index is not None and 0 <= index < len(self.shown):
            self.closing = True
            self.dismiss(self.shown[index].value)

    def action_cancel(self) -> None:
        self.dismiss(None)
