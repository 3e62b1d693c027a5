"""Skills in the Agent Skills format (pi 0.73 docs/skills.md, ``core/skills``; pi-reference §3.12).

A skill is a folder with a ``SKILL.md`` whose YAML front matter has ``name`` and ``description`` (and optionally
``disable-model-invocation: true``). Loading is lenient like pi's: a name that breaks the spec (does not match
its folder, over 64 characters, not lowercase ``a-z0-9-``, a leading/trailing or doubled hyphen) or a
description over 1024 characters is a warning and the skill still loads; a missing description, invalid YAML
or an unreadable file is a warning and the skill is skipped. Nothing here raises for a bad file.

Folder scan (:func:`collect_skill_files`): a folder holding ``SKILL.md`` is one skill and is not searched
further; otherwise its sub-folders are searched (names starting with ``.`` and ``node_modules`` skipped, entries
matched by ``.gitignore``/``.ignore``/``.fdignore`` files skipped, symlinks followed), and in ``"pi"`` mode the
``*.md`` files directly in the scanned root are skills too (``~/.pi-tui/agent/skills``, ``.pi-tui/skills``,
settings and ``--skill`` folders); ``"agents"`` mode (``.agents/skills``) ignores root files.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pi_tui.coding.resources.diagnostics import ResourceDiagnostic
from pi_tui.coding.resources.frontmatter import FrontmatterError, parse_frontmatter, strip_frontmatter
from pi_tui.coding.resources.scan import IgnoreRules, enter_folder, entry_kind
from pi_tui.coding.resources.skill_block import parse_skill_block as parse_skill_block  # its home

MAX_NAME_LENGTH = 64
MAX_DESCRIPTION_LENGTH = 1024
SKILL_FILE = "SKILL.md"
_NAME_CHARS = re.compile(r"^[a-z0-9-]+$")

ScanMode = Literal["pi", "agents"]


@dataclass(frozen=True)
class Skill:
    """A loaded skill. ``file_path``: its ``SKILL.md`` (or root ``.md``) file; ``base_dir``: the folder relative
    references resolve against; ``source``: ``user``, ``project``, ``settings`` or ``cli``."""

    name: str
    description: str
    file_path: str
    base_dir: str
    source: str = "path"
    disable_model_invocation: bool = False


def validate_name(name: str, parent_dir_name: str) -> list[str]:
    """Agent Skills name rules; each broken rule is one message (pi's wording)."""
    errors: list[str] = []
    if name != parent_dir_name:
        errors.append(f'name "{name}" does not match parent directory "{parent_dir_name}"')
    if len(name) > MAX_NAME_LENGTH:
        errors.append(f"name exceeds {MAX_NAME_LENGTH} characters ({len(name)})")
    if not _NAME_CHARS.match(name):
        errors.append("name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)")
    if name.startswith("-") or name.endswith("-"):
        errors.append("name must not start or end with a hyphen")
    if "--" in name:
        errors.append("name must not contain consecutive hyphens")
    return errors


def validate_description(description: object) -> list[str]:
    """Missing/blank description or one over 1024 characters (pi's wording)."""
    if not isinstance(description, str) or not description.strip():
        return ["description is required"]
    if len(description) > MAX_DESCRIPTION_LENGTH:
        return [f"description exceeds {MAX_DESCRIPTION_LENGTH} characters ({len(description)})"]
    return []


def load_skill_file(path: str | os.PathLike[str], source: str = "path") -> tuple[Skill | None, list[ResourceDiagnostic]]:
    """``(skill or None, warnings)`` for one markdown file; never raises."""
    file_path = os.path.abspath(path)
    diagnostics: list[ResourceDiagnostic] = []

    def warn(message: str) -> None:
        diagnostics.append(ResourceDiagnostic("warning", message, file_path))

    try:
        text = Path(file_path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        warn(f"cannot read skill file: {error}")
        return None, diagnostics
    try:
        data = parse_frontmatter(text).data
    except FrontmatterError as error:
        warn(str(error))
        return None, diagnostics
    base_dir = os.path.dirname(file_path)
    parent = os.path.basename(base_dir)
    description = data.get("description")
    for message in validate_description(description):
        warn(message)
    raw_name = data.get("name")
    if raw_name is not None and raw_name != "" and not isinstance(raw_name, str):
        warn("name must be a string")
        return None, diagnostics
    name = raw_name or parent
    for message in validate_name(name, parent):
        warn(message)
    if not isinstance(description, str) or not description.strip():
        return None, diagnostics
    skill = Skill(
        name=name,
        description=description,
        file_path=file_path,
        base_dir=base_dir,
        source=source,
        disable_model_invocation=data.get("disable-model-invocation") is True,
    )
    return skill, diagnostics


def collect_skill_files(directory: str | os.PathLike[str], mode: ScanMode = "pi") -> list[str]:
    """The skill files under ``directory`` by the scan rules of the module docstring (entries sorted by name,
    as Node's ``readdir``); ``[]`` when it does not exist."""
    root = Path(os.path.abspath(directory))
    if not root.is_dir():
        return []
    rules = IgnoreRules(root)
    return _collect(root, root, mode, rules, set())


def _collect(directory: Path, root: Path, mode: ScanMode, rules: IgnoreRules, visited: set[str]) -> list[str]:
    names = enter_folder(directory, rules, visited)
    if names is None:
        return []
    skill_file = directory / SKILL_FILE
    if SKILL_FILE in names:
        kind = entry_kind(skill_file)
        if kind is not None and kind[1] and not rules.ignores(skill_file):
            return [str(skill_file)]
    found: list[str] = []
    for name in names:
        if name.startswith(".") or name == "node_modules":
            continue
        path = directory / name
        kind = entry_kind(path)
        if kind is None:
            continue
        is_dir, is_file = kind
        if is_file and mode == "pi" and directory == root and name.endswith(".md") and not rules.ignores(path):
            found.append(str(path))
        elif is_dir and not rules.ignores(path, is_dir=True):
            found.extend(_collect(path, root, mode, rules, visited))
    return found


def escape_xml(text: str) -> str:
    """``& < > " '`` as XML entities (pi's ``escapeXml``)."""
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


SKILLS_PROMPT_INTRO = (
    "The following skills provide specialized instructions for specific tasks.",
    "Use the read tool to load a skill's file when the task matches its description.",
    "When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / "
    "dirname of the path) and use that absolute path in tool commands.",
)


def format_skills_for_prompt(skills: Sequence[Skill]) -> str:
    """The system prompt's skills block, pi's text exactly (pi-reference §3.12), or ``""`` when no skill is
    visible. Starts with a blank line; skills with ``disable-model-invocation`` are left out; values XML-escaped."""
    visible = [s for s in skills if not s.disable_model_invocation]
    if not visible:
        return ""
    lines = ["\n\n" + SKILLS_PROMPT_INTRO[0], *SKILLS_PROMPT_INTRO[1:], "", "<available_skills>"]
    for skill in visible:
        lines += [
            "  <skill>",
            f"    <name>{escape_xml(skill.name)}</name>",
            f"    <description>{escape_xml(skill.description)}</description>",
            f"    <location>{escape_xml(skill.file_path)}</location>",
            "  </skill>",
        ]
    lines.append("</available_skills>")
    return "\n".join(lines)


SKILL_COMMAND_PREFIX = "/skill:"


def skill_block(skill: Skill, body: str, args: str = "") -> str:
    """What ``/skill:name args`` sends (pi 0.73 ``_expandSkillCommand``): the file's body in a ``<skill>`` block
    that names the folder references are relative to, then the arguments after a blank line."""
    block = (
        f'<skill name="{skill.name}" location="{skill.file_path}">\n'
        f"References are relative to {skill.base_dir}.\n\n{body}\n</skill>"
    )
    return f"{block}\n\n{args}" if args else block


def expand_skill_command(
    text: str, skills: Iterable[Skill], on_error: Callable[[Skill, str], None] | None = None
) -> str:
    """``text`` with a leading ``/skill:name [args]`` replaced by :func:`skill_block`; any other text, an
    unknown skill name or an unreadable file (reported to ``on_error(skill, message)``) comes back unchanged."""
    if not text.startswith(SKILL_COMMAND_PREFIX):
        return text
    space = text.find(" ")
    name = text[len(SKILL_COMMAND_PREFIX) :] if space == -1 else text[len(SKILL_COMMAND_PREFIX) : space]
    args = "" if space == -1 else text[space + 1 :].strip()
    skill = next((s for s in skills if s.name == name), None)
    if skill is None:
        return text
    try:
        body = strip_frontmatter(Path(skill.file_path).read_text(encoding="utf-8")).strip()
    except (OSError, UnicodeDecodeError) as error:
        if on_error is not None:
            on_error(skill, str(error))
        return text
    return skill_block(skill, body, args)
