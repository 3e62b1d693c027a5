"""System prompt assembly and context files (pi-reference §3.12).

The default prompt follows pi 0.73's structure exactly (role sentence, ``Available tools:``, custom-tools
sentence, ``Guidelines:``, docs pointers, append text, ``# Project Context``, cwd), with three
deliberate differences listed in tests/conformance/DIFFERENCES.md: the role sentence names pi-tui, the
docs pointers point to pi-tui's README instead of pi's package docs, and there is no ``Current date:`` line
(pi 0.80.7: the date changed the prompt every day and so invalidated the provider's prompt cache of every
resumed session; pi#6621).

Context files: ``AGENTS.md``/``AGENTS.MD``/``CLAUDE.md``/``CLAUDE.MD`` (first match per directory) from the
pi-tui agent dir (``PI_TUI_DIR``, default ``~/.pi-tui/agent``), then every ancestor of cwd from the root down
to cwd. ``SYSTEM.md`` / ``APPEND_SYSTEM.md`` come from ``<cwd>/.pi-tui/`` (trusted projects only) or the agent dir.
Skills (``pi_tui/coding/resources/skills.py``) are listed after the project context when ``read`` is active.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pi_tui.coding.resources.skills import Skill, format_skills_for_prompt

CONTEXT_FILE_NAMES: tuple[str, ...] = ("AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD")
PROJECT_CONFIG_DIR = ".pi-tui"
DEFAULT_TOOL_NAMES: tuple[str, ...] = ("read", "bash", "edit", "write")

BUILTIN_TOOL_SNIPPETS: dict[str, str] = {
    "read": "Read file contents",
    "bash": "Execute bash commands (ls, grep, find, etc.)",
    "edit": "Make precise file edits with exact text replacement, including multiple disjoint edits in one call",
    "write": "Create or overwrite files",
    "grep": "Search file contents for patterns (respects .gitignore)",
    "find": "Find files by glob pattern (respects .gitignore)",
    "ls": "List directory contents",
}
"""pi 0.73's one-line ``promptSnippet`` per built-in tool (used when a tool object does not carry one)."""

BUILTIN_TOOL_GUIDELINES: dict[str, tuple[str, ...]] = {
    "read": ("Use read to examine files instead of cat or sed.",),
    "edit": (
        "Use edit for precise changes (edits[].oldText must match exactly)",
        "When changing multiple separate locations in one file, use one edit call with multiple entries in "
        "edits[] instead of multiple edit calls",
        "Each edits[].oldText is matched against the original file, not after earlier edits are applied. "
        "Do not emit overlapping or nested edits. Merge nearby changes into one edit.",
        "Keep edits[].oldText as small as possible while still being unique in the file. Do not pad with "
        "large unchanged regions.",
    ),
    "write": ("Use write only for new files or complete rewrites.",),
}
"""pi 0.73's ``promptGuidelines`` per built-in tool."""


@dataclass(frozen=True)
class ContextFile:
    """One loaded context file: absolute ``path`` and its text ``content``."""

    path: str
    content: str


def _load_from_dir(directory: Path) -> ContextFile | None:
    for name in CONTEXT_FILE_NAMES:
        candidate = directory / name
        if candidate.is_file():
            try:
                return ContextFile(str(candidate), candidate.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
    return None


def load_context_files(cwd: str | os.PathLike[str], agent_dir: str | os.PathLike[str]) -> list[ContextFile]:
    """Context files in prompt order: the agent dir's, then ancestors of ``cwd`` from the root down.

    A file found twice (agent dir inside the cwd chain, or a symlink to a file already loaded) is included once.
    In a linked git worktree inside its main checkout, the main checkout's directories above the worktree are
    skipped: their files are the other checkout's copies of the worktree's own (pi 0.83.0 #7221, 1.2.0 #10681;
    :mod:`pi_tui.coding.git_worktree`). Unreadable files are skipped.
    """
    from pi_tui.coding.git_worktree import main_checkout_above

    files: list[ContextFile] = []
    seen: set[str] = set()
    global_file = _load_from_dir(Path(agent_dir))
    if global_file is not None:
        files.append(global_file)
        seen.add(os.path.realpath(global_file.path))
    ancestors: list[ContextFile] = []
    current = Path(os.path.abspath(cwd))
    worktree = main_checkout_above(current)
    while True:
        found = None if worktree is not None and worktree.in_main_checkout(current) else _load_from_dir(current)
        if found is not None and os.path.realpath(found.path) not in seen:
            ancestors.insert(0, found)
            seen.add(os.path.realpath(found.path))
        if current.parent == current:
            break
        current = current.parent
    files.extend(ancestors)
    return files


def _read_optional(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except OSError:
        return None


def discover_system_prompt_file(
    cwd: str, agent_dir: str, name: str = "SYSTEM.md", *, project_trusted: bool = True
) -> str | None:
    """Text of ``<cwd>/.pi-tui/<name>`` (only when the project is trusted, pi 1.x project trust) or else
    ``<agent_dir>/<name>``; ``None`` when neither exists."""
    candidates = [Path(agent_dir) / name]
    if project_trusted:
        candidates.insert(0, Path(cwd) / PROJECT_CONFIG_DIR / name)
    for candidate in candidates:
        text = _read_optional(candidate)
        if text is not None:
            return text
    return None


def _tool_attr(tool: Any, name: str) -> Any:
    if isinstance(tool, dict):
        return tool.get(name)
    return getattr(tool, name, None)


def tool_snippets_and_guidelines(tools: Sequence[Any]) -> tuple[list[str], dict[str, str], list[str]]:
    """``(names, snippets, guidelines)`` of active tools; tool attributes win over the built-in tables."""
    names: list[str] = []
    snippets: dict[str, str] = {}
    guidelines: list[str] = []
    for tool in tools:
        name = tool if isinstance(tool, str) else str(_tool_attr(tool, "name"))
        names.append(name)
        snippet = None if isinstance(tool, str) else _tool_attr(tool, "prompt_snippet")
        snippet = snippet or BUILTIN_TOOL_SNIPPETS.get(name)
        if snippet:
            snippets[name] = snippet
        own = None if isinstance(tool, str) else _tool_attr(tool, "prompt_guidelines")
        guidelines.extend(own if own is not None else BUILTIN_TOOL_GUIDELINES.get(name, ()))
    return names, snippets, guidelines


def build_system_prompt(
    *,
    cwd: str,
    tools: Sequence[Any] | None = None,
    custom_prompt: str | None = None,
    append_system_prompt: str | None = None,
    context_files: Sequence[ContextFile] = (),
    readme_path: str | None = None,
    skills: Sequence[Skill] = (),
) -> str:
    """The system prompt text (pi-reference §3.12).

    ``tools``: active tools (AgentTool objects, dicts or names); ``None`` means pi's default set.
    ``custom_prompt`` (``--system-prompt`` / SYSTEM.md) replaces the default body; ``append_system_prompt``
    follows it after a blank line. ``skills``: listed after the project context (``<available_skills>``, pi's
    text, XML-escaped) only when ``read`` is among the tools; skills with ``disable-model-invocation`` are not
    listed. The cwd (with ``/`` separators) always comes last; no date (pi 0.80.7).
    """
    names, snippets, tool_guidelines = tool_snippets_and_guidelines(
        list(tools) if tools is not None else list(DEFAULT_TOOL_NAMES)
    )
    prompt_cwd = cwd.replace("\\", "/")
    append_section = f"\n\n{append_system_prompt}" if append_system_prompt else ""
    if custom_prompt:
        prompt = custom_prompt + append_section
    else:
        visible = [n for n in names if snippets.get(n)]
        tools_list = "\n".join(f"- {n}: {snippets[n]}" for n in visible) if visible else "(none)"
        guidelines: list[str] = []

        def add(line: str) -> None:
            line = line.strip()
            if line and line not in guidelines:
                guidelines.append(line)

        explorers = {"grep", "find", "ls"} & set(names)
        if "bash" in names and not explorers:
            add("Use bash for file operations like ls, rg, find")
        elif "bash" in names:
            # only the exploration tools that are active (pi 0.77.0, #5132: grep/find/ls were named, and
            # preferred, when only some of them were available); all three: pi's own wording
            active = "/".join(n for n in ("grep", "find", "ls") if n in explorers)
            noun = "tools" if len(explorers) > 1 else "tool"
            add(f"Prefer {active} {noun} over bash for file exploration (faster, respects .gitignore)")
        for line in tool_guidelines:
            add(line)
        add("Be concise in your responses")
        add("Show file paths clearly when working with files")
        readme = readme_path or "the pi-tui README (README.md in the pi-tui repository)"
        prompt = (
            "You are an expert coding assistant operating inside pi-tui, a coding agent harness. You help "
            "users by reading files, executing commands, editing code, and writing new files.\n\n"
            f"Available tools:\n{tools_list}\n\n"
            "In addition to the tools above, you may have access to other custom tools depending on the "
            "project.\n\n"
            "Guidelines:\n" + "\n".join(f"- {g}" for g in guidelines) + "\n\n"
            "pi-tui documentation (read only when the user asks about pi-tui itself, its settings, themes "
            "or key bindings):\n"
            f"- Main documentation: {readme}"
        )
        prompt += append_section
    if context_files:
        prompt += "\n\n# Project Context\n\nProject-specific instructions and guidelines:\n\n"
        for file in context_files:
            prompt += f"## {file.path}\n\n{file.content}\n\n"
    if "read" in names and skills:
        prompt += format_skills_for_prompt(skills)
    prompt += f"\nCurrent working directory: {prompt_cwd}"
    return prompt
