"""``/scoped-models``: which models Ctrl+P cycles through (pi 0.73.1's scoped-models selector, its
``enabledModels`` setting and ``--models``).

Every model with auth, one per line (``id [provider]``, ``✓`` enabled, ``✗`` not; no marks while all are
enabled, which means no scope); enabled ones first, in cycle order. Keys (pi's ids, remappable): Enter/Space
(``tui.select.confirm``) toggles the highlighted model (the first toggle from "all" keeps only that one),
Ctrl+A all (or all matching the filter), Ctrl+X none (or none matching), Ctrl+P every model of the highlighted
one's provider, Alt+Up/Alt+Down move it in the cycle order, Ctrl+S saves the selection to settings.json
(``enabledModels``; all enabled removes the key), Esc closes. Typing filters by id and provider. Each change is
handed to ``on_change`` at once (the session's scope: pi makes it session-only until saved).

None enabled means no scope (pi: "all enabled or none enabled = no filter"): the count says so, and Ctrl+S
refuses to save an empty selection (pi saved ``"enabledModels": []``, and Ctrl+P then cycled through every
model while the screen had shown them all off; new-user run #34).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from pi_tui.tui.keymap import Keymap
from pi_tui.tui.modals.keyed_list import KeyedList, bind_keymap

Enabled = list[str] | None
"""Enabled ``provider/id`` values in cycle order; ``None`` means every model (no scope)."""


def toggle(enabled: Enabled, model_id: str) -> Enabled:
    """pi's ``toggle``: from "all", keep only ``model_id``; else add or remove it."""
    if enabled is None:
        return [model_id]
    return [m for m in enabled if m != model_id] if model_id in enabled else [*enabled, model_id]


def enable_all(enabled: Enabled, all_ids: Sequence[str], targets: Sequence[str] | None = None) -> Enabled:
    """pi's ``enableAll``: add ``targets`` (every model when None); all enabled becomes ``None``."""
    if enabled is None:
        return None
    result = [*enabled, *[m for m in (targets if targets is not None else all_ids) if m not in enabled]]
    return None if len(result) == len(all_ids) else result


def clear_all(enabled: Enabled, all_ids: Sequence[str], targets: Sequence[str] | None = None) -> Enabled:
    """pi's ``clearAll``: remove ``targets`` (every model when None)."""
    if enabled is None:
        return [m for m in all_ids if m not in targets] if targets is not None else []
    drop = set(targets if targets is not None else enabled)
    return [m for m in enabled if m not in drop]


def move(enabled: Enabled, model_id: str, delta: int) -> Enabled:
    """pi's ``move``: swap ``model_id`` with its neighbour ``delta`` (-1/+1) places away in the cycle order."""
    if enabled is None or model_id not in enabled:
        return enabled
    index = enabled.index(model_id)
    target = index + delta
    if not 0 <= target < len(enabled):
        return enabled
    result = list(enabled)
    result[index], result[target] = result[target], result[index]
    return result


ACTIONS = {
    "tui.select.confirm": "toggle_model", "tui.select.cancel": "cancel", "app.models.save": "save",
    "app.models.enableAll": "enable_all", "app.models.clearAll": "clear_all",
    "app.models.toggleProvider": "toggle_provider", "app.models.reorderUp": "reorder(-1)",
    "app.models.reorderDown": "reorder(1)",
}


class ScopedModelsScreen(ModalScreen[None]):
    """The selector over ``models`` (objects with ``provider``, ``id``, ``name``) and the ``enabled`` scope;
    ``on_change(enabled)`` after every change, ``on_save(enabled)`` on Ctrl+S."""

    DEFAULT_CSS = """
    ScopedModelsScreen { align: center middle; }
    ScopedModelsScreen > Vertical {
        width: 90%; max-width: 100; height: 80%; border: round $border; background: $surface; padding: 0 1;
    }
    ScopedModelsScreen #scoped-title { height: 1; text-style: bold; }
    ScopedModelsScreen KeyedList, ScopedModelsScreen KeyedList:focus { height: 1fr; border: none; }
    ScopedModelsScreen KeyedList { text-wrap: nowrap; text-overflow: ellipsis; }
    ScopedModelsScreen #scoped-detail { height: 1; color: $text-muted; }
    ScopedModelsScreen #scoped-hint { height: auto; color: $text-muted; }
    ScopedModelsScreen.-short > Vertical, ScopedModelsScreen.-tiny > Vertical { height: 100%; }  /* list rows first */
    """

    def __init__(self, models: Sequence[Any], enabled: Enabled, keymap: Keymap, *,
                 on_change: Callable[[Enabled], None], on_save: Callable[[Enabled], None]) -> None:
        super().__init__()
        self.models = {f"{m.provider}/{m.id}": m for m in models}
        self.all_ids = list(self.models)
        self.enabled: Enabled = [m for m in enabled if m in self.models] if enabled is not None else None
        self.keymap = keymap
        self.on_change = on_change
        self.on_save = on_save
        self.filter = ""
        self.dirty = False
        self.note = ""  # why the last Ctrl+S saved nothing (cleared by the next change)
        self.shown: list[str] = []
        bind_keymap(self, keymap, ACTIONS)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Model Configuration", id="scoped-title")
            yield KeyedList(id="scoped-list")
            yield Static("", id="scoped-detail")
            yield Static("", id="scoped-hint")

    def on_mount(self) -> None:
        self._redraw()
        self.query_one(KeyedList).focus()

    # ------------------------------------------------------------ drawing

    def _ordered(self) -> list[str]:
        if self.enabled is None:
            return list(self.all_ids)
        return [*self.enabled, *[m for m in self.all_ids if m not in self.enabled]]

    def _redraw(self, keep: str | None = None) -> None:
        rows = self.query_one(KeyedList)
        current = keep or self.highlighted_id()
        needle = self.filter.lower()
        self.shown = [m for m in self._ordered() if not needle or needle in m.lower()
                      or needle in str(getattr(self.models[m], "name", "")).lower()]
        rows.clear_options()
        options = []
        for model_id in self.shown:
            model = self.models[model_id]
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(str(model.id))
            text.append(f" [{model.provider}]", style="dim")
            if self.enabled is not None:
                on = model_id in self.enabled
                text.append(" ✓" if on else " ✗", style="green" if on else "dim")
            options.append(Option(text, id=model_id))
        if options:
            rows.add_options(options)
            rows.highlighted = self.shown.index(current) if current in self.shown else 0
        else:
            rows.add_option(Option(Text("  No matching models", style="dim italic"), disabled=True))
        km = self.keymap
        title = "Model Configuration" + (f"  filter: {self.filter}▏" if self.filter else "")
        self.query_one("#scoped-title", Static).update(title)
        count = (f"all enabled ({km.first('tui.select.confirm')}: only this one)"  # what Enter does (tester3 #15)
                 if self.enabled is None else f"{len(self.enabled)}/{len(self.all_ids)} enabled"
                 + (f" (none = {km.first('app.model.cycleForward')} cycles every model)" if not self.enabled else ""))
        hint = Text(
            f"Session-only. {km.first('app.models.save')} to save to settings. "
            f"{km.first('tui.select.confirm')} toggle · {km.first('app.models.enableAll')} all · "
            f"{km.first('app.models.clearAll')} clear · {km.first('app.models.toggleProvider')} provider · "
            f"{km.first('app.models.reorderUp')}/{km.first('app.models.reorderDown')} reorder · {count}")
        if self.dirty:
            hint.append(" (unsaved)", style="yellow")
        if self.note:
            hint.append(" " + self.note, style="bold red")
        self.query_one("#scoped-hint", Static).update(hint)
        self._show_detail()

    def highlighted_id(self) -> str | None:
        """``provider/id`` of the highlighted model (None when the filter matches nothing)."""
        index = self.query_one(KeyedList).highlighted
        return self.shown[index] if index is not None and 0 <= index < len(self.shown) else None

    def _show_detail(self) -> None:
        model_id = self.highlighted_id()
        name = getattr(self.models[model_id], "name", "") if model_id else ""
        self.query_one("#scoped-detail", Static).update(f"Model Name: {name}" if name else "")

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_detail()

    # ------------------------------------------------------------ changes

    def _changed(self, enabled: Enabled, keep: str | None = None) -> None:
        self.enabled = enabled
        self.dirty = True
        self.note = ""
        self._redraw(keep)
        self.on_change(None if enabled is None else list(enabled))

    def _targets(self) -> list[str] | None:
        return list(self.shown) if self.filter else None

    def action_toggle_model(self) -> None:
        """Enable/disable the highlighted model."""
        model_id = self.highlighted_id()
        if model_id is not None:
            self._changed(toggle(self.enabled, model_id), model_id)

    def action_enable_all(self) -> None:
        """Enable every model (or every one the filter shows)."""
        self._changed(enable_all(self.enabled, self.all_ids, self._targets()))

    def action_clear_all(self) -> None:
        """Disable every model (or every one the filter shows)."""
        self._changed(clear_all(self.enabled, self.all_ids, self._targets()))

    def action_toggle_provider(self) -> None:
        """Enable all models of the highlighted one's provider, or disable them when all are enabled."""
        model_id = self.highlighted_id()
        if model_id is None:
            return
        provider = self.models[model_id].provider
        ids = [m for m in self.all_ids if self.models[m].provider == provider]
        all_on = self.enabled is None or all(m in self.enabled for m in ids)
        updated = clear_all(self.enabled, self.all_ids, ids) if all_on else enable_all(self.enabled, self.all_ids, ids)
        self._changed(updated, model_id)

    def action_reorder(self, delta: int) -> None:
        """Move the highlighted enabled model ``delta`` places in the cycle order."""
        model_id = self.highlighted_id()
        if model_id is None or self.enabled is None or model_id not in self.enabled:
            return
        updated = move(self.enabled, model_id, delta)
        if updated != self.enabled:
            self._changed(updated, model_id)

    def action_save(self) -> None:
        """Save the selection (``enabledModels``); an empty one is refused (module docstring)."""
        if self.enabled == []:
            self.note = "Not saved: enable at least one model."
            self._redraw()
            return
        self.on_save(None if self.enabled is None else list(self.enabled))
        self.dirty = False
        self._redraw()

    def action_cancel(self) -> None:
        """Close (the session keeps the selection; it is saved only by Ctrl+S, as in pi)."""
        self.dismiss(None)

    def on_key(self, event: events.Key) -> None:
        if event.key == "backspace" and self.filter:
            self.filter = self.filter[:-1]
        elif event.is_printable and event.character and event.character != " ":
            self.filter += event.character
        else:
            return
        event.stop()
        self._redraw()
