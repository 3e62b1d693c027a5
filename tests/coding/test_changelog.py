"""pi-tui's changelog as /changelog reads it (pi's utils/changelog.js rules)."""

from __future__ import annotations

from pathlib import Path

from pi_tui import __version__
from pi_tui.coding.changelog import (
    NO_ENTRIES,
    changelog_markdown,
    get_changelog_path,
    parse_changelog,
    parse_changelog_text,
)

TEXT = """# Changelog

Intro text is not an entry.

## [Unreleased]

- not shown: no version

## [1.2.0] - 2026-12-02

### Added
- two

## 1.1.3

- one
"""


def test_entries_start_at_versioned_headings_and_skip_the_rest() -> None:
    entries = parse_changelog_text(TEXT)
    assert [e.version for e in entries] == ["1.2.0", "1.1.3"]
    assert entries[0].content == "## [1.2.0] - 2026-12-02\n\n### Added\n- two"
    assert "Unreleased" not in "".join(e.content for e in entries) and "Intro" not in entries[0].content


def test_the_screen_text_is_oldest_first_as_pi_shows_it(tmp_path: Path) -> None:
    path = tmp_path / "CHANGELOG.md"
    path.write_text(TEXT, encoding="utf-8")
    text = changelog_markdown(path)
    assert text.index("## 1.1.3") < text.index("## [1.2.0]")
    assert changelog_markdown(tmp_path / "missing.md") == NO_ENTRIES
    path.write_bytes(b"\xff\xfe\x00bad")
    assert parse_changelog(path) == [] and changelog_markdown(path) == NO_ENTRIES


def test_the_repository_changelog_names_this_version() -> None:
    assert get_changelog_path().is_file()
    entries = parse_changelog()
    assert entries and entries[0].version == __version__
