"""settings.json: global file merged with the project file, typed accessors, write-back (pi-reference §3.16).

Files: ``<agentDir>/settings.json`` (global) and ``<cwd>/.pi-tui/settings.json`` (project; read only when the
folder is trusted, ``pi_tui/coding/resources/trust.py``). The effective
settings are the global ones deep-merged with the project ones (objects merge recursively; scalars and arrays
from the project win). Comments and trailing commas are tolerated (JSONC). A file that cannot be parsed is
ignored for that scope and reported in :attr:`SettingsManager.errors` (and kept in ``file_errors``); it is then never overwritten.

Accessors return pi's defaults when a key is missing, and also when it has the wrong type. Each file is checked
when it is read (``settings_check``): every wrong value is one message in ``errors`` naming the file and key,
e.g. ``~/.pi-tui/agent/settings.json: compaction.enabled must be a boolean (it is "yes"); using true`` (pi 0.73
takes such values as they are; new-user run #6). Saving never drops them from the file.

Setters change the global scope and save at once. Saving re-reads the global file under an exclusive lock
(``fcntl.flock`` on ``settings.json.lock``), applies only the keys changed in this process and writes
atomically (temp file + rename), so edits made meanwhile by the user or another instance are kept.
Legacy keys are migrated on load as pi does (``queueMode`` → ``steeringMode``, ``websockets`` → ``transport``,
``retry.maxDelayMs`` → ``retry.provider.maxRetryDelayMs``, ``skills`` object → list).
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

from pi_tui.agent.tool_loop_guard import DEFAULT_MAX_REPEATED_TOOL_FAILURES
from pi_tui.ai.types import THINKING_LEVELS
from pi_tui.coding.config.paths import get_agent_dir, get_project_settings_path, get_settings_path
from pi_tui.coding.config.settings_file import (  # re-exported: auth, trust and MCP files use them
    _locked,
    _read_settings_file,
    deep_merge,
    migrate_settings,
    write_json_atomic,
)

__all__ = ["SettingsManager", "_locked", "deep_merge", "migrate_settings", "write_json_atomic"]

_MISSING = object()


class SettingsManager:
    """Effective settings of one cwd (global ⊕ project) with typed accessors and global write-back."""

    def __init__(
        self,
        global_path: Path | None,
        project_path: Path | None,
        global_settings: dict[str, Any] | None = None,
        project_settings: dict[str, Any] | None = None,
    ) -> None:
        self.global_path = global_path
        self.project_path = project_path
        self.errors: list[str] = []
        self.file_errors: list[str] = []  # files that could not be read or parsed (never drained)
        self._global_error = False
        self._unsaved_reported = False
        self._modified: set[tuple[str, ...]] = set()
        self._reported: set[str] = set()
        self._overrides: dict[str, Any] = {}
        self._global: dict[str, Any] = global_settings if global_settings is not None else {}
        self._project: dict[str, Any] = project_settings if project_settings is not None else {}
        if global_settings is None and global_path is not None:
            self._global, error = _read_settings_file(global_path)
            self._global_error = error is not None
            if error:
                self.errors.append(error)
                self.file_errors.append(error)
            self._check(self._global, global_path)
        if project_settings is None and project_path is not None:
            self._project, error = _read_settings_file(project_path)
            if error:
                self.errors.append(error)
                self.file_errors.append(error)
            self._check(self._project, project_path)
        self._merge()

    def _check(self, data: dict[str, Any], path: Path) -> None:
        """Report each wrong value of one file's ``data`` now, naming ``path`` (the accessors then stay quiet)."""
        from pi_tui.coding.config.settings_check import file_problems

        keys, messages = file_problems(type(self).in_memory(data), str(path))
        self._reported.update(keys)
        self.errors.extend(messages)

    @classmethod
    def create(cls, cwd: str, agent_dir: Path | None = None, *, project_trusted: bool | None = None) -> SettingsManager:
        """Load ``<agentDir>/settings.json`` and, when the project is trusted, ``<cwd>/.pi-tui/settings.json``.

        ``project_trusted``: None asks :func:`pi_tui.coding.resources.trust.is_trusted` (pi 1.x project trust:
        an untrusted folder's settings are not read at all, so it cannot change the model, the shell or the
        session dir); ``project_path`` is then ``None``.
        """
        directory = agent_dir or get_agent_dir()
        if project_trusted is None:
            from pi_tui.coding.resources.trust import is_trusted

            project_trusted = is_trusted(cwd, directory)
        return cls(get_settings_path(directory), get_project_settings_path(cwd) if project_trusted else None)

    @classmethod
    def in_memory(cls, settings: dict[str, Any] | None = None) -> SettingsManager:
        """Settings that are never read from or written to disk."""
        return cls(None, None, migrate_settings(copy.deepcopy(settings or {})), {})

    def _merge(self) -> None:
        self.settings = deep_merge(deep_merge(self._global, self._project), self._overrides)

    def reload(self) -> None:
        """Re-read both files (discarding nothing already saved)."""
        fresh = SettingsManager(self.global_path, self.project_path)
        self._global, self._project, self._global_error = fresh._global, fresh._project, fresh._global_error
        self._unsaved_reported = False
        self.errors.extend(e for e in fresh.errors if e not in self.errors)
        self.file_errors = list(fresh.file_errors)
        self._modified.clear()
        self._merge()

    def apply_overrides(self, overrides: dict[str, Any]) -> None:
        """Runtime overrides (CLI flags) on top of both files; never saved."""
        self._overrides = deep_merge(self._overrides, overrides)
        self._merge()

    def get_global_settings(self) -> dict[str, Any]:
        return copy.deepcopy(self._global)

    def get_project_settings(self) -> dict[str, Any]:
        return copy.deepcopy(self._project)

    # ------------------------------------------------------------------ generic access

    def get(self, path: str, default: Any = None) -> Any:
        """Value at a dotted ``path`` of the effective settings (``"retry.provider.timeoutMs"``), or ``default``."""
        node: Any = self.settings
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    def _typed(self, path: str, default: Any, kinds: type | tuple[type, ...], what: str) -> Any:
        value = self.get(path, _MISSING)
        if value is _MISSING or value is None:
            self._check_parents(path)
            return default
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in _as_tuple(kinds))
        if ok:
            return value
        self._report(path, f"must be {what} (it is {_shown(value)}); using {json.dumps(default)}")
        return default

    def reported_keys(self) -> set[str]:
        """The keys whose wrong value was reported (each is reported once)."""
        return set(self._reported)

    def _report(self, path: str, problem: str) -> None:
        """``settings: <path> <problem>``, once per key."""
        if path not in self._reported:
            self._reported.add(path)
            self.errors.append(f"settings: {path} {problem}")

    def _check_parents(self, path: str) -> None:
        """A missing ``a.b`` whose ``a`` is there but no object (``"compaction": "yes"``) is reported once."""
        node: Any = self.settings
        parts = path.split(".")
        for depth, part in enumerate(parts[:-1]):
            if not isinstance(node, dict) or part not in node:
                return
            node = node[part]
            if node is not None and not isinstance(node, dict):
                self._report(".".join(parts[: depth + 1]), f"must be an object (it is {_shown(node)}); using defaults")
                return

    def _bool(self, path: str, default: bool) -> bool:
        return bool(self._typed(path, default, bool, "a boolean"))

    def _int(self, path: str, default: int | None) -> int | None:
        value = self._typed(path, default, (int, float), "a number")
        return int(value) if value is not None else None

    def _str(self, path: str, default: str | None) -> str | None:
        value = self._typed(path, default, str, "a string")
        return value if value is not None else None

    def _choice(self, path: str, default: str, choices: tuple[str, ...]) -> str:
        value = self._str(path, default)
        if value in choices:
            return value
        self._report(path, f"must be one of {', '.join(choices)} (it is {_shown(value)}); using {json.dumps(default)}")
        return default

    def _str_list(self, path: str) -> list[str] | None:
        value = self._typed(path, None, list, "a list of strings")
        return [str(item) for item in value] if isinstance(value, list) else None

    # ------------------------------------------------------------------ typed accessors (pi defaults)

    @property
    def default_provider(self) -> str | None:
        return self._str("defaultProvider", None)

    @property
    def default_model(self) -> str | None:
        return self._str("defaultModel", None)

    @property
    def default_thinking_level(self) -> str | None:
        level = self._str("defaultThinkingLevel", None)
        if level is None or level in THINKING_LEVELS:
            return level
        self._report("defaultThinkingLevel", f"must be one of {', '.join(THINKING_LEVELS)} (it is {_shown(level)}); "
                     'using "medium"')
        return None

    @property
    def hide_thinking_block(self) -> bool:
        return self._bool("hideThinkingBlock", False)

    @property
    def thinking_budgets(self) -> dict[str, int] | None:
        value = self._typed("thinkingBudgets", None, dict, "an object")
        return dict(value) if isinstance(value, dict) else None

    @property
    def theme(self) -> str:
        return self._str("theme", "dark") or "dark"

    @property
    def quiet_startup(self) -> bool:
        return self._bool("quietStartup", False)

    @property
    def collapse_changelog(self) -> bool:
        return self._bool("collapseChangelog", False)

    @property
    def enable_install_telemetry(self) -> bool:
        return self._bool("enableInstallTelemetry", True)

    @property
    def double_escape_action(self) -> str:
        return self._choice("doubleEscapeAction", "tree", ("tree", "fork", "none"))

    @property
    def tree_filter_mode(self) -> str:
        return self._choice(
            "treeFilterMode", "default", ("default", "no-tools", "user-only", "labeled-only", "all")
        )

    @property
    def editor_padding_x(self) -> int:
        return max(0, min(3, self._int("editorPaddingX", 0) or 0))

    @property
    def autocomplete_max_visible(self) -> int:
        return max(3, min(20, self._int("autocompleteMaxVisible", 5) or 5))

    @property
    def show_hardware_cursor(self) -> bool:
        return self._bool("showHardwareCursor", os.environ.get("PI_HARDWARE_CURSOR") == "1")

    @property
    def warn_anthropic_extra_usage(self) -> bool:
        return self._bool("warnings.anthropicExtraUsage", True)

    @property
    def compaction_enabled(self) -> bool:
        return self._bool("compaction.enabled", True)

    @property
    def compaction_reserve_tokens(self) -> int:
        return self._int("compaction.reserveTokens", 16384) or 16384

    @property
    def compaction_keep_recent_tokens(self) -> int:
        return self._int("compaction.keepRecentTokens", 20000) or 20000

    def get_compaction_settings(self) -> dict[str, Any]:
        """``{enabled, reserveTokens, keepRecentTokens}``."""
        return {
            "enabled": self.compaction_enabled,
            "reserveTokens": self.compaction_reserve_tokens,
            "keepRecentTokens": self.compaction_keep_recent_tokens,
        }

    def get_branch_summary_settings(self) -> dict[str, Any]:
        """``{reserveTokens (16384), skipPrompt (False)}``."""
        return {
            "reserveTokens": self._int("branchSummary.reserveTokens", 16384),
            "skipPrompt": self._bool("branchSummary.skipPrompt", False),
        }

    def get_retry_settings(self) -> dict[str, Any]:
        """``{enabled (True), maxRetries (3), baseDelayMs (2000)}``."""
        return {
            "enabled": self._bool("retry.enabled", True),
            "maxRetries": self._int("retry.maxRetries", 3),
            "baseDelayMs": self._int("retry.baseDelayMs", 2000),
        }

    def get_provider_retry_settings(self) -> dict[str, Any]:
        """``{timeoutMs (None = SDK default), maxRetries (None), maxRetryDelayMs (60000)}``."""
        return {
            "timeoutMs": self._int("retry.provider.timeoutMs", None),
            "maxRetries": self._int("retry.provider.maxRetries", None),
            "maxRetryDelayMs": self._int("retry.provider.maxRetryDelayMs", 60000),
        }

    @property
    def steering_mode(self) -> str:
        return self._choice("steeringMode", "one-at-a-time", ("all", "one-at-a-time"))

    @property
    def follow_up_mode(self) -> str:
        return self._choice("followUpMode", "one-at-a-time", ("all", "one-at-a-time"))

    @property
    def transport(self) -> str:
        return self._choice("transport", "auto", ("sse", "websocket", "auto"))

    @property
    def show_images(self) -> bool:
        return self._bool("terminal.showImages", True)

    @property
    def image_width_cells(self) -> int:
        return max(1, self._int("terminal.imageWidthCells", 60) or 60)

    @property
    def clear_on_shrink(self) -> bool:
        return self._bool("terminal.clearOnShrink", os.environ.get("PI_CLEAR_ON_SHRINK") == "1")

    @property
    def show_terminal_progress(self) -> bool:
        return self._bool("terminal.showTerminalProgress", False)

    @property
    def image_auto_resize(self) -> bool:
        return self._bool("images.autoResize", True)

    @property
    def block_images(self) -> bool:
        return self._bool("images.blockImages", False)

    @property
    def shell_path(self) -> str | None:
        return self._str("shellPath", None)

    @property
    def shell_command_prefix(self) -> str | None:
        return self._str("shellCommandPrefix", None)

    @property
    def max_repeated_tool_failures(self) -> int:
        """``maxRepeatedToolFailures`` (pi-tui, default 5; 0 = no limit): a run stops when the model made the
        same failing tool call this many times (pi_tui.agent.tool_loop_guard; issue 10 class 5)."""
        value = self._int("maxRepeatedToolFailures", DEFAULT_MAX_REPEATED_TOOL_FAILURES)
        return max(0, value) if value is not None else DEFAULT_MAX_REPEATED_TOOL_FAILURES

    @property
    def session_dir(self) -> str | None:
        """``sessionDir`` with ``~`` expanded, or ``None``."""
        value = self._str("sessionDir", None)
        return os.path.expanduser(value) if value else None

    @property
    def enabled_models(self) -> list[str] | None:
        return self._str_list("enabledModels")

    @property
    def code_block_indent(self) -> str:
        return self._str("markdown.codeBlockIndent", "  ") or "  "

    @property
    def enable_skill_commands(self) -> bool:
        return self._bool("enableSkillCommands", True)

    def get_paths(self, key: str) -> list[str]:
        """List settings ``packages``/``extensions``/``skills``/``prompts``/``themes`` (``[]`` when unset)."""
        return self._str_list(key) or []

    # ------------------------------------------------------------------ setters (global scope, saved at once)

    def set_global(self, path: str, value: Any) -> None:
        """Set a dotted ``path`` in the global settings and save (``None`` removes the key)."""
        self.set_global_many({path: value})

    def set_global_many(self, values: dict[str, Any]) -> None:
        """Set several dotted paths, then save once."""
        for path, value in values.items():
            self._set_path(path, value)
        self._merge()
        self.save()

    def _set_path(self, path: str, value: Any) -> None:
        parts = tuple(path.split("."))
        node = self._global
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = {}
                node[part] = child
            node = child
        if value is None:
            node.pop(parts[-1], None)
        else:
            node[parts[-1]] = copy.deepcopy(value)
        self._modified.add(parts)
        self._reported.discard(path)

    def set_default_model_and_provider(self, provider: str, model_id: str) -> None:
        self.set_global_many({"defaultProvider": provider, "defaultModel": model_id})

    def set_default_thinking_level(self, level: str) -> None:
        self.set_global("defaultThinkingLevel", level)

    def set_theme(self, theme: str) -> None:
        self.set_global("theme", theme)

    def set_steering_mode(self, mode: str) -> None:
        self.set_global("steeringMode", mode)

    def set_follow_up_mode(self, mode: str) -> None:
        self.set_global("followUpMode", mode)

    def set_hide_thinking_block(self, hide: bool) -> None:
        self.set_global("hideThinkingBlock", hide)

    def set_compaction_enabled(self, enabled: bool) -> None:
        self.set_global("compaction.enabled", enabled)

    def set_retry_enabled(self, enabled: bool) -> None:
        self.set_global("retry.enabled", enabled)

    def set_enabled_models(self, patterns: list[str] | None) -> None:
        self.set_global("enabledModels", patterns)

    def set_editor_padding_x(self, padding: int) -> None:
        self.set_global("editorPaddingX", max(0, min(3, int(padding))))

    def set_autocomplete_max_visible(self, count: int) -> None:
        self.set_global("autocompleteMaxVisible", max(3, min(20, int(count))))

    def save(self) -> None:
        """Write the keys changed here into the global file (re-read under a lock; other keys kept).

        Skipped when the global file could not be parsed at load time (it is never clobbered; the first such
        change adds one message to ``errors``) or in memory.
        Write failures are recorded in ``errors`` (not raised).
        """
        if self.global_path is None or not self._modified:
            return
        if self._global_error:  # said once: the change holds for this run only (tester2 #3: silently lost)
            if not self._unsaved_reported:
                self._unsaved_reported = True
                self.errors.append(f"{self.global_path}: changes are not saved while the file cannot be parsed "
                                   "(fix it, then /reload); they hold for this run only")
            return
        try:
            with _locked(self.global_path):
                current, error = _read_settings_file(self.global_path)
                if error:
                    self.errors.append(error)
                    return
                for parts in sorted(self._modified):
                    _copy_path(self._global, current, parts)
                write_json_atomic(self.global_path, current)
            self._modified.clear()
        except OSError as error:
            self.errors.append(f"{self.global_path}: cannot save settings: {error}")

    def drain_errors(self) -> list[str]:
        """Return and clear the accumulated error messages."""
        drained, self.errors = self.errors, []
        return drained


def _shown(value: Any) -> str:
    """``value`` as JSON, cut to 40 characters (a message names the wrong value, never a whole file)."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:39] + "…"


def _as_tuple(kinds: type | tuple[type, ...]) -> tuple[type, ...]:
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _copy_path(source: dict[str, Any], target: dict[str, Any], parts: tuple[str, ...]) -> None:
    src: Any = source
    for part in parts:
        src = src.get(part, _MISSING) if isinstance(src, dict) else _MISSING
    node = target
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    if src is _MISSING:
        node.pop(parts[-1], None)
    else:
        node[parts[-1]] = copy.deepcopy(src)
