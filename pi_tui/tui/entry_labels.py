"""Which transcript message carries a label (pi's ``label`` entries): the labels of the current branch's
message entries, looked up by message (the same object the session holds, else role + timestamp)."""

from __future__ import annotations

from typing import Any

from pi_tui.coding.session.entries import CustomMessageEntry, MessageEntry


def _key(message: Any) -> tuple[str, Any] | None:
    if isinstance(message, dict):
        role, stamp = message.get("role"), message.get("timestamp")
    else:
        role, stamp = getattr(message, "role", None), getattr(message, "timestamp", None)
    return (str(role), stamp) if role and stamp else None


class MessageLabels:
    """Labels of ``manager``'s branch messages (``manager``: a SessionManager or anything with
    ``get_branch()``/``get_label(id)``); :meth:`for_message` finds one."""

    def __init__(self, manager: Any) -> None:
        self._by_object: dict[int, str] = {}
        self._by_key: dict[tuple[str, Any], str] = {}
        self.by_entry: dict[str, str] = {}
        for entry in manager.get_branch():
            label = manager.get_label(entry.id)
            if not label:
                continue
            self.by_entry[entry.id] = label
            if isinstance(entry, MessageEntry):
                self._by_object[id(entry.message)] = label
                key = _key(entry.message)
                if key is not None:
                    self._by_key[key] = label

    def __bool__(self) -> bool:
        return bool(self.by_entry)

    def for_message(self, message: Any) -> str | None:
        """The label of the entry holding ``message``, or None."""
        found = self._by_object.get(id(message))
        if found is not None:
            return found
        key = _key(message)
        return self._by_key.get(key) if key is not None else None

    def for_entry(self, entry: Any) -> str | None:
        """The label of a branch entry (message or custom message), or None."""
        if isinstance(entry, MessageEntry | CustomMessageEntry):
            return self.by_entry.get(entry.id)
        return None
