"""Load pi theme files (51 colour tokens) and map them onto a Textual ``Theme`` plus Rich styles.

A theme file is ``{"name", "vars"?: {name: colour}, "colors": {token: colour}, "export"?: {...}}`` where a
colour is ``"#rrggbb"``, an xterm-256 index (0-255), the name of a ``vars`` entry, or ``""`` (the terminal's
default colour). All 51 tokens are required (pi-reference §3.15). A pi theme file works unchanged.

Search order for ``--theme NAME``: a path to a ``.json`` file, the project's ``<cwd>/.pi-tui/themes/NAME.json``
and ``<cwd>/.pi/themes/NAME.json`` (pi's folder), only when the project is trusted (project trust, pi 1.x
docs/security.md: a theme is project-supplied behaviour like its extensions and skills;
``pi_tui.coding.resources.trust``), ``<agent dir>/themes/NAME.json`` (agent dir: ``$PI_TUI_DIR`` or
``~/.pi-tui/agent``), then the built-in themes shipped in ``pi_tui/themes``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.color import Color
from rich.style import Style
from textual.theme import BUILTIN_THEMES
from textual.theme import Theme as TextualTheme

from pi_tui.coding.config.paths import APP_DIR_NAME

TOKENS: tuple[str, ...] = (
    # Core UI (11)
    "accent", "border", "borderAccent", "borderMuted", "success", "error", "warning", "muted", "dim", "text",
    "thinkingText",
    # Backgrounds & content (11)
    "selectedBg", "userMessageBg", "userMessageText", "customMessageBg", "customMessageText",
    "customMessageLabel", "toolPendingBg", "toolSuccessBg", "toolErrorBg", "toolTitle", "toolOutput",
    # Markdown (10)
    "mdHeading", "mdLink", "mdLinkUrl", "mdCode", "mdCodeBlock", "mdCodeBlockBorder", "mdQuote", "mdQuoteBorder",
    "mdHr", "mdListBullet",
    # Diffs (3)
    "toolDiffAdded", "toolDiffRemoved", "toolDiffContext",
    # Syntax (9)
    "syntaxComment", "syntaxKeyword", "syntaxFunction", "syntaxVariable", "syntaxString", "syntaxNumber",
    "syntaxType", "syntaxOperator", "syntaxPunctuation",
    # Thinking borders (6)
    "thinkingOff", "thinkingMinimal", "thinkingLow", "thinkingMedium", "thinkingHigh", "thinkingXhigh",
    # Bash mode (1)
    "bashMode",
)

BUILTIN_DIR = Path(__file__).resolve().parent.parent / "themes"
# pi themes whose Textual side is Textual's own terminal-palette theme of the same name.
_ANSI_TEXTUAL = {"ansi-dark", "ansi-light"}


class ThemeError(ValueError):
    """A theme file is missing, unreadable or invalid; the message names the file and the problem."""


@dataclass
class PiTheme:
    """A resolved pi theme.

    ``colors`` maps each of the 51 tokens to a Rich ``Color`` or ``None`` (terminal default).
    ``export`` holds the optional export colours as given. ``textual_name`` is the Textual theme to activate.
    """

    name: str
    colors: dict[str, Color | None]
    export: dict[str, str] = field(default_factory=dict)
    dark: bool = True
    path: Path | None = None

    @property
    def textual_name(self) -> str:
        """Name of the Textual theme registered for this pi theme."""
        return self.name if self.name in _ANSI_TEXTUAL else f"pi-{self.name}"

    def hex(self, token: str, default: str | None = None) -> str | None:
        """``#rrggbb`` for ``token`` (xterm indices converted), or ``default`` when the token is ``""``."""
        color = self.colors.get(token)
        if color is None:
            return default
        return color.get_truecolor().hex

    def fg(self, token: str, **kw: Any) -> Style:
        """Rich style with ``token`` as foreground (plus e.g. ``bold=True``)."""
        return Style(color=self.colors.get(token), **kw)

    def bg(self, token: str, **kw: Any) -> Style:
        """Rich style with ``token`` as background."""
        return Style(bgcolor=self.colors.get(token), **kw)


def _parse_colour(value: Any, vars_: dict[str, Any], token: str, where: str, depth: int = 0) -> Color | None:
    if isinstance(value, bool):
        raise ThemeError(f"{where}: colour for {token!r} must be a string or 0-255, got {value!r}")
    if isinstance(value, int):
        if not 0 <= value <= 255:
            raise ThemeError(f"{where}: colour index for {token!r} must be 0-255, got {value}")
        return Color.from_ansi(value)
    if not isinstance(value, str):
        raise ThemeError(f"{where}: colour for {token!r} must be a string or 0-255, got {value!r}")
    if value == "":
        return None
    if value.startswith("#"):
        try:
            return Color.parse(value)
        except Exception as exc:  # rich raises ColorParseError
            raise ThemeError(f"{where}: bad colour {value!r} for {token!r}") from exc
    if value in vars_ and depth < 8:
        return _parse_colour(vars_[value], vars_, token, where, depth + 1)
    raise ThemeError(f"{where}: colour {value!r} for {token!r} is not #rrggbb, 0-255, \"\" or a vars name")


def parse_theme(data: Any, where: str = "<theme>", path: Path | None = None) -> PiTheme:
    """Validate and resolve a theme document (already JSON-decoded).

    Raises ``ThemeError`` naming the missing tokens or the bad value.
    """
    if not isinstance(data, dict):
        raise ThemeError(f"{where}: a theme must be a JSON object")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ThemeError(f"{where}: missing \"name\"")
    colors = data.get("colors")
    if not isinstance(colors, dict):
        raise ThemeError(f"{where}: missing \"colors\" object")
    vars_ = data.get("vars") or {}
    if not isinstance(vars_, dict):
        raise ThemeError(f"{where}: \"vars\" must be an object")
    missing = [t for t in TOKENS if t not in colors]
    if missing:
        raise ThemeError(f"{where}: missing colour tokens: {', '.join(missing)}")
    resolved = {t: _parse_colour(colors[t], vars_, t, where) for t in TOKENS}
    export: dict[str, Any] = data["export"] if isinstance(data.get("export"), dict) else {}
    dark = _guess_dark(name, export)
    return PiTheme(name=name, colors=resolved, export=dict(export or {}), dark=dark, path=path)


def _guess_dark(name: str, export: dict[str, Any]) -> bool:
    page = export.get("pageBg") if export else None
    if isinstance(page, str) and page.startswith("#"):
        try:
            r, g, b = Color.parse(page).get_truecolor()
            return (0.299 * r + 0.587 * g + 0.114 * b) < 128
        except Exception as exc:  # a bad colour: guess from the name instead
            logging.getLogger("pi_tui.tui").warning("theme %s: bad export.pageBg %r", name, page, exc_info=exc)
    return "light" not in name.lower()


def load_theme_file(path: Path) -> PiTheme:
    """Read and parse one theme file. Raises ``ThemeError`` (never ``OSError``/``JSONDecodeError``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ThemeError(f"{path}: cannot read theme ({exc.strerror or exc})") from exc
    except json.JSONDecodeError as exc:
        raise ThemeError(f"{path}: invalid JSON at line {exc.lineno}: {exc.msg}") from exc
    return parse_theme(data, str(path), path)


def agent_dir() -> Path:
    """The user's agent directory (``pi_tui.coding.config.paths.get_agent_dir``: ``$PI_TUI_DIR`` or default)."""
    from pi_tui.coding.config.paths import get_agent_dir

    return get_agent_dir()


def theme_dirs(cwd: Path | None = None) -> list[Path]:
    """Directories searched for themes, highest priority first (the project's only when it is trusted)."""
    dirs = []
    if cwd is not None and project_trusted(cwd):
        dirs.append(cwd / APP_DIR_NAME / "themes")
        dirs.append(cwd / ".pi" / "themes")
    dirs.append(agent_dir() / "themes")
    dirs.append(BUILTIN_DIR)
    return dirs


def project_trusted(cwd: Path) -> bool:
    """Whether ``cwd``'s project themes may load (``trust.is_trusted``; never prompts)."""
    from pi_tui.coding.resources import trust

    return trust.is_trusted(cwd)


EXTENSION_THEMES: dict[str, Path] = {}
"""Theme files extensions offered (``resources_discover`` ``theme_paths``; name = file stem), after the theme
folders in the search order; set by ``pi_tui.tui.extension_themes``, emptied when the extensions unload."""


def set_extension_themes(files: dict[str, Path]) -> None:
    """Replace the extension themes (``EXTENSION_THEMES``)."""
    EXTENSION_THEMES.clear()
    EXTENSION_THEMES.update(files)


def available_themes(cwd: Path | None = None) -> list[str]:
    """Sorted names of every theme file found (built-in, user, project, extensions')."""
    names: set[str] = set(EXTENSION_THEMES)
    for d in theme_dirs(cwd):
        if d.is_dir():
            names.update(p.stem for p in d.glob("*.json"))
    return sorted(names)


def find_theme(name_or_path: str, cwd: Path | None = None) -> PiTheme:
    """Resolve ``--theme`` / ``/theme`` input to a ``PiTheme``. Raises ``ThemeError`` when not found."""
    candidate = Path(name_or_path).expanduser()
    if name_or_path.endswith(".json") and candidate.is_file():
        return load_theme_file(candidate)
    for d in theme_dirs(cwd):
        p = d / f"{name_or_path}.json"
        if p.is_file():
            return load_theme_file(p)
    if name_or_path in EXTENSION_THEMES:
        return load_theme_file(EXTENSION_THEMES[name_or_path])
    if cwd is not None:
        held = [d / f"{name_or_path}.json" for d in (cwd / APP_DIR_NAME / "themes", cwd / ".pi" / "themes")]
        found = next((p for p in held if p.is_file()), None)
        if found is not None:  # there, but the folder is not trusted (theme_dirs left it out)
            raise ThemeError(f"Theme {name_or_path} is in {found.parent}, which is not loaded: this folder is not "
                             "trusted (start with --trust-project, or answer the trust question)")
    raise ThemeError(f"Theme not found: {name_or_path} (available: {', '.join(available_themes(cwd))})")


def to_textual_theme(theme: PiTheme) -> TextualTheme:
    """Map pi tokens onto a Textual ``Theme``; the terminal-palette themes map to Textual's own."""
    if theme.name in _ANSI_TEXTUAL:
        return BUILTIN_THEMES[theme.name]
    default_bg = "#1e1e24" if theme.dark else "#fafafa"
    default_fg = "#d4d4d4" if theme.dark else "#1e1e1e"
    background = theme.export.get("pageBg") if isinstance(theme.export.get("pageBg"), str) else None
    surface = theme.export.get("cardBg") if isinstance(theme.export.get("cardBg"), str) else None
    return TextualTheme(
        name=theme.textual_name,
        primary=theme.hex("border", "#5f87ff") or "#5f87ff",
        secondary=theme.hex("accent"),
        accent=theme.hex("borderAccent"),
        warning=theme.hex("warning"),
        error=theme.hex("error"),
        success=theme.hex("success"),
        foreground=theme.hex("text", default_fg),
        background=background or default_bg,
        surface=surface or background or default_bg,
        panel=theme.hex("selectedBg"),
        dark=theme.dark,
        variables={
            "border": theme.hex("border", "#5f87ff") or "#5f87ff",
            "border-blurred": theme.hex("borderMuted", "#505050") or "#505050",
            "footer-background": background or default_bg,
            "input-selection-background": theme.hex("selectedBg", "#3a3a4a") or "#3a3a4a",
        },
    )
