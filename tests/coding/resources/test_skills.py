"""Skills (pi 0.73 docs/skills.md, core/skills; pi-reference §3.12): validation, discovery order, clashes,
the system prompt block and ``/skill:name`` expansion. Expected texts were checked against the real pi 0.73.1
(same tree, its request body on a loopback server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.resources.loader import ResourceLoader, ResourceOptions
from pi_tui.coding.resources.skills import (
    Skill,
    collect_skill_files,
    expand_skill_command,
    format_skills_for_prompt,
    load_skill_file,
    parse_skill_block,
)
from pi_tui.coding.system_prompt import build_system_prompt
from tests.coding.resources.helpers import skill, write


def _loader(tmp: Path, *, trusted: bool = True, options: ResourceOptions | None = None,
            global_settings: dict | None = None, project_settings: dict | None = None) -> ResourceLoader:
    settings = SettingsManager(None, None, global_settings or {}, project_settings or {})
    return ResourceLoader(str(tmp / "proj"), tmp / "agent", settings=settings, options=options,
                          project_trusted=trusted, home=str(tmp / "home"))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "proj" / ".git").mkdir(parents=True)
    (tmp_path / "agent").mkdir()
    (tmp_path / "home").mkdir()
    return tmp_path


def test_name_rules_warn_but_load(tmp_path: Path) -> None:
    path = skill(tmp_path, "Bad--Name-", extra="")
    loaded, diagnostics = load_skill_file(path)
    assert loaded is not None and loaded.name == "Bad--Name-"
    messages = [d.message for d in diagnostics]
    assert "name contains invalid characters (must be lowercase a-z, 0-9, hyphens only)" in messages
    assert "name must not start or end with a hyphen" in messages
    assert "name must not contain consecutive hyphens" in messages


def test_name_must_match_folder_and_fit(tmp_path: Path) -> None:
    path = write(tmp_path / "folder" / "SKILL.md", "---\nname: " + "a" * 65 + "\ndescription: d\n---\n")
    loaded, diagnostics = load_skill_file(path)
    assert loaded is not None
    assert [d.message for d in diagnostics] == [
        f'name "{"a" * 65}" does not match parent directory "folder"', "name exceeds 64 characters (65)"]


def test_missing_description_skips_and_long_one_warns(tmp_path: Path) -> None:
    missing, diagnostics = load_skill_file(write(tmp_path / "x" / "SKILL.md", "---\nname: x\n---\nbody"))
    assert missing is None and [d.message for d in diagnostics] == ["description is required"]
    long_one, diagnostics = load_skill_file(skill(tmp_path, "y", description="d" * 1025))
    assert long_one is not None and diagnostics[0].message == "description exceeds 1024 characters (1025)"


def test_name_defaults_to_folder_and_non_string_values_warn(tmp_path: Path) -> None:
    unnamed, _ = load_skill_file(write(tmp_path / "my-tool" / "SKILL.md", "---\ndescription: d\n---\n"))
    assert unnamed is not None and unnamed.name == "my-tool"
    numeric, diagnostics = load_skill_file(write(tmp_path / "n" / "SKILL.md", "---\nname: 12\ndescription: d\n---\n"))
    assert numeric is None and diagnostics[0].message == "name must be a string"
    listed, diagnostics = load_skill_file(write(tmp_path / "l" / "SKILL.md", "---\ndescription: [a]\n---\n"))
    assert listed is None and diagnostics[0].message == "description is required"


def test_malformed_file_is_a_warning_naming_it(tree: Path) -> None:
    bad = write(tree / "agent" / "skills" / "bad" / "SKILL.md", "---\nname: [x\ndescription: d\n---\n")
    skill(tree / "agent" / "skills", "good")
    loader = _loader(tree)
    assert [s.name for s in loader.skills] == ["good"]
    assert len(loader.warnings()) == 1
    assert loader.warnings()[0].startswith(f"Skill {bad}: invalid YAML front matter:")


def test_scan_rules(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    skill(root, "a")
    write(root / "a" / "nested" / "SKILL.md", "---\ndescription: hidden by parent\n---\n")
    skill(root / "group", "b")
    skill(root, ".dot")
    skill(root / "node_modules", "c")
    write(root / "loose.md", "---\ndescription: root file\n---\n")
    write(root / "group" / "deep.md", "---\ndescription: not a root file\n---\n")
    skill(root, "ignored")
    write(root / ".gitignore", "ignored/\n")
    pi_mode = [Path(p).relative_to(root).as_posix() for p in collect_skill_files(root, "pi")]
    assert pi_mode == ["a/SKILL.md", "group/b/SKILL.md", "loose.md"]
    agents_mode = [Path(p).relative_to(root).as_posix() for p in collect_skill_files(root, "agents")]
    assert agents_mode == ["a/SKILL.md", "group/b/SKILL.md"]


def test_discovery_order_and_clash_warning_names_both(tree: Path) -> None:
    """Project before global (pi's precedence), .pi-tui/skills before .agents/skills, closest ancestor first,
    --skill last; the first of a name wins and the warning names the kept and the skipped file."""
    proj, agent, home = tree / "proj", tree / "agent", tree / "home"
    (proj / "sub").mkdir()
    kept = skill(proj / ".pi-tui" / "skills", "same", description="project")
    skill(proj / ".pi-tui" / "skills", "p1")
    skill(proj / ".agents" / "skills", "a1")
    skill(tree / ".agents" / "skills", "outside-repo")  # above the git root: not read
    skipped = skill(agent / "skills", "same", description="global")
    skill(agent / "skills", "g1")
    skill(home / ".agents" / "skills", "h1")
    cli = skill(tree / "cli", "c1")
    loader = _loader(tree, options=ResourceOptions(skill_paths=[str(cli.parent)]))
    assert [s.name for s in loader.skills] == ["p1", "same", "a1", "g1", "h1", "c1"]
    assert loader.find_skill("same") is not None and loader.find_skill("same").description == "project"  # type: ignore[union-attr]
    assert loader.warnings() == [f'Skill "same" collision: keeping {kept}, skipped {skipped}']
    assert [s.source for s in loader.skills] == ["project", "project", "project", "user", "user", "cli"]


def test_agents_skills_of_ancestors_up_to_git_root(tree: Path) -> None:
    proj = tree / "proj"
    (proj / "pkg" / "app").mkdir(parents=True)
    skill(proj / "pkg" / "app" / ".agents" / "skills", "here")
    skill(proj / "pkg" / ".agents" / "skills", "parent")
    skill(proj / ".agents" / "skills", "root")
    settings = SettingsManager(None, None, {}, {})
    loader = ResourceLoader(str(proj / "pkg" / "app"), tree / "agent", settings=settings, home=str(tree / "home"))
    assert [s.name for s in loader.skills] == ["here", "parent", "root"]


def test_untrusted_project_skills_do_not_load(tree: Path) -> None:
    skill(tree / "proj" / ".pi-tui" / "skills", "p1")
    skill(tree / "proj" / ".agents" / "skills", "a1")
    skill(tree / "agent" / "skills", "g1")
    assert [s.name for s in _loader(tree, trusted=False).skills] == ["g1"]


def test_no_skills_keeps_explicit_paths(tree: Path) -> None:
    skill(tree / "agent" / "skills", "g1")
    one = skill(tree / "cli", "c1")
    missing = tree / "nope"
    loader = _loader(tree, options=ResourceOptions(skill_paths=[str(one), str(missing)], no_skills=True))
    assert [s.name for s in loader.skills] == ["c1"]
    assert loader.warnings() == [f"Skill {missing}: skill path does not exist"]


def test_settings_entries_and_overrides(tree: Path) -> None:
    skill(tree / "claude", "from-settings")
    skill(tree / "agent" / "skills", "auto-kept")
    skill(tree / "agent" / "skills", "auto-dropped")
    loader = _loader(tree, global_settings={"skills": ["../claude", "!auto-dropped"]})
    assert [s.name for s in loader.skills] == ["from-settings", "auto-kept"]


def test_same_file_twice_counts_once(tree: Path) -> None:
    target = skill(tree / "agent" / "skills", "once")
    (tree / "home" / ".agents" / "skills").mkdir(parents=True)
    (tree / "home" / ".agents" / "skills" / "once").symlink_to(target.parent)
    loader = _loader(tree, options=ResourceOptions(skill_paths=[str(target)]))
    assert [s.name for s in loader.skills] == ["once"] and loader.warnings() == []


def _skill(name: str, description: str, path: str, hidden: bool = False) -> Skill:
    return Skill(name, description, path, str(Path(path).parent), disable_model_invocation=hidden)


def test_prompt_block_is_pis_text_escaped_and_hides_disabled() -> None:
    skills = [_skill("alpha", "Alpha <tag> & \"q\" 'a'", "/s/alpha/SKILL.md"),
              _skill("hidden", "never listed", "/s/hidden/SKILL.md", hidden=True)]
    assert format_skills_for_prompt(skills) == (
        "\n\nThe following skills provide specialized instructions for specific tasks.\n"
        "Use the read tool to load a skill's file when the task matches its description.\n"
        "When a skill file references a relative path, resolve it against the skill directory (parent of "
        "SKILL.md / dirname of the path) and use that absolute path in tool commands.\n\n"
        "<available_skills>\n  <skill>\n    <name>alpha</name>\n"
        "    <description>Alpha &lt;tag&gt; &amp; &quot;q&quot; &apos;a&apos;</description>\n"
        "    <location>/s/alpha/SKILL.md</location>\n  </skill>\n</available_skills>"
    )
    assert format_skills_for_prompt(skills[1:]) == ""


def test_system_prompt_lists_skills_only_with_read() -> None:
    skills = [_skill("alpha", "d", "/s/alpha/SKILL.md")]
    with_read = build_system_prompt(cwd="/w", tools=["read", "bash"], skills=skills)
    assert "<available_skills>" in with_read
    assert with_read.index("</available_skills>\nCurrent working directory: ") > 0
    assert "<available_skills>" not in build_system_prompt(cwd="/w", tools=["bash"], skills=skills)
    custom = build_system_prompt(cwd="/w", tools=["read"], custom_prompt="Custom.", skills=skills)
    assert custom.startswith("Custom.\n\nThe following skills")
    assert build_system_prompt(cwd="/w", tools=["read"]) == build_system_prompt(cwd="/w", tools=["read"], skills=[])


def test_skill_command_expands_like_pi(tmp_path: Path) -> None:
    path = skill(tmp_path, "beta", body="Do the beta thing.\n\nSteps.")
    loaded, _ = load_skill_file(path)
    assert loaded is not None
    block = (f'<skill name="beta" location="{path}">\nReferences are relative to {path.parent}.\n\n'
             "Do the beta thing.\n\nSteps.\n</skill>")
    assert expand_skill_command("/skill:beta", [loaded]) == block
    assert expand_skill_command("/skill:beta   fix the  bug  ", [loaded]) == block + "\n\nfix the  bug"
    assert expand_skill_command("/skill:unknown x", [loaded]) == "/skill:unknown x"
    assert expand_skill_command("please /skill:beta", [loaded]) == "please /skill:beta"
    assert parse_skill_block(block + "\n\nfix it") == ("beta", str(path), block.split("\n", 1)[1][:-9], "fix it")


def test_unreadable_skill_file_is_reported_and_text_kept(tmp_path: Path) -> None:
    path = skill(tmp_path, "gone")
    loaded, _ = load_skill_file(path)
    assert loaded is not None
    path.unlink()
    errors: list[str] = []
    assert expand_skill_command("/skill:gone", [loaded], lambda s, m: errors.append(m)) == "/skill:gone"
    assert errors and "SKILL.md" in errors[0]


def test_a_symlink_loop_is_walked_once(tmp_path: Path) -> None:
    from pi_tui.coding.resources.scan import collect_markdown_files

    root = tmp_path / "skills"
    skill(root / "group", "inner")
    (root / "group" / "up").symlink_to(root)
    assert [Path(p).relative_to(root).as_posix() for p in collect_skill_files(root)] == ["group/inner/SKILL.md"]
    write(root / "notes.md", "n")
    assert [Path(p).name for p in collect_markdown_files(root, recursive=True)] == ["SKILL.md", "notes.md"]
