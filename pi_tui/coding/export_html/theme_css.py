"""The theme's colours as CSS custom properties for the export page (pi's ``generateThemeVars``, re-done).

A pi theme file (``pi_tui/themes/*.json``, ``<cwd>/.pi/themes``, ``<agent dir>/themes``; the same search order
as the TUI's theme loader) gives ``--<token>: #rrggbb;`` for each colour token (``vars`` names resolved, xterm
indices 0-255 converted, ``""`` = the page's own default) plus ``--exportPageBg``/``--exportCardBg``/
``--exportInfoBg`` from its ``export`` section or, as in pi, derived from ``userMessageBg``. A theme that cannot
be found or read falls back to the built-in ``dark`` theme (an export never fails over its colours).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pi_tui.coding.config.paths import get_agent_dir

BUILTIN_THEMES = Path(__file__).resolve().parent.parent.parent / "themes"
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_SYSTEM16 = (
    "#000000", "#800000", "#008000", "#808000", "#000080", "#800080", "#008080", "#c0c0c0",
    "#808080", "#ff0000", "#00ff00", "#ffff00", "#0000ff", "#ff00ff", "#00ffff", "#ffffff",
)


def xterm_hex(index: int) -> str:
    """``#rrggbb`` of xterm-256 colour ``index`` (0-15 system, 16-231 the 6x6x6 cube, 232-255 greys)."""
    if index < 16:
        return _SYSTEM16[index]
    if index < 232:
        steps = (0, 95, 135, 175, 215, 255)
        n = index - 16
        return f"#{steps[n // 36]:02x}{steps[(n // 6) % 6]:02x}{steps[n % 6]:02x}"
    grey = 8 + (index - 232) * 10
    return f"#{grey:02x}{grey:02x}{grey:02x}"


def _resolve(value: Any, vars_: dict[str, Any], depth: int = 0) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and 0 <= value <= 255:
        return xterm_hex(value)
    if isinstance(value, str):
        if _HEX.match(value):
            return value.lower()
        if value in vars_ and depth < 8:
            return _resolve(vars_[value], vars_, depth + 1)
    return None


def find_theme_file(name: str, cwd: str | None = None) -> Path | None:
    """The file of theme ``name`` (or ``name`` itself when it is a ``.json`` path), else ``None``."""
    candidate = Path(name).expanduser()
    if name.endswith(".json") and candidate.is_file():
        return candidate
    dirs = ([Path(cwd) / ".pi" / "themes"] if cwd else []) + [get_agent_dir() / "themes", BUILTIN_THEMES]
    for folder in dirs:
        path = folder / f"{name}.json"
        if path.is_file():
            return path
    return None


def _load(name: str, cwd: str | None) -> dict[str, Any]:
    for candidate in (name, "dark"):
        path = find_theme_file(candidate, cwd)
        if path is None:
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and isinstance(data.get("colors"), dict):
            return data
    return {"name": "fallback", "colors": {}}


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _luminance(colour: str) -> float:
    def linear(channel: int) -> float:
        s = channel / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = _rgb(colour)
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def _scale(colour: str, factor: float) -> str:
    return "#" + "".join(f"{min(255, max(0, round(c * factor))):02x}" for c in _rgb(colour))


def derive_export_colours(base: str | None) -> dict[str, str]:
    """pi's rule: page, card and info backgrounds from ``userMessageBg`` (lighter or darker by its luminance)."""
    if base is None:
        return {"pageBg": "#18181e", "cardBg": "#1e1e24", "infoBg": "#3c3728"}
    r, g, b = _rgb(base)
    if _luminance(base) > 0.5:
        info = (min(255, r + 10), min(255, g + 5), max(0, b - 20))
        return {"pageBg": _scale(base, 0.96), "cardBg": base, "infoBg": "#{:02x}{:02x}{:02x}".format(*info)}
    info = (min(255, r + 20), min(255, g + 15), b)
    return {"pageBg": _scale(base, 0.7), "cardBg": _scale(base, 0.85), "infoBg": "#{:02x}{:02x}{:02x}".format(*info)}


def theme_colours(name: str, cwd: str | None = None) -> dict[str, str]:
    """Every colour the page uses, ``token → #rrggbb``: the theme's tokens that have a colour, plus
    ``exportPageBg``/``exportCardBg``/``exportInfoBg`` and ``text`` (a readable default when the theme leaves it
    to the terminal)."""
    data = _load(name, cwd)
    vars_ = data.get("vars") if isinstance(data.get("vars"), dict) else {}
    assert isinstance(vars_, dict)
    colours: dict[str, str] = {}
    for token, value in data["colors"].items():
        resolved = _resolve(value, vars_)
        if resolved is not None and isinstance(token, str) and re.fullmatch(r"[A-Za-z0-9]+", token):
            colours[token] = resolved
    export = data.get("export") if isinstance(data.get("export"), dict) else {}
    assert isinstance(export, dict)
    derived = derive_export_colours(colours.get("userMessageBg"))
    for key in ("pageBg", "cardBg", "infoBg"):
        given = _resolve(export.get(key), vars_)
        colours["export" + key[0].upper() + key[1:]] = given or derived[key]
    light = _luminance(colours["exportPageBg"]) > 0.5
    colours.setdefault("text", "#1e1e1e" if light else "#d4d4d4")
    for token, dark_default, light_default in _DEFAULTS:
        colours.setdefault(token, light_default if light else dark_default)
    return colours


_DEFAULTS = (
    ("userMessageText", "#d4d4d4", "#1e1e1e"),
    ("customMessageText", "#d4d4d4", "#1e1e1e"),
    ("toolTitle", "#d4d4d4", "#1e1e1e"),
    ("accent", "#8abeb7", "#5a8080"),
    ("muted", "#808080", "#6c6c6c"),
    ("dim", "#666666", "#8a8a8a"),
    ("border", "#5f87ff", "#547da7"),
    ("borderMuted", "#505050", "#b0b0b0"),
    ("error", "#cc6666", "#aa3333"),
    ("warning", "#ffff00", "#9a7326"),
    ("success", "#b5bd68", "#588458"),
    ("userMessageBg", "#343541", "#e8e8e8"),
    ("customMessageBg", "#2d2838", "#ede7f6"),
    ("toolPendingBg", "#282832", "#e8e8f0"),
    ("toolSuccessBg", "#283228", "#e8f0e8"),
    ("toolErrorBg", "#3c2828", "#f0e8e8"),
    ("selectedBg", "#3a3a4a", "#d0d0e0"),
)


def css_variables(colours: dict[str, str]) -> str:
    """``:root{--token:#rrggbb;...}`` for the page (tokens and values are validated above)."""
    body = "".join(f"--{token}:{value};" for token, value in sorted(colours.items()))
    return ":root{" + body + "}"


# Pygments' short token classes → the theme's syntax tokens (the TUI's highlighter uses the same nine).
_SYNTAX_CLASSES = {
    "syntaxComment": "c ch cm cp cpf c1 cs",
    "syntaxKeyword": "k kc kd kn kp kr ow nt",
    "syntaxFunction": "nf fm nd",
    "syntaxVariable": "n nv vc vg vi vm na nb bp",
    "syntaxString": "s sa sb sc dl sd s2 se sh si sx sr s1 ss",
    "syntaxNumber": "m mb mf mh mi mo il",
    "syntaxType": "kt nc nn ne no",
    "syntaxOperator": "o",
    "syntaxPunctuation": "p",
    "toolDiffAdded": "gi",
    "toolDiffRemoved": "gd",
    "accent": "gh gu",
}


def syntax_css() -> str:
    """CSS colouring Pygments' spans with the theme's ``syntax*`` variables."""
    rules = []
    for token, classes in _SYNTAX_CLASSES.items():
        selector = ",".join(f"pre .{name}" for name in classes.split())
        rules.append(f"{selector}{{color:var(--{token})}}")
    return "".join(rules) + "pre .c,pre .c1,pre .cm{font-style:italic}"
