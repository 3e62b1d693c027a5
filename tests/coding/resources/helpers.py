"""Small builders for skill and template files in a temporary tree."""

from __future__ import annotations

from pathlib import Path


def write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` (parents created) and return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def skill(folder: Path, name: str, description: str = "does things", extra: str = "", body: str = "Body") -> Path:
    """``folder/name/SKILL.md`` with the given front matter."""
    return write(folder / name / "SKILL.md", f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}\n")
