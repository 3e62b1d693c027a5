"""Putting extensions on a session: :func:`attach_extensions` (sync, from ``create_agent_session``) and
:func:`start_extensions` (async, from each mode once its UI is bound: loads the extensions, then emits
``session_start`` and ``resources_discover``).

Settings. The global settings' ``extensions`` list adds paths; the project settings' list only when the
project is trusted (project-supplied code: issue 11 "Project trust"; ``project_trusted=None`` asks
``pi_tui.coding.resources.trust`` when the extensions load). ``extensionTimeoutMs`` sets the
handler timeout (default 30000).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pi_tui.coding.extensions.binding import SessionHost
from pi_tui.coding.extensions.loader import ExtensionSources
from pi_tui.coding.extensions.registries import CommandSpec, FlagRegistry
from pi_tui.coding.extensions.runner import DEFAULT_HANDLER_TIMEOUT, ExtensionError
from pi_tui.coding.extensions.runtime import ExtensionRuntime
from pi_tui.coding.extensions.session_hooks import SessionExtensions


def settings_extension_paths(settings: Any) -> list[str]:
    """The ``extensions`` list of one settings dict (strings only)."""
    value = settings.get("extensions") if isinstance(settings, dict) else None
    return [str(v) for v in value if isinstance(v, str)] if isinstance(value, list) else []


def handler_timeout(settings_manager: Any) -> float:
    """Seconds from ``extensionTimeoutMs`` (a positive number), else the default."""
    value = settings_manager.get("extensionTimeoutMs") if settings_manager is not None else None
    if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
        return float(value) / 1000
    return DEFAULT_HANDLER_TIMEOUT


def attach_extensions(
    session: Any,
    *,
    agent_dir: Path,
    settings_manager: Any = None,
    extension_paths: Sequence[str] = (),
    no_extensions: bool = False,
    project_trusted: bool | None = None,
    allowed_tools: Sequence[str] | None = None,
    flag_args: Sequence[str] = (),
) -> SessionExtensions:
    """Create the session's extension runtime and fill its seams (nothing is loaded until
    ``session.start()``: the mode calls it once its UI is bound); sets ``session.extensions``.
    ``flag_args``: command-line items the CLI did not know (extension flags)."""
    host = SessionHost(session, allowed_tools=allowed_tools)
    flags = FlagRegistry()
    flags.set_unparsed(list(flag_args))
    runtime = ExtensionRuntime(host, commands=session.commands, flags=flags,
                               timeout=handler_timeout(settings_manager))
    runtime.sources = ExtensionSources(
        cwd=str(session.cwd),
        agent_dir=agent_dir,
        project_trusted=project_trusted,
        cli_paths=list(extension_paths),
        settings_paths=settings_extension_paths(settings_manager.get_global_settings()) if settings_manager else [],
        project_settings_paths=(settings_extension_paths(settings_manager.get_project_settings())
                                if settings_manager else []),
        no_extensions=no_extensions,
    )
    hooks = SessionExtensions(runtime, host)
    hooks.install(session)
    session.extensions = hooks
    _link_resources(session, runtime)
    session.commands.register(reload_command(runtime), replace=True)
    return hooks


def _link_resources(session: Any, runtime: ExtensionRuntime) -> None:
    """``/reload`` also reloads skills, templates, context files and SYSTEM.md (``resources.commands.
    reload_hook``); paths an extension offers in ``resources_discover`` are added to the session's
    resource loader and loaded (``ResourceLoader.extend``). Nothing when the session has no resources."""
    if getattr(session, "resources", None) is None:
        return
    try:
        from pi_tui.coding.resources.commands import reload_hook
    except ImportError:
        return
    hook = reload_hook(session)
    runtime.reload_hooks.append(hook)

    def offer(found: dict[str, list[str]]) -> None:
        session.resources.extend(skill_paths=found["skill_paths"], prompt_paths=found["prompt_paths"])
        hook()

    runtime.offer_resources = offer


RELOAD_DESCRIPTION = "Reload extensions, skills, templates, context files, settings, models.json, key bindings"


def reload_command(runtime: ExtensionRuntime) -> CommandSpec:
    """The built-in ``/reload`` (pi): ``session_shutdown(reload)``, the reload hooks, extensions loaded
    again from the same places, ``session_start(reload)``; then one line saying what was loaded."""

    async def run(_args: str, _ctx: Any = None) -> None:
        errors = await runtime.reload()
        count = len(runtime.extensions)
        noun = "extension" if count == 1 else "extensions"
        failed = f", {len(errors)} failed" if errors else ""
        runtime.host.notify("info", f"Reloaded: {count} {noun} loaded{failed}")

    return CommandSpec(name="reload", description=RELOAD_DESCRIPTION, handler=run, source="builtin")


async def load_extensions(hooks: SessionExtensions) -> list[ExtensionError]:
    """Load the extensions (each failure reported once); unknown extension flags give one warning.
    Returns the load failures."""
    runtime = hooks.runtime
    errors = await runtime.load(runtime.sources) if runtime.sources is not None else []
    unknown = runtime.flags.unknown()
    if unknown:
        runtime.host.notify("warning", "Unknown option(s): " + ", ".join(f"--{n}" for n in unknown))
    return errors


async def start_extensions(hooks: SessionExtensions) -> list[ExtensionError]:
    """``session_start(startup)`` through the session's seam (loads the extensions first; once only);
    returns the failures reported so far."""
    await hooks.session_start("startup")
    return list(hooks.runtime.runner.errors)
