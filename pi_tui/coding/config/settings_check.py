"""Checking one settings.json file when it is read: every value of the wrong type is one message naming the
file and the key, with the default used instead (new-user run #6; pi 0.73 takes such values as they are).

The check reads every typed accessor of :class:`~pi_tui.coding.config.settings.SettingsManager` on a manager
holding just that file's settings, so the types, choices and defaults are the accessors' own (nothing is
listed twice). Nothing is written: the file keeps its values until the user fixes them.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_tui.coding.config.settings import SettingsManager

READERS = ("get_compaction_settings", "get_branch_summary_settings", "get_retry_settings",
           "get_provider_retry_settings")
"""The accessor methods read besides the properties."""

PATH_LISTS = ("extensions", "skills", "prompts", "themes")
"""List keys read through ``get_paths``."""


def file_problems(probe: SettingsManager, where: str) -> tuple[set[str], list[str]]:
    """``(bad keys, messages)`` for the settings ``probe`` holds (one file's, in memory), each message
    ``<where>: <key> must be …; using <default>``. An accessor that raises is skipped (it reports nothing)."""
    for _, member in inspect.getmembers(type(probe), lambda m: isinstance(m, property)):
        try:
            member.fget(probe)  # type: ignore[misc]
        except Exception:  # a check never stops the settings from loading
            continue
    for name in READERS:
        try:
            getattr(probe, name)()
        except Exception:
            continue
    for key in PATH_LISTS:
        try:
            probe.get_paths(key)
        except Exception:
            continue
    messages = [f"{where}: {message.removeprefix('settings: ')}" for message in probe.drain_errors()]
    return probe.reported_keys(), messages
