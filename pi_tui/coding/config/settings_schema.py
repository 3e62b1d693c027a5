"""What ``/settings`` offers: one :class:`SettingSpec` per row, value parsing and where a value comes from.

The rows are pi 0.73.1's settings selector (``modes/interactive/components/settings-selector.js``, its ids in
:attr:`SettingSpec.id`) plus the values pi's docs/settings.md lists and pi-tui's issue 12 asks for on the same
screen: the compaction thresholds, the retry numbers and the default model. Each row edits one dotted key of
``settings.json`` (:attr:`SettingSpec.path`); pi's defaults are the ones of ``SettingsManager``'s accessors.

:func:`parse_value` turns typed text into the JSON value to save and raises :class:`SettingValueError` (the
message is shown to the user) for a value outside the row's choices or range. :func:`setting_state` tells
where the effective value comes from: the global file, the project file (which then wins over any global
change, pi docs/settings.md "Project Overrides"), or pi's default. :func:`save_setting` writes the global
file at once through ``SettingsManager.set_global`` (its cross-process lock keeps other keys and other
instances' edits).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pi_tui.ai.types import THINKING_LEVELS
from pi_tui.coding.config.settings import SettingsManager

Kind = Literal["bool", "choice", "int", "theme", "model"]
Use = Literal["live", "restart", "unused"]


class SettingValueError(ValueError):
    """A value a row does not take; ``str(error)`` is the message shown to the user."""


@dataclass(frozen=True)
class SettingSpec:
    """One row: ``id`` (pi's selector id where pi has the row), ``path`` (dotted settings.json key), ``label``,
    ``description``, ``kind`` (``bool``, ``choice`` over ``choices``, ``int`` within ``minimum``..``maximum``,
    ``theme`` and ``model`` are chosen from lists the front end supplies), ``default`` (pi's), ``use``: when
    pi-tui acts on it (``live`` at once, ``restart`` at the next start, ``unused``: saved for pi, pi-tui has no
    such feature)."""

    id: str
    path: str
    label: str
    description: str
    kind: Kind
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    use: Use = "live"


_BOOL = ("true", "false")
_QUEUE_MODES = ("one-at-a-time", "all")

SETTINGS: tuple[SettingSpec, ...] = (
    SettingSpec("theme", "theme", "Theme", "Color theme for the interface (previewed while you move)",
                "theme", "dark"),
    SettingSpec("default-model", "defaultModel", "Default model",
                "Model new sessions start with (defaultProvider/defaultModel)", "model", None),
    SettingSpec("thinking", "defaultThinkingLevel", "Thinking level",
                "Reasoning depth for thinking-capable models (this session and the default)", "choice", "medium",
                choices=tuple(THINKING_LEVELS)),
    SettingSpec("hide-thinking", "hideThinkingBlock", "Hide thinking",
                "Hide thinking blocks in assistant responses", "bool", False, _BOOL),
    SettingSpec("steering-mode", "steeringMode", "Steering mode",
                "Enter while streaming queues steering messages. 'one-at-a-time': deliver one, wait for "
                "response. 'all': deliver all at once.", "choice", "one-at-a-time", _QUEUE_MODES),
    SettingSpec("follow-up-mode", "followUpMode", "Follow-up mode",
                "Alt+Enter queues follow-up messages until agent stops. 'one-at-a-time': deliver one, wait for "
                "response. 'all': deliver all at once.", "choice", "one-at-a-time", _QUEUE_MODES),
    SettingSpec("autocompact", "compaction.enabled", "Auto-compact",
                "Automatically compact context when it gets too large", "bool", True, _BOOL),
    SettingSpec("compaction-reserve", "compaction.reserveTokens", "Compaction reserve tokens",
                "Tokens kept free for the reply; compaction starts when the context would eat into them",
                "int", 16384, minimum=0, maximum=1_000_000),
    SettingSpec("compaction-keep", "compaction.keepRecentTokens", "Compaction keep tokens",
                "Recent tokens kept verbatim (not summarised) when compacting", "int", 20000,
                minimum=0, maximum=1_000_000),
    SettingSpec("retry", "retry.enabled", "Auto-retry",
                "Retry automatically on transient errors (overloaded, rate limit, 5xx)", "bool", True, _BOOL),
    SettingSpec("retry-max", "retry.maxRetries", "Retry attempts", "Maximum automatic retry attempts",
                "int", 3, minimum=0, maximum=100),
    SettingSpec("retry-delay", "retry.baseDelayMs", "Retry base delay (ms)",
                "Base delay of the exponential backoff (2 s, 4 s, 8 s for 2000)", "int", 2000,
                minimum=0, maximum=3_600_000),
    SettingSpec("auto-resize-images", "images.autoResize", "Auto-resize images",
                "Resize large images to 2000x2000 max for better model compatibility", "bool", True, _BOOL),
    SettingSpec("block-images", "images.blockImages", "Block images",
                "Prevent images from being sent to LLM providers", "bool", False, _BOOL),
    SettingSpec("show-images", "terminal.showImages", "Show images", "Render images inline in terminal",
                "bool", True, _BOOL),
    SettingSpec("image-width-cells", "terminal.imageWidthCells", "Image width",
                "Preferred inline image width in terminal cells", "choice", "60", ("60", "80", "120")),
    SettingSpec("skill-commands", "enableSkillCommands", "Skill commands",
                "Register skills as /skill:name commands (after /reload or a restart)", "bool", True, _BOOL,
                use="restart"),
    SettingSpec("transport", "transport", "Transport",
                "Preferred transport for providers that support several (pi-tui speaks SSE only)", "choice",
                "sse", ("sse", "websocket", "websocket-cached", "auto"), use="unused"),
    SettingSpec("quiet-startup", "quietStartup", "Quiet startup", "Disable verbose printing at startup",
                "bool", False, _BOOL, use="unused"),
    SettingSpec("collapse-changelog", "collapseChangelog", "Collapse changelog",
                "Show condensed changelog after updates", "bool", False, _BOOL, use="unused"),
    SettingSpec("double-escape-action", "doubleEscapeAction", "Double-escape action",
                "Action when pressing Escape twice with empty editor", "choice", "tree",
                ("tree", "fork", "none"), use="unused"),
    SettingSpec("tree-filter-mode", "treeFilterMode", "Tree filter mode", "Default filter when opening /tree",
                "choice", "default", ("default", "no-tools", "user-only", "labeled-only", "all")),
    SettingSpec("show-hardware-cursor", "showHardwareCursor", "Show hardware cursor",
                "Show the terminal cursor while still positioning it for IME support", "bool", False, _BOOL,
                use="unused"),
    SettingSpec("editor-padding", "editorPaddingX", "Editor padding",
                "Horizontal padding for input editor (0-3)", "choice", "0", ("0", "1", "2", "3"), use="unused"),
    SettingSpec("autocomplete-max-visible", "autocompleteMaxVisible", "Autocomplete max items",
                "Max visible items in autocomplete dropdown (3-20)", "choice", "5",
                ("3", "5", "7", "10", "15", "20")),
    SettingSpec("clear-on-shrink", "terminal.clearOnShrink", "Clear on shrink",
                "Clear empty rows when content shrinks (may cause flicker)", "bool", False, _BOOL, use="unused"),
    SettingSpec("terminal-progress", "terminal.showTerminalProgress", "Terminal progress",
                "Show OSC 9;4 progress indicators in the terminal tab bar", "bool", False, _BOOL, use="unused"),
    SettingSpec("anthropic-extra-usage", "warnings.anthropicExtraUsage", "Warn: Anthropic extra usage",
                "Warn when Anthropic subscription auth may use paid extra usage", "bool", True, _BOOL,
                use="unused"),
)
"""Every row, in the order the screen shows them."""

_INT_CHOICE_PATHS = frozenset({"terminal.imageWidthCells", "editorPaddingX", "autocompleteMaxVisible"})


def spec_by_id(setting_id: str) -> SettingSpec:
    """The row ``setting_id``; raises ``KeyError`` for an unknown id."""
    for spec in SETTINGS:
        if spec.id == setting_id:
            return spec
    raise KeyError(setting_id)


def parse_value(spec: SettingSpec, text: str, choices: tuple[str, ...] | None = None) -> Any:
    """The JSON value to save for ``text`` typed or picked in row ``spec`` (``choices`` replaces the row's own,
    e.g. the theme names found). Raises :class:`SettingValueError` with a message naming the row."""
    raw = text.strip()
    allowed = choices if choices is not None else spec.choices
    if spec.kind == "bool":
        lowered = raw.lower()
        if lowered in ("true", "on", "yes", "1"):
            return True
        if lowered in ("false", "off", "no", "0"):
            return False
        raise SettingValueError(f"{spec.label}: {raw!r} is not true or false")
    if spec.kind == "int":
        try:
            value = int(raw.replace("_", ""))
        except ValueError:
            raise SettingValueError(f"{spec.label}: {raw!r} is not a whole number") from None
        low = spec.minimum if spec.minimum is not None else value
        high = spec.maximum if spec.maximum is not None else value
        if not low <= value <= high:
            raise SettingValueError(f"{spec.label}: {value} is outside {low}..{high}")
        return value
    if spec.kind == "model":
        provider, sep, model_id = raw.partition("/")
        if not sep or not provider or not model_id:
            raise SettingValueError(f"{spec.label}: {raw!r} is not provider/model-id")
        return raw
    if allowed and raw not in allowed:
        raise SettingValueError(f"{spec.label}: {raw!r} is not one of {', '.join(allowed)}")
    if not raw:
        raise SettingValueError(f"{spec.label}: a value is needed")
    return int(raw) if spec.path in _INT_CHOICE_PATHS else raw


def format_value(spec: SettingSpec, value: Any) -> str:
    """How the screen shows ``value`` of row ``spec`` (``true``/``false``, numbers, names)."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


_MISSING = object()


def _lookup(settings: dict[str, Any], path: str) -> Any:
    node: Any = settings
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


@dataclass(frozen=True)
class SettingState:
    """Where row ``spec``'s value comes from: ``value`` (effective), ``global_value``/``project_value`` (None
    when that file does not set it), ``source``: ``project`` (the project file wins), ``global`` or
    ``default``."""

    spec: SettingSpec
    value: Any
    global_value: Any
    project_value: Any
    source: Literal["project", "global", "default"]

    @property
    def overridden(self) -> bool:
        """True when the project file sets this key, so a global change does not take effect here."""
        return self.source == "project"


def _effective(spec: SettingSpec, manager: SettingsManager) -> Any:
    """The typed effective value through the manager's accessors (pi's defaults and type checks)."""
    if spec.kind == "model":
        provider, model_id = manager.default_provider, manager.default_model
        return f"{provider}/{model_id}" if provider and model_id else None
    accessors: dict[str, Any] = {
        "theme": lambda: manager.theme,
        "defaultThinkingLevel": lambda: manager.default_thinking_level or spec.default,
        "hideThinkingBlock": lambda: manager.hide_thinking_block,
        "steeringMode": lambda: manager.steering_mode,
        "followUpMode": lambda: manager.follow_up_mode,
        "compaction.enabled": lambda: manager.compaction_enabled,
        "compaction.reserveTokens": lambda: manager.compaction_reserve_tokens,
        "compaction.keepRecentTokens": lambda: manager.compaction_keep_recent_tokens,
        "retry.enabled": lambda: manager.get_retry_settings()["enabled"],
        "retry.maxRetries": lambda: manager.get_retry_settings()["maxRetries"],
        "retry.baseDelayMs": lambda: manager.get_retry_settings()["baseDelayMs"],
        "images.autoResize": lambda: manager.image_auto_resize,
        "images.blockImages": lambda: manager.block_images,
        "terminal.showImages": lambda: manager.show_images,
        "terminal.imageWidthCells": lambda: manager.image_width_cells,
        "enableSkillCommands": lambda: manager.enable_skill_commands,
        "quietStartup": lambda: manager.quiet_startup,
        "collapseChangelog": lambda: manager.collapse_changelog,
        "doubleEscapeAction": lambda: manager.double_escape_action,
        "treeFilterMode": lambda: manager.tree_filter_mode,
        "showHardwareCursor": lambda: manager.show_hardware_cursor,
        "editorPaddingX": lambda: manager.editor_padding_x,
        "autocompleteMaxVisible": lambda: manager.autocomplete_max_visible,
        "terminal.clearOnShrink": lambda: manager.clear_on_shrink,
        "terminal.showTerminalProgress": lambda: manager.show_terminal_progress,
        "warnings.anthropicExtraUsage": lambda: manager.warn_anthropic_extra_usage,
    }
    accessor = accessors.get(spec.path)
    if accessor is not None:
        return accessor()
    value = manager.get(spec.path, _MISSING)
    return spec.default if value is _MISSING else value


def setting_state(spec: SettingSpec, manager: SettingsManager) -> SettingState:
    """Row ``spec``'s effective value and where it comes from (``SettingState``)."""
    paths = ("defaultProvider", "defaultModel") if spec.kind == "model" else (spec.path,)
    global_settings, project_settings = manager.get_global_settings(), manager.get_project_settings()

    def joined(settings: dict[str, Any]) -> Any:
        values = [_lookup(settings, path) for path in paths]
        if all(v is _MISSING for v in values):
            return None
        return "/".join(str(v) for v in values if v is not _MISSING) if len(values) > 1 else values[0]

    global_value, project_value = joined(global_settings), joined(project_settings)
    source: Literal["project", "global", "default"] = (
        "project" if project_value is not None else "global" if global_value is not None else "default")
    return SettingState(spec, _effective(spec, manager), global_value, project_value, source)


def save_setting(spec: SettingSpec, manager: SettingsManager, value: Any) -> list[str]:
    """Write ``value`` (from :func:`parse_value`) for row ``spec`` into the global settings.json at once;
    returns the manager's errors (a failed save), to show. The default model writes ``defaultProvider`` and
    ``defaultModel`` together."""
    if spec.kind == "model":
        provider, _, model_id = str(value).partition("/")
        manager.set_global_many({"defaultProvider": provider, "defaultModel": model_id})
    else:
        manager.set_global(spec.path, value)
    return [str(error) for error in manager.drain_errors()]
