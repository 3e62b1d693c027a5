"""Model picker (``/model``, Ctrl+L): the session's available models plus local servers found on start."""

from __future__ import annotations

from typing import Any

from pi_tui.tui.modals.fuzzy_picker import FuzzyPicker, PickerEntry


def model_entries(models: list[Any], current: Any = None, local: list[Any] | None = None) -> list[PickerEntry]:
    """Picker entries for ``models`` (``Model`` objects), current model marked; ``local`` models last. Each is
    matched by id, ``provider/id`` and its detail (pi 0.73.1 ``ModelSelectorComponent.filterModels``)."""
    cur = (getattr(current, "provider", None), getattr(current, "id", None))
    entries = []
    seen = set()
    for m in list(models) + list(local or []):
        key = (m.provider, m.id)
        if key in seen:
            continue
        seen.add(key)
        detail = m.provider + (f" · {m.name}" if getattr(m, "name", "") and m.name != m.id else "")
        if getattr(m, "reasoning", False):
            detail += " · reasoning"
        entries.append(PickerEntry(label=m.id, value=m, detail=detail, current=key == cur,
                                   names=(f"{m.provider}/{m.id}",)))  # pi's selector matches provider/id
    return entries


class ModelPicker(FuzzyPicker):
    """Dismisses with the chosen ``Model`` or ``None``."""

    def __init__(self, models: list[Any], current: Any = None, local: list[Any] | None = None,
                 query: str = "") -> None:
        super().__init__("Select model", model_entries(models, current, local), query=query,
                         empty_text="No matching models")  # pi's model selector
