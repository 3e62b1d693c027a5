"""Skills and prompt templates as slash commands, expansion in the prompt path, and ``/reload``.

pi 0.73 lists templates (``/name``) and skills (``/skill:name``, when ``enableSkillCommands`` is on, the
default) in autocomplete and RPC ``get_commands``, and expands both inside ``AgentSession.prompt``/``steer``/
``followUp``: ``/skill:name args`` first, then ``/template args`` (``agent_session.ts``). Here:

* :func:`register_resource_commands` puts them into the session's
  :class:`~pi_tui.coding.extensions.registries.CommandRegistry` (``source="template"``/``"skill"``, ``owner``
  the file). A name already taken by a built-in or an extension command is left to it (pi: extension commands
  run first) and the template is reported in the returned warnings (a built-in's: :func:`builtin_clash_warning`). Their handler sends ``/name args`` as a
  prompt (steering while the agent works); the session's prompt path expands it.
* :func:`expand_input` is the expansion the session applies to every prompt, steer and follow-up text
  (installed by :func:`attach_resources` as the ``expand_input`` seam of ``session.hooks``).
* :func:`reload_session_resources` re-reads settings, skills, templates, context files and SYSTEM.md,
  re-registers the commands and rebuilds the system prompt (``/reload``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pi_tui.coding.extensions.registries import CommandRegistry, CommandSpec
from pi_tui.coding.resources.loader import ResourceLoader
from pi_tui.coding.resources.prompt_templates import expand_prompt_template
from pi_tui.coding.resources.skills import Skill, expand_skill_command

RESOURCE_SOURCES = ("template", "skill")


def expand_input(text: str, loader: ResourceLoader, on_error: Callable[[str], None] | None = None) -> str:
    """``text`` with a leading ``/skill:name args`` and then a leading ``/template args`` expanded (pi's order);
    anything else unchanged. A skill file that cannot be read is reported to ``on_error(message)``."""

    def skill_error(skill: Skill, message: str) -> None:
        if on_error is not None:
            on_error(f"Skill /skill:{skill.name} ({skill.file_path}) could not be read: {message}")

    expanded = expand_skill_command(text, loader.skills, skill_error)
    return expand_prompt_template(expanded, loader.prompt_templates)


def builtin_clash_warning(name: str, path: str) -> str:
    """The warning for a prompt template named like a built-in command of the app (tester2 #21). pi 0.73
    resolves the name per mode and says nothing: the interactive app runs its built-in, while ``-p``, JSON and
    RPC mode (no built-in commands there) expand the template; pi-tui keeps that and says so at start-up and on
    ``/reload``."""
    return (f"Prompt template {path} is hidden by the built-in /{name}: in the app /{name} runs the built-in; "
            f"-p, JSON and RPC mode expand the template. Rename the file to use it here.")


def _prompt_handler(session: Any, name: str) -> Callable[[str, Any], Any]:
    async def run(args: str, _context: Any) -> None:
        text = f"/{name} {args}".rstrip() if args else f"/{name}"  # the session expands it (its prompt path)
        behaviour = "steer" if getattr(session, "is_streaming", False) else None
        await session.prompt(text, streaming_behavior=behaviour)

    return run


def register_resource_commands(
    registry: CommandRegistry, loader: ResourceLoader, session: Any, *, skill_commands: bool = True
) -> list[str]:
    """Replace the registry's template and skill commands with the loader's; returns warnings for names
    that another command already owns. ``session``: anything with ``prompt(text, streaming_behavior=...)``
    and ``is_streaming`` (an AgentSession)."""
    for source in RESOURCE_SOURCES:
        registry.remove_owner(source)
    warnings: list[str] = []
    for template in loader.prompt_templates:
        if not template.name or any(ch.isspace() for ch in template.name):
            continue  # "/my notes" can never be typed as one command (pi: the same)
        taken = registry.get(template.name)
        if taken is not None and taken.source == "builtin":
            warnings.append(builtin_clash_warning(template.name, template.file_path))
            continue
        if taken is not None:
            warnings.append(f"Prompt template {template.file_path}: /{template.name} is already a "
                            f"{taken.source} command; the template is not offered as /{template.name}")
            continue
        registry.register(CommandSpec(
            name=template.name, description=template.description, handler=_prompt_handler(session, template.name),
            usage=template.argument_hint or "", source="template", owner=template.file_path))
    if skill_commands:
        for skill in loader.skills:
            name = f"skill:{skill.name}"
            if name in registry or any(ch.isspace() for ch in skill.name):
                continue
            registry.register(CommandSpec(
                name=name, description=skill.description, handler=_prompt_handler(session, name),
                usage="[args]", source="skill", owner=skill.file_path))
    return warnings


def attach_resources(session: Any, loader: ResourceLoader) -> list[str]:
    """Wire ``loader`` into an AgentSession built by the factory: ``session.resources``, the expansion seam
    ``session.hooks.expand_input`` (every prompt, steer and follow-up), the template/skill commands of
    ``session.commands``; returns the command warnings."""
    session.resources = loader
    session.hooks.expand_input = lambda text: expand_input(
        text, session.resources, lambda message: session.notify("error", message))
    return register_resource_commands(session.commands, loader, session,
                                      skill_commands=loader.settings.enable_skill_commands)


def reload_session_resources(session: Any) -> list[str]:
    """``/reload`` for resources: re-read settings files, skills, templates, context files and SYSTEM.md;
    re-register the commands; rebuild the system prompt for the active tools. Returns the warnings to show
    (bad files, name clashes). Raises ``AttributeError`` for a session without ``resources``."""
    loader: ResourceLoader = session.resources
    loader.settings.reload()
    loader.reload()
    warnings = [*loader.warnings(), *loader.settings.drain_errors()]
    warnings += register_resource_commands(session.commands, loader, session,
                                           skill_commands=loader.settings.enable_skill_commands)
    session.agent.state.system_prompt = loader.build_system_prompt(session.agent.state.tools)
    return list(dict.fromkeys(warnings))


def reload_hook(session: Any) -> Callable[[], None]:
    """A hook for the extension runtime's ``reload_hooks``: :func:`reload_session_resources`, each warning
    shown with ``session.notify("warning", ..., persist=False)``."""

    def hook() -> None:
        for warning in reload_session_resources(session):
            session.notify("warning", warning, persist=False)  # about this run's files, not the conversation

    return hook
