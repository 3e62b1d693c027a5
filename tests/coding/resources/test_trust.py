"""Project trust (pi 1.x docs/security.md): which resources need it, the order of decisions, persistence,
the settings gate, and print mode's single stderr line."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.resources import trust
from tests.coding.modes.helpers import CLI, clean_env
from tests.coding.resources.helpers import skill, write


@pytest.fixture(autouse=True)
def _fresh_process() -> Iterator[None]:
    trust.reset_process_decisions()
    yield
    trust.reset_process_decisions()


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path, Path]:
    proj, agent, home = tmp_path / "proj", tmp_path / "agent", tmp_path / "home"
    for d in (proj, agent, home):
        d.mkdir()
    (proj / ".git").mkdir()
    return proj, agent, home


@pytest.mark.parametrize("entry", trust.PROJECT_TRUST_ENTRIES)
def test_each_protected_entry_needs_a_decision(dirs: tuple[Path, Path, Path], entry: str) -> None:
    proj, agent, home = dirs
    target = proj / ".pi-tui" / entry
    if "." in entry:
        write(target, "{}")
    else:
        target.mkdir(parents=True)
    assert trust.project_resources(proj, home) == [str(target)]
    assert trust.needs_decision(proj, agent, home=home)
    assert not trust.is_trusted(proj, agent, home=home)


def test_nothing_to_protect_is_trusted(dirs: tuple[Path, Path, Path]) -> None:
    proj, agent, home = dirs
    (proj / ".pi-tui").mkdir()  # a bare .pi-tui folder needs no decision
    write(proj / "AGENTS.md", "context files are not gated")
    skill(home / ".agents" / "skills", "mine")  # the user's own ~/.agents/skills never counts
    assert trust.project_resources(proj, home) == []
    assert trust.is_trusted(proj, agent, home=home) and not trust.needs_decision(proj, agent, home=home)


def test_home_agents_skills_do_not_count_even_when_cwd_is_home(dirs: tuple[Path, Path, Path]) -> None:
    _, agent, home = dirs
    skill(home / ".agents" / "skills", "mine")
    assert trust.project_resources(home, home) == []


def test_ancestor_agents_skills_need_trust(dirs: tuple[Path, Path, Path]) -> None:
    proj, agent, home = dirs
    (proj / "sub").mkdir()
    skill(proj / ".agents" / "skills", "x")
    assert trust.project_resources(proj / "sub", home) == [str(proj / ".agents" / "skills")]


@pytest.mark.parametrize(("choice", "trusted", "saved"), [
    (trust.TrustChoice.TRUST, True, True),
    (trust.TrustChoice.ONCE, True, None),
    (trust.TrustChoice.DENY, False, False),
    (trust.TrustChoice.SKIP, False, None),
])
def test_decisions_persist_per_folder(dirs: tuple[Path, Path, Path], choice: trust.TrustChoice, trusted: bool,
                                      saved: bool | None) -> None:
    proj, agent, home = dirs
    write(proj / ".pi-tui" / "settings.json", "{}")
    assert trust.decide(proj, choice, agent) is trusted
    assert trust.is_trusted(proj, agent, home=home) is trusted
    stored = json.loads((agent / "trust.json").read_text()) if (agent / "trust.json").exists() else {}
    assert stored.get(trust.canonical_path(proj)) == saved
    trust.reset_process_decisions()  # the next start
    assert trust.TrustStore(agent).get(proj) == saved
    assert trust.needs_decision(proj, agent, home=home) is (saved is None)


def test_broken_trust_file_is_a_startup_warning(dirs: tuple[Path, Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from pi_tui.coding.session_factory import create_agent_session

    proj, agent, home = dirs
    monkeypatch.setenv("PI_TUI_DIR", str(agent))
    monkeypatch.setenv("HOME", str(home))
    write(agent / "trust.json", "[1, 2]")
    session = create_agent_session(str(proj), no_session=True)
    assert any(str(agent / "trust.json") in w for w in session.startup_warnings)


def test_closest_saved_decision_wins_and_symlinks_resolve(dirs: tuple[Path, Path, Path], tmp_path: Path) -> None:
    proj, agent, home = dirs
    inner = proj / "inner"
    write(inner / ".pi-tui" / "prompts" / "x.md", "x")
    store = trust.TrustStore(agent)
    store.set(proj, True)
    assert trust.resolve(inner, agent, home=home).saved_path == trust.canonical_path(proj)
    assert trust.is_trusted(inner, agent, home=home)
    store.set(inner, False)
    assert not trust.is_trusted(inner, agent, home=home)
    link = tmp_path / "link"
    link.symlink_to(inner)
    assert not trust.is_trusted(link, agent, home=home)


def test_override_and_setting(dirs: tuple[Path, Path, Path]) -> None:
    proj, agent, home = dirs
    write(proj / ".pi-tui" / "extensions" / "x.py", "")
    write(agent / "settings.json", json.dumps({"defaultProjectTrust": "always"}))
    assert trust.is_trusted(proj, agent, home=home) and not trust.needs_decision(proj, agent, home=home)
    write(agent / "settings.json", json.dumps({"defaultProjectTrust": "never"}))
    assert not trust.is_trusted(proj, agent, home=home) and not trust.needs_decision(proj, agent, home=home)
    trust.set_override(True)
    assert trust.is_trusted(proj, agent, home=home)


def test_project_cannot_trust_itself(dirs: tuple[Path, Path, Path]) -> None:
    proj, agent, home = dirs
    write(proj / ".pi-tui" / "settings.json", json.dumps({"defaultProjectTrust": "always"}))
    assert not trust.is_trusted(proj, agent, home=home)


def test_broken_trust_file_is_reported_and_kept(dirs: tuple[Path, Path, Path]) -> None:
    proj, agent, home = dirs
    write(proj / ".pi-tui" / "settings.json", "{}")
    write(agent / "trust.json", "{not json")
    store = trust.TrustStore(agent)
    assert store.get(proj) is None and "invalid JSON" in store.errors[0]
    assert store.set(proj, True) is False
    assert (agent / "trust.json").read_text() == "{not json"


def test_untrusted_project_settings_are_not_read(dirs: tuple[Path, Path, Path]) -> None:
    proj, agent, home = dirs
    write(proj / ".pi-tui" / "settings.json", json.dumps({"shellPath": "/tmp/evil"}))
    assert SettingsManager.create(str(proj), agent).shell_path is None
    trust.decide(proj, trust.TrustChoice.ONCE, agent)
    assert SettingsManager.create(str(proj), agent).shell_path == "/tmp/evil"


def _print_run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "--no-session", *args, "-p", "hello"], cwd=root / "project", env=clean_env(root),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)


def test_print_mode_says_once_on_stderr_what_it_skipped(tmp_path: Path) -> None:
    clean_env(tmp_path)
    project = tmp_path / "project"
    write(project / ".pi-tui" / "settings.json", '{"providers": ')  # broken: would be an error if read
    skill(project / ".pi-tui" / "skills", "p1")
    run = _print_run(tmp_path)
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stderr.splitlines() if "not loaded" in line]
    assert len(lines) == 1
    assert ".pi-tui/settings.json" in lines[0] and ".pi-tui/skills" in lines[0] and "--trust-project" in lines[0]
    flagged = _print_run(tmp_path, "--trust-project")
    assert flagged.returncode == 1 and "not loaded" not in flagged.stderr  # now the broken file is read
    assert str(project / ".pi-tui" / "settings.json") in flagged.stderr
