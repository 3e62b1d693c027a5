"""Theme files: 51 tokens, vars / xterm indices / "" resolved, bad files give clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_tui.tui.theme_loader import (
    BUILTIN_DIR,
    TOKENS,
    ThemeError,
    available_themes,
    find_theme,
    load_theme_file,
    parse_theme,
    to_textual_theme,
)


def test_there_are_51_tokens() -> None:
    assert len(TOKENS) == 51 == len(set(TOKENS))


@pytest.mark.parametrize("path", sorted(BUILTIN_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_every_builtin_theme_loads_and_maps(path: Path) -> None:
    theme = load_theme_file(path)
    assert set(theme.colors) == set(TOKENS)
    textual = to_textual_theme(theme)
    assert textual.name == theme.textual_name


def test_builtin_set() -> None:
    names = available_themes()
    for name in ("dark", "light", "nord", "gruvbox-dark", "solarized-dark", "ansi-dark", "ansi-light"):
        assert name in names


def test_dark_values_match_pi() -> None:
    dark = find_theme("dark")
    assert dark.hex("accent") == "#8abeb7"
    assert dark.hex("userMessageBg") == "#343541"
    assert dark.hex("toolErrorBg") == "#3c2828"
    assert dark.colors["text"] is None  # "" = terminal default
    assert not find_theme("light").dark


def _theme(**overrides: object) -> dict[str, object]:
    colors: dict[str, object] = {t: "#101010" for t in TOKENS}
    colors.update(overrides)
    return {"name": "t", "vars": {"v": 33}, "colors": colors}


def test_vars_indices_and_default() -> None:
    theme = parse_theme(_theme(accent="v", border=196, text=""))
    assert theme.colors["accent"] is not None and theme.colors["accent"].number == 33
    assert theme.colors["border"] is not None and theme.colors["border"].number == 196
    assert theme.colors["text"] is None


def test_missing_tokens_are_named() -> None:
    data = _theme()
    del data["colors"]["bashMode"]  # type: ignore[attr-defined]
    with pytest.raises(ThemeError, match="bashMode"):
        parse_theme(data)


@pytest.mark.parametrize("bad", ["nope", 300, "#12", True, None])
def test_bad_colour_values(bad: object) -> None:
    with pytest.raises(ThemeError):
        parse_theme(_theme(accent=bad))


def test_bad_json_and_missing_file(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    p.write_text("{nope", encoding="utf-8")
    with pytest.raises(ThemeError, match="invalid JSON"):
        load_theme_file(p)
    with pytest.raises(ThemeError, match="not found"):
        find_theme("does-not-exist")


def test_project_theme_overrides_builtin(tmp_path: Path) -> None:
    from pi_tui.coding.resources import trust

    d = tmp_path / ".pi" / "themes"
    d.mkdir(parents=True)
    data = json.loads((BUILTIN_DIR / "dark.json").read_text())
    data["colors"]["accent"] = "#ff0000"
    (d / "dark.json").write_text(json.dumps(data))
    trust.set_override(True)  # project themes load only in a trusted folder (tests/tui/test_theme_trust.py)
    try:
        assert find_theme("dark", tmp_path).hex("accent") == "#ff0000"
    finally:
        trust.reset_process_decisions()
