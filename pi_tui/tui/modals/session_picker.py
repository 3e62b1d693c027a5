"""Session picker (``/resume``): sessions of this project, newest first, filtered by name/first message."""

from __future__ import annotations

from typing import Any

from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry
from pi_tui.tui.widgets.tool_format import plural


def session_entries(infos: list[Any]) -> list[PickerEntry]:
    """Entries for ``SessionInfo`` objects (``path``, ``name``, ``first_message``, ``modified``, counts)."""
    entries = []
    for info in sorted(infos, key=lambda i: i.modified, reverse=True):
        first = (info.first_message or "").strip().replace("\n", " ")
        label = info.name or first[:70] or "(empty session)"
        detail = f"{info.modified:%Y-%m-%d %H:%M} · {plural(info.message_count, 'message')}"
        entries.append(PickerEntry(label=label, value=str(info.path), detail=detail))
    return entries


class SessionPicker(FuzzyPicker):
    """Dismisses with the chosen session file path (str) or ``None``."""

    def __init__(self, infos: list[Any]) -> None:
        super().__init__("Resume session", session_entries(infos),
                         empty_text="No matching sessions" if infos else "No sessions yet in this project")
