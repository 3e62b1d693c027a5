"""Discovery of skills, prompt templates, context files and SYSTEM.md for one session (pi 0.73 ``resource-loader``).

Order (pi's precedence; on a name clash the first wins and a ``collision`` diagnostic names both files):

1. project settings entries (``skills``/``prompts`` in ``<cwd>/.pi-tui/settings.json``, relative to
   ``<cwd>/.pi-tui``),
2. project folders: ``<cwd>/.pi-tui/skills`` then ``.agents/skills`` in the cwd and each ancestor up to the git
   root (closest first); ``<cwd>/.pi-tui/prompts``,
3. global settings entries (relative to the agent dir),
4. global folders: ``<agent dir>/skills`` then ``~/.agents/skills``; ``<agent dir>/prompts``,
5. ``--skill`` / ``--prompt-template`` paths (loaded even with ``--no-skills`` / ``--no-prompt-templates``, which
   turn 1-4 off).

Steps 1 and 2, the project's ``SYSTEM.md``/``APPEND_SYSTEM.md`` (and, in ``settings.py``, the project
settings) are used only when the folder is trusted (``trust.py``); context files always load. The same file
reached twice (a symlink, a folder listed twice) counts once. :meth:`ResourceLoader.reload` re-reads it all
(``/reload``); nothing here raises for a bad file (see ``diagnostics``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pi_tui.coding.config.paths import APP_DIR_NAME
from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.resources.diagnostics import ResourceDiagnostic, format_diagnostic
from pi_tui.coding.resources.patterns import apply_patterns, enabled_by_overrides, is_pattern, resolve_entry
from pi_tui.coding.resources.prompt_templates import PromptTemplate, load_template_file
from pi_tui.coding.resources.scan import collect_markdown_files
from pi_tui.coding.resources.skills import Skill, collect_skill_files, load_skill_file
from pi_tui.coding.resources.trust import ancestor_agents_skill_dirs, canonical_path
from pi_tui.coding.system_prompt import (
    ContextFile,
    build_system_prompt,
    discover_system_prompt_file,
    load_context_files,
)


@dataclass
class ResourceOptions:
    """The command line's part: ``--skill``/``--prompt-template`` paths (relative to the cwd),
    ``--no-skills``/``--no-prompt-templates``, ``--system-prompt`` (text or a file) and ``--append-system-prompt``."""

    skill_paths: list[str] = field(default_factory=list)
    prompt_template_paths: list[str] = field(default_factory=list)
    no_skills: bool = False
    no_prompt_templates: bool = False
    system_prompt: str | None = None
    append_system_prompt: str | None = None


@dataclass(frozen=True)
class _Candidate:
    path: str
    source: str


class ResourceLoader:
    """Everything a session reads from skill/template folders, context files and SYSTEM.md (module docstring).

    ``settings``: the session's :class:`SettingsManager` (its project scope is already empty when untrusted);
    ``project_trusted``: whether project folders may load; ``home``: the user's home (tests).
    After construction (and each :meth:`reload`): ``skills``, ``prompt_templates``, ``context_files``,
    ``custom_prompt``, ``append_prompt``, ``diagnostics``.
    """

    def __init__(
        self,
        cwd: str,
        agent_dir: str | os.PathLike[str],
        *,
        settings: SettingsManager,
        options: ResourceOptions | None = None,
        project_trusted: bool = True,
        home: str | None = None,
    ) -> None:
        self.cwd = os.path.abspath(cwd)
        self.agent_dir = str(agent_dir)
        self.settings = settings
        self.options = options or ResourceOptions()
        self.project_trusted = project_trusted
        self.home = home if home is not None else str(Path.home())
        self.skills: list[Skill] = []
        self.prompt_templates: list[PromptTemplate] = []
        self.context_files: list[ContextFile] = []
        self.custom_prompt: str | None = None
        self.append_prompt: str | None = None
        self.diagnostics: list[ResourceDiagnostic] = []
        self.reload()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        """Re-discover skills, templates, context files and SYSTEM.md/APPEND_SYSTEM.md from disk."""
        self.diagnostics = []
        self.skills = self._load_skills()
        self.prompt_templates = self._load_templates()
        self.context_files = load_context_files(self.cwd, self.agent_dir)
        custom = self.options.system_prompt
        if custom is None:
            custom = discover_system_prompt_file(self.cwd, self.agent_dir, "SYSTEM.md",
                                                 project_trusted=self.project_trusted)
        elif os.path.isfile(custom):
            try:
                custom = Path(custom).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                self.diagnostics.append(ResourceDiagnostic("error", f"cannot read system prompt: {error}", custom))
        self.custom_prompt = custom
        self.append_prompt = self.options.append_system_prompt or discover_system_prompt_file(
            self.cwd, self.agent_dir, "APPEND_SYSTEM.md", project_trusted=self.project_trusted
        )

    def extend(self, skill_paths: Sequence[str] = (), prompt_paths: Sequence[str] = ()) -> None:
        """Add paths an extension offered (``resources_discover``, pi's ``extendResources``): they load after
        the discovered ones, like ``--skill``/``--prompt-template``, also after a later :meth:`reload`."""
        for value in skill_paths:
            if value not in self.options.skill_paths:
                self.options.skill_paths.append(value)
        for value in prompt_paths:
            if value not in self.options.prompt_template_paths:
                self.options.prompt_template_paths.append(value)
        if skill_paths or prompt_paths:
            self.reload()

    def _scope_entries(self, scope: str, key: str) -> list[str]:
        data = self.settings.get_project_settings() if scope == "project" else self.settings.get_global_settings()
        value = data.get(key)
        return [str(v) for v in value if isinstance(v, str)] if isinstance(value, list) else []

    def _settings_candidates(self, scope: str, key: str, collect: Any) -> list[_Candidate]:
        """Files named by one scope's settings entries, patterns applied."""
        entries = self._scope_entries(scope, key)
        base = os.path.join(self.cwd, APP_DIR_NAME) if scope == "project" else self.agent_dir
        files: list[str] = []
        for entry in entries:
            if is_pattern(entry):
                continue
            path = resolve_entry(entry, base, self.home)
            if os.path.isfile(path):
                files.append(path)
            elif os.path.isdir(path):
                files.extend(collect(path))
        return [_Candidate(f, "settings") for f in apply_patterns(files, entries, base)]

    def _auto_candidates(self, scope: str, key: str, groups: Sequence[list[str]]) -> list[_Candidate]:
        entries = self._scope_entries(scope, key)
        base = os.path.join(self.cwd, APP_DIR_NAME) if scope == "project" else self.agent_dir
        source = "project" if scope == "project" else "user"
        return [_Candidate(f, source) for group in groups for f in group if enabled_by_overrides(f, entries, base)]

    def _ordered(self, project: list[_Candidate], user: list[_Candidate], cli: list[_Candidate],
                 discover: bool) -> list[_Candidate]:
        ordered = [*project, *user] if discover else []
        ordered += cli
        seen: set[str] = set()
        unique: list[_Candidate] = []
        for candidate in ordered:
            key = canonical_path(candidate.path)
            if key not in seen:
                seen.add(key)
                unique.append(candidate)
        return unique

    def _cli_paths(self, raw: Sequence[str], kind: str) -> list[tuple[str, bool]]:
        """``(absolute path, exists)`` of ``--skill``/``--prompt-template`` values; missing ones are errors."""
        out = []
        for value in raw:
            path = resolve_entry(value, self.cwd, self.home)
            exists = os.path.exists(path)
            if not exists:
                label = "skill path does not exist" if kind == "skill" else "prompt template path does not exist"
                self.diagnostics.append(ResourceDiagnostic("error", label, path, kind))  # type: ignore[arg-type]
            out.append((path, exists))
        return out

    def _load_skills(self) -> list[Skill]:
        discover = not self.options.no_skills
        project: list[_Candidate] = []
        if discover and self.project_trusted:
            project = self._settings_candidates("project", "skills", collect_skill_files)
            project += self._auto_candidates("project", "skills", [
                collect_skill_files(os.path.join(self.cwd, APP_DIR_NAME, "skills"), "pi"),
                *(collect_skill_files(d, "agents") for d in ancestor_agents_skill_dirs(self.cwd, self.home)),
            ])
        user: list[_Candidate] = []
        if discover:
            user = self._settings_candidates("user", "skills", collect_skill_files)
            user += self._auto_candidates("user", "skills", [
                collect_skill_files(os.path.join(self.agent_dir, "skills"), "pi"),
                collect_skill_files(os.path.join(self.home, ".agents", "skills"), "agents"),
            ])
        cli: list[_Candidate] = []
        for path, exists in self._cli_paths(self.options.skill_paths, "skill"):
            if not exists:
                continue
            if os.path.isdir(path):
                cli += [_Candidate(f, "cli") for f in collect_skill_files(path, "pi")]
            elif path.endswith(".md"):
                cli.append(_Candidate(path, "cli"))
            else:
                self.diagnostics.append(ResourceDiagnostic("warning", "skill path is not a markdown file", path))
        skills: dict[str, Skill] = {}
        for candidate in self._ordered(project, user, cli, discover):
            skill, problems = load_skill_file(candidate.path, candidate.source)
            self.diagnostics.extend(problems)
            if skill is None:
                continue
            winner = skills.get(skill.name)
            if winner is not None:
                self.diagnostics.append(ResourceDiagnostic(
                    "collision", f'name "{skill.name}" collision', skill.file_path, "skill", skill.name,
                    winner.file_path))
            else:
                skills[skill.name] = skill
        return list(skills.values())

    def _load_templates(self) -> list[PromptTemplate]:
        discover = not self.options.no_prompt_templates

        def recursive(path: str) -> list[str]:
            return collect_markdown_files(path, recursive=True)

        project: list[_Candidate] = []
        if discover and self.project_trusted:
            project = self._settings_candidates("project", "prompts", recursive)
            project += self._auto_candidates("project", "prompts", [
                collect_markdown_files(os.path.join(self.cwd, APP_DIR_NAME, "prompts"), recursive=False)])
        user: list[_Candidate] = []
        if discover:
            user = self._settings_candidates("user", "prompts", recursive)
            user += self._auto_candidates("user", "prompts", [
                collect_markdown_files(os.path.join(self.agent_dir, "prompts"), recursive=False)])
        cli: list[_Candidate] = []
        for path, exists in self._cli_paths(self.options.prompt_template_paths, "prompt"):
            if exists and os.path.isdir(path):
                cli += [_Candidate(f, "cli") for f in collect_markdown_files(path, recursive=False)]
            elif exists and path.endswith(".md"):
                cli.append(_Candidate(path, "cli"))
        templates: dict[str, PromptTemplate] = {}
        for candidate in self._ordered(project, user, cli, discover):
            template, problems = load_template_file(candidate.path, candidate.source)
            self.diagnostics.extend(problems)
            if template is None:
                continue
            winner = templates.get(template.name)
            if winner is not None:
                self.diagnostics.append(ResourceDiagnostic(
                    "collision", f'name "/{template.name}" collision', template.file_path, "prompt",
                    template.name, winner.file_path))
            else:
                templates[template.name] = template
        return list(templates.values())

    # ------------------------------------------------------------------ use

    def warnings(self) -> list[str]:
        """One line per diagnostic (for the app's startup warnings and print mode's stderr)."""
        return [format_diagnostic(d) for d in self.diagnostics]

    def find_skill(self, name: str) -> Skill | None:
        """The loaded skill called ``name``."""
        return next((s for s in self.skills if s.name == name), None)

    def build_system_prompt(self, tools: Sequence[Any] | None) -> str:
        """The session's system prompt for the active ``tools`` (pi-reference §3.12), skills block included."""
        return build_system_prompt(
            cwd=self.cwd,
            tools=tools,
            custom_prompt=self.custom_prompt,
            append_system_prompt=self.append_prompt,
            context_files=self.context_files,
            skills=self.skills,
        )
