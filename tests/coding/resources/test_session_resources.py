"""``create_agent_session`` wires skills, templates and trust (session.resources, the system prompt, warnings)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.resources import trust
from tests.coding.resources.helpers import skill, write


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in ("agent", "home", "proj"):
        (tmp_path / name).mkdir()
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    trust.reset_process_decisions()
    yield tmp_path
    trust.reset_process_decisions()


def test_skills_reach_the_system_prompt_and_warnings(env: Path) -> None:
    skill(env / "agent" / "skills", "alpha", description="Alpha & co")
    write(env / "agent" / "skills" / "broken" / "SKILL.md", "---\nname: broken\n---\n")
    session = create_agent_session(str(env / "proj"), no_session=True)
    prompt = session.agent.state.system_prompt
    assert "<name>alpha</name>\n    <description>Alpha &amp; co</description>" in prompt
    assert any("broken" in w and "description is required" in w for w in session.startup_warnings)
    no_read = create_agent_session(str(env / "proj"), no_session=True, tools=["bash"])
    assert "<available_skills>" not in no_read.agent.state.system_prompt


def test_project_skills_wait_for_trust(env: Path) -> None:
    skill(env / "proj" / ".pi-tui" / "skills", "proj-skill")
    write(env / "proj" / ".pi-tui" / "SYSTEM.md", "Project system prompt.")
    untrusted = create_agent_session(str(env / "proj"), no_session=True)
    assert "proj-skill" not in untrusted.agent.state.system_prompt
    assert not untrusted.agent.state.system_prompt.startswith("Project system prompt.")
    trusted = create_agent_session(str(env / "proj"), no_session=True, trust_project=True)
    assert trusted.agent.state.system_prompt.startswith("Project system prompt.")
    assert "<name>proj-skill</name>" in trusted.agent.state.system_prompt


def test_no_skills_and_explicit_skill(env: Path) -> None:
    skill(env / "agent" / "skills", "found")
    extra = skill(env / "elsewhere", "given")
    session = create_agent_session(str(env / "proj"), no_session=True, no_skills=True, skill_paths=[str(extra)])
    names = [s.name for s in session.resources.skills]  # type: ignore[attr-defined]
    assert names == ["given"]


def test_cli_flags_reach_the_session_options() -> None:
    from pi_tui.cli import parse_args

    args = parse_args(["--skill", "a", "--skill", "b", "-ns", "--prompt-template", "t.md", "-np",
                       "--trust-project", "hi"])
    options = args.session_options("/w")
    assert options["skill_paths"] == ["a", "b"] and options["no_skills"] is True
    assert options["prompt_template_paths"] == ["t.md"] and options["no_prompt_templates"] is True
    assert options["trust_project"] is True and args.messages == ["hi"]


def test_reload_rediscovers_and_rebuilds_the_prompt(env: Path) -> None:
    from pi_tui.coding.resources.commands import reload_hook, reload_session_resources

    session = create_agent_session(str(env / "proj"), no_session=True)
    assert "<available_skills>" not in session.agent.state.system_prompt and "review" not in session.commands
    skill(env / "agent" / "skills", "late", description="added later")
    write(env / "agent" / "prompts" / "review.md", "Review $1")
    write(env / "proj" / "AGENTS.md", "Project rule.")
    write(env / "agent" / "prompts" / "bad.md", "---\ndescription: [x\n---\n")
    warnings = reload_session_resources(session)
    prompt = session.agent.state.system_prompt
    assert "<name>late</name>" in prompt and "Project rule." in prompt
    assert "review" in session.commands and "skill:late" in session.commands
    assert len(warnings) == 1 and "bad.md" in warnings[0]
    shown: list[tuple[str, str]] = []
    session.notify = lambda level, text, **_: shown.append((level, text))  # type: ignore[method-assign]
    reload_hook(session)()
    assert shown == [("warning", warnings[0])]


def test_extension_offered_paths_load_after_discovery(env: Path) -> None:
    session = create_agent_session(str(env / "proj"), no_session=True)
    extra = skill(env / "ext", "from-ext")
    template = write(env / "ext" / "t.md", "T")
    session.resources.extend([str(extra)], [str(template)])  # type: ignore[attr-defined]
    assert [s.name for s in session.resources.skills] == ["from-ext"]  # type: ignore[attr-defined]
    assert [t.name for t in session.resources.prompt_templates] == ["t"]  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_prompt_steer_and_follow_up_expand(env: Path) -> None:
    write(env / "agent" / "prompts" / "rev.md", "Review $1 ($@)")
    session = create_agent_session(str(env / "proj"), no_session=True)  # the offline demo model answers
    await session.prompt("/rev a.py 'b c'")
    users = [m for m in session.messages if getattr(m, "role", None) == "user"]
    assert users[-1].content[0].text == "Review a.py (a.py b c)"
    await session.steer("/rev s")
    await session.follow_up("/rev f")
    assert session.steering_messages == ["Review s (s)"] and session.follow_up_messages == ["Review f (f)"]
    session.clear_queue()
    await session.prompt("/unknown stays")
    assert [m for m in session.messages if getattr(m, "role", None) == "user"][-1].content[0].text == "/unknown stays"
