"""Templates and skills in the command registry, expansion order, ``/reload`` (pi 0.73 agent-session.ts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.extensions.registries import CommandRegistry, CommandSpec
from pi_tui.coding.resources.commands import expand_input, register_resource_commands
from pi_tui.coding.resources.loader import ResourceLoader
from tests.coding.resources.helpers import skill, write


def _loader(tmp: Path, enable_skill_commands: bool = True) -> ResourceLoader:
    settings = SettingsManager(None, None, {"enableSkillCommands": enable_skill_commands}, {})
    return ResourceLoader(str(tmp / "proj"), tmp / "agent", settings=settings, home=str(tmp / "home"))


class _FakeSession:
    def __init__(self, streaming: bool = False) -> None:
        self.is_streaming = streaming
        self.prompts: list[tuple[str, str | None]] = []

    async def prompt(self, text: str, streaming_behavior: str | None = None) -> None:
        self.prompts.append((text, streaming_behavior))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write(tmp_path / "agent" / "prompts" / "review.md", "---\ndescription: Review it\nargument-hint: <what>\n---\nReview $@")
    write(tmp_path / "agent" / "prompts" / "model.md", "shadowed by the built-in")
    write(tmp_path / "agent" / "prompts" / "my notes.md", "cannot be typed as one command")
    skill(tmp_path / "agent" / "skills", "beta", description="Beta skill", body="Beta body")
    (tmp_path / "proj").mkdir()
    return tmp_path


def _noop(args: str, ctx: Any) -> None:
    return None


def test_registered_with_source_owner_and_clash_warning(tree: Path) -> None:
    registry = CommandRegistry()
    registry.register(CommandSpec("model", "pick a model", _noop))
    loader = _loader(tree)
    warnings = register_resource_commands(registry, loader, _FakeSession())
    review = registry.get("review")
    assert review is not None and (review.source, review.usage, review.description) == ("template", "<what>", "Review it")
    assert review.owner == str(tree / "agent" / "prompts" / "review.md")
    beta = registry.get("skill:beta")
    assert beta is not None and beta.source == "skill" and beta.description == "Beta skill"
    assert registry.get("model").source == "builtin"  # type: ignore[union-attr]
    assert len(warnings) == 1 and "model.md" in warnings[0] and "hidden by the built-in /model" in warnings[0]
    assert "my notes" not in registry


def test_skill_commands_follow_the_setting(tree: Path) -> None:
    registry = CommandRegistry()
    register_resource_commands(registry, _loader(tree), _FakeSession(), skill_commands=False)
    assert "skill:beta" not in registry and "review" in registry


@pytest.mark.anyio
async def test_handler_sends_the_text_as_a_prompt_or_steer(tree: Path) -> None:
    registry = CommandRegistry()
    idle, busy = _FakeSession(), _FakeSession(streaming=True)
    register_resource_commands(registry, _loader(tree), idle)
    await registry.get("review").handler("the diff", None)  # type: ignore[union-attr]
    await registry.get("skill:beta").handler("", None)  # type: ignore[union-attr]
    assert idle.prompts == [("/review the diff", None), ("/skill:beta", None)]  # the session expands them
    register_resource_commands(registry, _loader(tree), busy)  # re-registering replaces the old ones
    await registry.get("review").handler("x", None)  # type: ignore[union-attr]
    assert busy.prompts == [("/review x", "steer")]


def test_expand_input_skill_then_template(tree: Path) -> None:
    loader = _loader(tree)
    assert expand_input("/review a 'b c'", loader) == "Review a b c"
    skill_file = tree / "agent" / "skills" / "beta" / "SKILL.md"
    assert expand_input("/skill:beta go", loader) == (
        f'<skill name="beta" location="{skill_file}">\nReferences are relative to {skill_file.parent}.\n\n'
        "Beta body\n</skill>\n\ngo")
    assert expand_input("plain text", loader) == "plain text"
    skill_file.unlink()
    errors: list[str] = []
    assert expand_input("/skill:beta", loader, errors.append) == "/skill:beta"
    assert "could not be read" in errors[0]
