"""``/fork``: pick one of the current branch's user messages (pi 0.73.1 ``UserMessageSelectorComponent``).

pi's "Fork from Message" list: one row per user message (its text on one line) with ``Message N of M``, the
newest highlighted first. Here it is a :class:`FuzzyPicker` (typing filters), dismissed with the chosen message's
entry id or ``None``. Choosing one makes a new session file holding the path up to the message before it
(``AgentSession.fork``); the message's text goes into the editor.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input, OptionList

from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry

FORK_TITLE = "Fork from message"
FORK_HINT = "↑↓ select · Enter fork (a new session; the message goes back into the editor) · Esc close"


def fork_entries(messages: list[dict[str, str]]) -> list[PickerEntry]:
    """Entries for ``get_fork_messages()`` rows (``{entryId, text}``, oldest first): the text on one line,
    ``Message N of M`` after it, the entry id as the value."""
    total = len(messages)
    return [
        PickerEntry(label=" ".join(m["text"].split()) or "(empty)", value=m["entryId"],
                    detail=f"Message {i} of {total}")
        for i, m in enumerate(messages, start=1)
    ]


class ForkPicker(FuzzyPicker):
    """Dismisses with the chosen user message's entry id (str) or ``None``; the newest message is highlighted
    while the filter is empty (pi's initial selection)."""

    def __init__(self, messages: list[dict[str, str]]) -> None:
        super().__init__(FORK_TITLE, fork_entries(messages), hint=FORK_HINT, empty_text="No matching messages")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(Input).cursor_blink = False  # a steady cursor, as the editor's (and a stable snapshot)

    def _refilter(self, query: str) -> None:
        super()._refilter(query)
        if self.shown and not query.strip():
            self.query_one(OptionList).highlighted = len(self.shown) - 1

    @property
    def highlighted_value(self) -> Any:
        """The entry id of the highlighted message (``None`` when nothing is shown)."""
        index = self.query_one(OptionList).highlighted
        return self.shown[index].value if index is not None and 0 <= index < len(self.shown) else None
