"""``/settings``: every row of ``pi_tui.coding.config.settings_schema.SETTINGS`` with its value (pi 0.73.1's
settings selector, pi docs/settings.md).

One line per setting: label, value, and ``project`` when the project's ``.pi-tui/settings.json`` sets it (then
the project value is the one in force and a change to the global file does not take effect here; the lines
under the list say so, with both values). Keys (``tui.select.*`` in the keymap, remappable): Enter/Space
changes the highlighted setting: a true/false or short choice steps to the next value (pi's settings list), a
number opens an input (Enter saves, Esc cancels; a bad value is refused with a message and nothing is saved),
the theme, the thinking level, longer choice lists and the default model open a list (the theme is previewed
while moving; Esc restores it). Typing filters the rows by name (then by settings.json key) and highlights
the first match (a space is part of a filter that has begun, so labels of several words can be typed; Space
changes a row only while the filter is empty); Backspace edits the filter; Esc closes.
Every change is written to the global settings.json at once and applied to the running app and session
through the :class:`SettingsEditor` the screen is given.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.config.settings_schema import (
    SETTINGS,
    SettingSpec,
    SettingState,
    SettingValueError,
    format_value,
    parse_value,
    setting_state,
)
from pi_tui.tui.keymap import Keymap
from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry
from pi_tui.tui.modals.keyed_list import KeyedList, bind_keymap
from pi_tui.tui.widgets.ordered_input import OrderedInput

LABEL_WIDTH = 30
CYCLE_LIMIT = 4  # choice rows with at most this many values step through them; longer ones open a list
USE_NOTES = {
    "live": "",
    "restart": "Takes effect after /reload or a restart.",
    "unused": "Saved for pi; pi-tui has no such feature yet.",
}


@dataclass
class SettingsEditor:
    """What the screen reads and changes. ``manager``: the settings (written to its global file);
    ``choices(spec)``: the values a list row offers (theme names, ``provider/id`` of the models);
    ``save(spec, value)``: write and apply one parsed value, returning error texts (a failed save);
    ``preview_theme(name)``: show a theme without saving it (``None``: back to the saved one)."""

    manager: SettingsManager
    choices: Callable[[SettingSpec], tuple[str, ...]]
    save: Callable[[SettingSpec, Any], list[str]]
    preview_theme: Callable[[str | None], None]

    def states(self) -> list[SettingState]:
        """Every row's state, in the screen's order."""
        return [setting_state(spec, self.manager) for spec in SETTINGS]

    def change(self, spec: SettingSpec, text: str) -> str | None:
        """Parse ``text`` for ``spec``, save and apply it; the error text, or None when it was saved."""
        offered = self.choices(spec) if spec.kind in ("theme", "model") else None
        try:
            value = parse_value(spec, text, offered or None)
        except SettingValueError as error:
            return str(error)
        errors = self.save(spec, value)
        return "; ".join(errors) if errors else None


def source_line(state: SettingState, manager: SettingsManager) -> str:
    """Where ``state``'s value comes from, in words (global file, project file that wins, or pi's default)."""
    spec = state.spec
    if state.overridden:
        shown = format_value(spec, state.global_value) if state.global_value is not None else "not set"
        project = manager.project_path or ".pi-tui/settings.json"
        return (f"The project file {project} sets {format_value(spec, state.project_value)} and wins here "
                f"(global: {shown}); a change is saved globally but the project value stays in force.")
    if state.source == "global":
        return f"Set in {manager.global_path or 'settings.json'}."
    return f"Not set: pi's default ({format_value(spec, spec.default)})."


class ChoicePicker(FuzzyPicker):
    """The list a setting opens (theme, thinking level, default model, long choices); ``on_highlight(value)``
    is called as the highlight moves (the theme preview)."""

    def __init__(self, title: str, entries: list[PickerEntry], on_highlight: Callable[[Any], None] | None,
                 hint: str) -> None:
        super().__init__(title, entries, hint=hint)
        self._on_highlight = on_highlight

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        index = event.option_index
        if self._on_highlight is not None and 0 <= index < len(self.shown):
            self._on_highlight(self.shown[index].value)


class SettingsScreen(ModalScreen[None]):
    """The settings screen over a :class:`SettingsEditor` (module docstring); ``keymap``: its keys."""

    DEFAULT_CSS = """
    SettingsScreen { align: center middle; }
    SettingsScreen > Vertical {
        width: 90%; max-width: 110; height: 90%; border: round $border; background: $surface; padding: 0 1;
    }
    SettingsScreen #settings-title { height: 1; text-style: bold; }
    SettingsScreen KeyedList, SettingsScreen KeyedList:focus { height: 1fr; border: none; }
    SettingsScreen KeyedList { text-wrap: nowrap; text-overflow: ellipsis; }
    SettingsScreen #settings-detail { height: auto; max-height: 5; color: $text-muted; }
    SettingsScreen #settings-message { height: auto; max-height: 2; }
    SettingsScreen #settings-edit { display: none; height: 1; border: none; padding: 0 1; }
    SettingsScreen #settings-edit.-editing { display: block; }
    SettingsScreen #settings-hint { height: 1; color: $text-muted; }
    SettingsScreen.-short > Vertical, SettingsScreen.-tiny > Vertical { height: 100%; }  /* the list keeps its rows */
    SettingsScreen.-short #settings-detail, SettingsScreen.-tiny #settings-detail { max-height: 2; }
    """

    def __init__(self, editor: SettingsEditor, keymap: Keymap) -> None:
        super().__init__()
        self.editor = editor
        self.keymap = keymap
        self.filter = ""
        self.shown: list[SettingState] = []
        self.message: tuple[str, str] = ("", "")  # (style, text)
        self.editing: SettingSpec | None = None
        bind_keymap(self, keymap, {"tui.select.confirm": "confirm", "tui.select.cancel": "cancel"})

    def compose(self) -> ComposeResult:
        km = self.keymap
        hint = (f"↑↓ select · {km.first('tui.select.confirm')} change · type to filter · "
                f"{km.first('tui.select.cancel')} close · saved to settings.json at once")
        with Vertical():
            yield Static("Settings", id="settings-title")
            yield KeyedList(id="settings-list")
            yield OrderedInput(id="settings-edit")  # keys in typing order (new-user run #24)
            yield Static("", id="settings-detail")
            yield Static("", id="settings-message")
            yield Static(hint, id="settings-hint")

    def on_mount(self) -> None:
        self._redraw()
        self.query_one(KeyedList).focus()

    # ------------------------------------------------------------ drawing

    def _row(self, state: SettingState) -> Text:
        spec = state.spec
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(spec.label.ljust(LABEL_WIDTH), style="dim" if spec.use == "unused" else "")
        text.append(format_value(spec, state.value), style="bold")
        if state.overridden:
            text.append("  project", style="yellow")
        return text

    def _redraw(self, keep: str | None = None) -> None:
        rows = self.query_one(KeyedList)
        current = keep or self._highlighted_id()
        needle = self.filter.lower()
        states = self.editor.states()
        self.shown = ([s for s in states if needle in s.spec.label.lower()]  # names first, then keys
                      + [s for s in states if needle not in s.spec.label.lower() and needle in s.spec.path.lower()])
        rows.clear_options()
        if self.shown:
            rows.add_options([Option(self._row(s), id=s.spec.id) for s in self.shown])
            index = next((i for i, s in enumerate(self.shown) if s.spec.id == current), 0)
            rows.highlighted = index
        else:
            rows.add_option(Option(Text("  No matching settings", style="dim italic"), disabled=True))
        title = "Settings" + (f"  filter: {self.filter}▏" if self.filter else "")
        self.query_one("#settings-title", Static).update(title)
        self._show_detail()

    def _highlighted_id(self) -> str | None:
        state = self.highlighted_state()
        return state.spec.id if state is not None else None

    def highlighted_state(self) -> SettingState | None:
        """The state of the highlighted row (None when the filter matches nothing)."""
        index = self.query_one(KeyedList).highlighted
        return self.shown[index] if index is not None and 0 <= index < len(self.shown) else None

    def _show_detail(self) -> None:
        state = self.highlighted_state()
        detail = Text()
        if state is not None:
            detail.append(state.spec.description + "\n")
            detail.append(source_line(state, self.editor.manager), style="yellow" if state.overridden else "")
            note = USE_NOTES[state.spec.use]
            if note:
                detail.append("\n" + note, style="italic")
        self.query_one("#settings-detail", Static).update(detail)
        style, message = self.message
        self.query_one("#settings-message", Static).update(Text(message, style=style))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    # ------------------------------------------------------------ keys

    def on_key(self, event: events.Key) -> None:
        if self.editing is not None:
            return  # the input takes the keys
        if event.key == "backspace" and self.filter:
            self.filter = self.filter[:-1]
        elif event.is_printable and event.character and (event.character != " " or self.filter):
            # Space changes the highlighted row, but not in the middle of a filter: "Hide thinking" typed as
            # the label reads flipped the setting at the space and saved it (new-user run #40)
            self.filter += event.character
        else:
            return
        event.stop()
        self._redraw(keep=self._first_match())

    def _first_match(self) -> str | None:
        """The row a changed filter highlights: the first one it shows (as pi's search list)."""
        needle = self.filter.lower()
        states = self.editor.states()
        first = next((s for s in states if needle in s.spec.label.lower()), None) or next(
            (s for s in states if needle in s.spec.path.lower()), None)
        return first.spec.id if first is not None else None

    def action_cancel(self) -> None:
        """Esc: close the number input when one is open, else the screen."""
        if self.editing is not None:
            self._stop_editing()
            return
        self.dismiss(None)

    def action_confirm(self) -> None:
        """Enter/Space on a row: step, edit or open a list (module docstring)."""
        if self.editing is not None:
            return
        state = self.highlighted_state()
        if state is None:
            return
        spec = state.spec
        if spec.kind == "int":
            self._start_editing(spec, format_value(spec, state.value))
        elif spec.kind in ("theme", "model") or len(spec.choices) > CYCLE_LIMIT:
            self._open_list(state)
        else:
            current = format_value(spec, state.value)
            values = spec.choices
            following = values[(values.index(current) + 1) % len(values)] if current in values else values[0]
            self.apply(spec, following)

    def apply(self, spec: SettingSpec, text: str) -> bool:
        """Save ``text`` for ``spec`` through the editor and redraw; False (and the message) when refused."""
        error = self.editor.change(spec, text)
        if error:
            self.message = ("bold red", error)
        else:
            self.message = ("green", f"Saved {spec.path} = {text}")
        self._redraw(keep=spec.id)
        return error is None

    # ------------------------------------------------------------ number input

    def _start_editing(self, spec: SettingSpec, value: str) -> None:
        self.editing = spec
        box = self.query_one("#settings-edit", Input)
        box.value = value
        box.placeholder = f"{spec.label} ({spec.minimum}..{spec.maximum})"
        box.add_class("-editing")
        box.focus()

    def _stop_editing(self) -> None:
        self.editing = None
        box = self.query_one("#settings-edit", Input)
        box.remove_class("-editing")
        self.query_one(KeyedList).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        spec = self.editing
        if spec is not None and self.apply(spec, event.value):
            self._stop_editing()

    # ------------------------------------------------------------ lists

    def _open_list(self, state: SettingState) -> None:
        spec = state.spec
        values = self.editor.choices(spec) if spec.kind in ("theme", "model") else spec.choices
        current = format_value(spec, state.value)
        entries = [PickerEntry(v, v, current=v == current) for v in values]
        preview = self.editor.preview_theme if spec.kind == "theme" else None

        def chosen(value: Any) -> None:
            if value is None:
                if preview is not None:
                    preview(None)  # cancelled: back to the saved theme
                return
            self.apply(spec, str(value))

        hint = "↑↓ select (previewed) · Enter choose · Esc back" if preview else "↑↓ select · Enter choose · Esc back"
        self.app.push_screen(ChoicePicker(spec.label, entries, preview, hint), chosen)
