"""CommandRegistry (issue 11 step 0): one list of slash commands for built-ins, extensions, templates,
skills and MCP prompts; AgentSession carries one, created by the factory."""

from __future__ import annotations

from typing import Any

import pytest

from pi_tui.coding.agent_session.factory import create_agent_session
from pi_tui.coding.extensions import CommandRegistry, CommandSpec


def _noop(args: str, ctx: Any) -> None:
    return None


def _spec(name: str, source: str = "builtin", owner: str = "", description: str = "") -> CommandSpec:
    return CommandSpec(name=name, description=description or name, handler=_noop, source=source, owner=owner)


def test_register_get_and_registration_order() -> None:
    registry = CommandRegistry()
    for name in ("model", "skill:review", "mcp:git:status", "compact"):
        registry.register(_spec(name))
    assert registry.names() == ["model", "skill:review", "mcp:git:status", "compact"]
    assert [s.name for s in registry.all()] == registry.names()
    assert registry.get("skill:review") is registry.all()[1]
    assert registry.get("/model") is registry.all()[0]  # a typed slash is accepted on lookup
    assert registry.get("nope") is None
    assert "mcp:git:status" in registry and "/compact" in registry and len(registry) == 4


def test_a_taken_name_raises_unless_replace_which_keeps_the_position() -> None:
    registry = CommandRegistry()
    registry.register(_spec("a"))
    registry.register(_spec("b"))
    with pytest.raises(ValueError, match="/a is already registered"):
        registry.register(_spec("a", "extension", "x.py"))
    assert registry.get("a").source == "builtin"  # type: ignore[union-attr]
    registry.register(_spec("a", "extension", "x.py", "new"), replace=True)
    assert registry.names() == ["a", "b"]
    assert registry.get("a").description == "new"  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", ["", "/model", "two words", "tab\tname"])
def test_invalid_names_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="Invalid command name"):
        CommandRegistry().register(_spec(bad))


def test_unregister_and_remove_owner() -> None:
    registry = CommandRegistry()
    registry.register(_spec("model"))
    registry.register(_spec("todo", "extension", "todo.py"))
    registry.register(_spec("plan", "extension", "plan.py"))
    registry.register(_spec("review", "template", "/p/review.md"))
    registry.register(_spec("mcp:git:status", "mcp", "git"))
    registry.unregister("/review")
    registry.unregister("missing")  # absent: nothing happens
    assert registry.names() == ["model", "todo", "plan", "mcp:git:status"]
    registry.remove_owner("extension", "todo.py")
    assert registry.names() == ["model", "plan", "mcp:git:status"]
    registry.remove_owner("extension")
    registry.remove_owner("mcp", "other")  # another server's commands stay
    assert registry.names() == ["model", "mcp:git:status"]


def test_the_spec_is_frozen_with_defaults() -> None:
    spec = CommandSpec(name="x", description="d", handler=_noop)
    assert (spec.usage, spec.source, spec.owner, spec.get_argument_completions) == ("", "builtin", "", None)
    with pytest.raises(AttributeError):
        spec.name = "y"  # type: ignore[misc]


def test_agent_session_has_a_command_registry_from_the_factory(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.setenv("PI_TUI_DIR", str(tmp_path / "home"))
    session = create_agent_session(str(tmp_path), no_session=True)
    assert isinstance(session.commands, CommandRegistry)
    other = create_agent_session(str(tmp_path), no_session=True)
    assert other.commands is not session.commands  # one registry per session, never shared by default
