"""What an HTML export shows: the session header, every entry (all branches) in pi's JSON form, the leaf, the
labels, and optionally the system prompt and tools (pi's ``sessionData`` of ``export-html/index.js``).

Every string is passed through :func:`pi_tui.ai.secret_redaction.redact_text` here, before any rendering, so a
key never reaches the page even where highlighting would split it across ``<span>`` s (DESIGN "Secrets").
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pi_tui.ai.secret_redaction import redact_text
from pi_tui.coding.session.entries import SessionEntryBase, entry_from_json, entry_to_json
from pi_tui.coding.session.loader import load_session_entries


def redact_deep(value: Any) -> Any:
    """``value`` (JSON data) with :func:`redact_text` applied to every string (keys of objects included)."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [redact_deep(item) for item in value]
    if isinstance(value, dict):
        return {redact_text(str(k)): redact_deep(v) for k, v in value.items()}
    return value


@dataclass
class ToolInfo:
    """A tool as listed in the page header: name, description, JSON Schema parameters."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=dict)


@dataclass
class ExportData:
    """Redacted session data for one page.

    ``entries``: pi JSON dicts in file order (``type``, ``id``, ``parentId``, ``timestamp``, ...);
    ``leaf_id``: the current leaf (``None`` for an empty session); ``labels``: entry id → label (latest label
    entry wins, an empty one clears); ``name``: the session name (latest ``session_info``).
    """

    header: dict[str, Any]
    entries: list[dict[str, Any]]
    leaf_id: str | None
    system_prompt: str | None = None
    tools: list[ToolInfo] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    name: str | None = None

    def by_id(self) -> dict[str, dict[str, Any]]:
        """Entries keyed by id."""
        return {str(e.get("id")): e for e in self.entries}

    def entry_models(self) -> list[SessionEntryBase]:
        """The entries as session models (for :func:`pi_tui.coding.session.tree.build_tree`)."""
        return [entry_from_json(e) for e in self.entries]


def _labels_and_name(entries: Iterable[dict[str, Any]]) -> tuple[dict[str, str], str | None]:
    labels: dict[str, str] = {}
    name: str | None = None
    for entry in entries:
        if entry.get("type") == "label" and isinstance(entry.get("targetId"), str):
            label = entry.get("label")
            if isinstance(label, str) and label.strip():
                labels[entry["targetId"]] = label.strip()
            else:
                labels.pop(entry["targetId"], None)
        elif entry.get("type") == "session_info":
            value = entry.get("name")
            name = value.strip() if isinstance(value, str) and value.strip() else None
    return labels, name


def build_export_data(
    header: dict[str, Any],
    entries: Sequence[SessionEntryBase],
    leaf_id: str | None,
    system_prompt: str | None = None,
    tools: Iterable[Any] = (),
) -> ExportData:
    """Redacted :class:`ExportData` from session models; ``tools`` are objects with ``name``, ``description``,
    ``parameters`` (pi-ai ``Tool`` / ``AgentTool``)."""
    dicts = [redact_deep(entry_to_json(entry)) for entry in entries]
    labels, name = _labels_and_name(dicts)
    listed = [
        ToolInfo(
            name=redact_text(str(getattr(tool, "name", ""))),
            description=redact_text(str(getattr(tool, "description", "") or "")),
            parameters=redact_deep(dict(getattr(tool, "parameters", None) or {})),
        )
        for tool in tools
    ]
    return ExportData(
        header=redact_deep(dict(header)),
        entries=dicts,
        leaf_id=leaf_id,
        system_prompt=redact_text(system_prompt) if system_prompt else None,
        tools=listed,
        labels=labels,
        name=name,
    )


def export_data_from_session(session: Any) -> ExportData:
    """:class:`ExportData` of a live ``AgentSession`` (its session manager, system prompt and tools)."""
    manager = session.session_manager
    state = session.agent.state
    return build_export_data(
        manager.get_header().to_json_dict(),
        manager.get_entries(),
        manager.get_leaf_id(),
        system_prompt=getattr(state, "system_prompt", None),
        tools=list(getattr(state, "tools", []) or []),
    )


def export_data_from_file(path: str | os.PathLike[str]) -> ExportData:
    """:class:`ExportData` of a session file, read only (pi's ``exportFromFile``: no system prompt or tools; the
    leaf is the last entry). Raises ``FileNotFoundError`` (``File not found: <path>``) or ``ValueError`` when the
    file holds no session."""
    loaded = load_session_entries(path)
    if not loaded.exists:
        raise FileNotFoundError(f"File not found: {path}")
    if loaded.header is None:
        raise ValueError(f"Not a session file: {path}")
    leaf = loaded.entries[-1].id if loaded.entries else None
    return build_export_data(loaded.header.to_json_dict(), loaded.entries, leaf)
