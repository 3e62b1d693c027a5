"""pi-tui's own changelog for ``/changelog`` (pi's ``utils/changelog.js`` rules, pi docs/usage.md).

``CHANGELOG.md`` sits next to the package (the repository root, as pi's sits in its package directory). An
entry starts at a ``## `` heading that names a version (``## [0.1.0] - 2026-12-01`` or ``## 0.1.0``) and runs
to the next ``## `` heading; headings without a version and the text before the first entry are skipped. The
file lists the newest entry first; ``/changelog`` shows them oldest first, newest last, as pi does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_VERSION = re.compile(r"^##\s+\[?(\d+)\.(\d+)\.(\d+)\]?")
NO_ENTRIES = "No changelog entries found."


@dataclass(frozen=True)
class ChangelogEntry:
    """One version's section: ``(major, minor, patch)`` and its Markdown (heading included)."""

    major: int
    minor: int
    patch: int
    content: str

    @property
    def version(self) -> str:
        """``"major.minor.patch"``."""
        return f"{self.major}.{self.minor}.{self.patch}"


def get_changelog_path() -> Path:
    """``CHANGELOG.md`` of this installation (the directory above the ``pi_tui`` package)."""
    return Path(__file__).resolve().parent.parent.parent / "CHANGELOG.md"


def parse_changelog_text(text: str) -> list[ChangelogEntry]:
    """The versioned entries of a changelog, in file order."""
    entries: list[ChangelogEntry] = []
    current: tuple[int, int, int] | None = None
    lines: list[str] = []

    def flush() -> None:
        if current is not None and lines:
            entries.append(ChangelogEntry(*current, "\n".join(lines).strip()))

    for line in text.split("\n"):
        if line.startswith("## "):
            flush()
            match = _VERSION.match(line)
            current = (int(match[1]), int(match[2]), int(match[3])) if match else None
            lines = [line] if match else []
        elif current is not None:
            lines.append(line)
    flush()
    return entries


def parse_changelog(path: Path | None = None) -> list[ChangelogEntry]:
    """Entries of the changelog file (``[]`` when it is missing or unreadable, as pi)."""
    target = path or get_changelog_path()
    try:
        return parse_changelog_text(target.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return []


def changelog_markdown(path: Path | None = None) -> str:
    """What ``/changelog`` shows: every entry, oldest first, or pi's "No changelog entries found."."""
    entries = parse_changelog(path)
    return "\n\n".join(e.content for e in reversed(entries)) if entries else NO_ENTRIES
