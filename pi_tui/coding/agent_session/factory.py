"""``create_agent_session(...)``: the SDK factory shared by every mode (pi-reference §3.2).

Model selection: explicit ``provider``/``model`` → the model recorded in the continued session (if it
still has auth; else a warning) → settings ``defaultProvider``/``defaultModel`` → the provider default table
among providers with auth → the first model with auth → the built-in offline demo model (pi-tui: instead of
pi's "No models available" when nothing at all is configured). Thinking level: explicit → session →
settings → ``medium``; clamped to the model. New sessions record ``model_change`` and
``thinking_level_change`` first (observation 13).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pi_tui.agent.types import AgentTool
from pi_tui.ai.models import clamp_thinking_level
from pi_tui.ai.secret_redaction import register_env_secrets
from pi_tui.ai.types import Model
from pi_tui.coding.agent_session.live_settings import reload_hook, session_settings_from
from pi_tui.coding.agent_session.open_file import open_session_manager
from pi_tui.coding.agent_session.pending_model import PendingModel
from pi_tui.coding.agent_session.session import AgentSession
from pi_tui.coding.agent_session.settings import SessionSettings
from pi_tui.coding.agent_session.wiring import SessionAgent
from pi_tui.coding.config.model_resolver import ScopedModel, resolve_model_scope
from pi_tui.coding.config.paths import get_agent_dir, resolve_session_dir
from pi_tui.coding.config.settings import SettingsManager
from pi_tui.coding.config_check import ConfigError, config_errors, model_config_broken
from pi_tui.coding.extensions.registries import CommandRegistry
from pi_tui.coding.extensions.setup import attach_extensions
from pi_tui.coding.mcp.wiring import attach_mcp, split_tool_names
from pi_tui.coding.messages import register_coding_roles
from pi_tui.coding.model_access import RegistryModelAccess
from pi_tui.coding.offline_model import OFFLINE_MODEL_ID, OFFLINE_PROVIDER, offline_model
from pi_tui.coding.resources import trust
from pi_tui.coding.resources.commands import attach_resources
from pi_tui.coding.resources.loader import ResourceLoader, ResourceOptions

DEFAULT_TOOL_NAMES = ("read", "bash", "edit", "write")


class SessionSetupError(ValueError):
    """Bad session options (unknown model, missing session file, unknown tool)."""


MAX_LISTED_MATCHES = 5
"""How many matching session files an ambiguous ``--session`` error names (newest first)."""


def _find_session_file(session: str, cwd: str, session_dir: Path) -> Path:
    path = Path(session).expanduser()
    if path.suffix == ".jsonl" or path.exists() or os.sep in session:
        return path if path.is_absolute() else Path(cwd) / path
    names = sorted(session_dir.glob("*.jsonl")) if session_dir.is_dir() else []
    matches = [m for m in names if session in m.name]  # plain substring: "[" or "*" in the id are not patterns
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise SessionSetupError(f"No session found matching '{session}'")
    newest = sorted(matches, reverse=True)
    shown = ", ".join(m.name for m in newest[:MAX_LISTED_MATCHES])
    more = len(matches) - MAX_LISTED_MATCHES
    suffix = f" and {more} more" if more > 0 else ""
    raise SessionSetupError(
        f"{len(matches)} sessions match '{session}' (use more of the id): {shown}{suffix}"
    )


def _resolve_model(
    access: RegistryModelAccess,
    provider: str | None,
    model_pattern: str | None,
    recorded: dict[str, Any] | None,
    settings: SettingsManager,
    warnings: list[str],
) -> tuple[Model | None, str | None]:
    """``(model, thinking level from a ``:level`` suffix)`` by pi's selection order (module docstring)."""
    if provider or model_pattern:
        try:
            found, level, warning = access.resolve_pattern(provider, model_pattern)
        except ValueError as exc:
            raise SessionSetupError(str(exc)) from None
        if warning:
            warnings.append(warning)
        return found, level
    if recorded and recorded.get("provider"):
        found = access.find(str(recorded["provider"]), str(recorded.get("modelId", "")))
        if found is not None and access.has_auth(found):
            return found, None
        offline_again = recorded["provider"] == OFFLINE_PROVIDER and not access.configured_anything()
        if not offline_again:  # a session of the offline demo continued with still nothing configured: no news
            warnings.append(f"Could not restore model {recorded['provider']}/{recorded.get('modelId')}")
    default_provider, default_model = settings.default_provider, settings.default_model
    if default_provider and default_model:
        found = access.find(default_provider, default_model)
        if found is not None and access.has_auth(found):
            return found, None
    return access.default_model(), None


def _extensions_may_load(cwd: str, agent_dir: Path, paths: list[str] | None, no_extensions: bool,
                         settings: SettingsManager) -> bool:
    """True when some extension will load (one could register the ``--model``'s provider)."""
    from pi_tui.coding.extensions.loader import ExtensionSources, discover_extensions
    from pi_tui.coding.extensions.setup import settings_extension_paths

    sources = ExtensionSources(cwd=cwd, agent_dir=agent_dir, project_trusted=None, cli_paths=list(paths or []),
                               settings_paths=settings_extension_paths(settings.get_global_settings()),
                               project_settings_paths=settings_extension_paths(settings.get_project_settings()),
                               no_extensions=no_extensions)
    return bool(discover_extensions(sources).paths)


def _model_scope(access: RegistryModelAccess, patterns: list[str] | None, settings: SettingsManager,
                 warnings: list[str]) -> list[ScopedModel]:
    """The cycling scope: ``patterns`` (``--models``) or ``enabledModels`` resolved among the models with
    auth (pi's ``resolveModelScope``); each pattern that matches nothing is a warning."""
    wanted = patterns if patterns else settings.enabled_models
    if not wanted:
        return []
    scope, problems = resolve_model_scope(wanted, access.available_models())
    warnings.extend(problems)
    return scope


def _select_tools(all_tools: dict[str, AgentTool], names: list[str] | None) -> list[AgentTool]:
    wanted = list(DEFAULT_TOOL_NAMES) if names is None else names
    unknown = [n for n in wanted if n not in all_tools]
    if unknown:
        raise SessionSetupError(f"Unknown tool(s): {', '.join(unknown)}. Available: {', '.join(all_tools)}")
    return [all_tools[n] for n in wanted]


def create_agent_session(
    cwd: str,
    *,
    provider: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    thinking: str | None = None,
    session_path: str | None = None,
    continue_recent: bool = False,
    skip_print_runs: bool = False,
    no_session: bool = False,
    session_dir: str | None = None,
    tools: list[str] | None = None,
    system_prompt: str | None = None,
    append_system_prompt: str | None = None,
    settings: SessionSettings | None = None,
    persist_settings: bool = False,
    strict_config: bool = False,
    if_locked: str | None = None,
    skill_paths: list[str] | None = None,
    prompt_template_paths: list[str] | None = None,
    no_skills: bool = False,
    no_prompt_templates: bool = False,
    trust_project: bool = False,
    extension_paths: list[str] | None = None,
    no_extensions: bool = False,
    extension_flags: list[str] | None = None,
    no_mcp: bool = False,
    models: list[str] | None = None,
    **_ignored: Any,
) -> AgentSession:
    """Build a wired :class:`AgentSession` for ``cwd`` (see module docstring for the selection rules).

    Raises :class:`SessionSetupError` for an unknown ``provider``/``model``, tool name or session id.
    ``api_key`` is kept in memory only (never written). ``tools``: allow-list of tool names (None = default).
    ``persist_settings``: model and thinking-level changes are saved to the global settings.json (as pi's
    AgentSession does; the CLI turns it on, tests and embedders get a session that writes no settings).
    ``strict_config`` (print/json/rpc mode): a configuration file that cannot be used raises
    :class:`~pi_tui.coding.config_check.ConfigError` (one line per file) instead of becoming a startup warning.
    A broken models.json or auth.json never lets the offline demo model answer in place of the configured one.
    ``no_mcp``: do not start the servers of ``mcp.json`` (``session.mcp`` is still set, disabled); ``tools``
    entries starting with ``mcp__`` (``*`` allowed) select MCP tools and leave the built-in selection alone.
    ``models`` (``--models``, else settings ``enabledModels``): the patterns of the models Ctrl+P cycles
    through (``session.scoped_models``; a new session without ``--model`` starts on the saved default when it is
    in the scope, else on the scope's first model, as pi's main.ts).
    ``if_locked``: what to do when another live pi-tui writes the session (``open_file.py``); None raises
    :class:`~pi_tui.coding.session.lock.SessionLockedError`.
    Skills and prompt templates (``pi_tui/coding/resources/loader.py``): ``skill_paths``/``prompt_template_paths``
    (``--skill``/``--prompt-template``), ``no_skills``/``no_prompt_templates`` (no discovery). Project settings,
    skills, templates and SYSTEM.md load only when the folder is trusted (``resources/trust.py``);
    ``trust_project`` (``--trust-project``) trusts it for this process. The loader is ``session.resources``.
    Extensions (``pi_tui.coding.extensions``): ``extension_paths`` (``-e``), ``no_extensions``,
    ``extension_flags`` (the CLI's unknown ``--flags``); they load when the mode calls ``session.start()``
    (project extensions only when ``resources.trust`` says the folder is trusted at that moment).
    """
    register_coding_roles()  # before the session file is parsed, so UI-only messages load as their models
    register_env_secrets()  # keys in the environment are redacted from files even if never used
    cwd = os.path.abspath(cwd)
    agent_dir = get_agent_dir()
    if trust_project:
        trust.decide(cwd, trust.TrustChoice.ONCE, agent_dir)
    trust_status = trust.resolve(cwd, agent_dir)
    project_trusted = trust_status.trusted
    settings_manager = SettingsManager.create(cwd, agent_dir, project_trusted=project_trusted)
    session_settings = settings or session_settings_from(settings_manager)
    access = RegistryModelAccess.create(agent_dir)
    problems = config_errors(settings_manager, access, agent_dir)
    if strict_config and problems:
        raise ConfigError(problems)
    if api_key and provider:
        access.set_runtime_api_key(provider, api_key)
    directory = resolve_session_dir(cwd, session_dir, settings_manager.session_dir)
    lock_notes: list[str] = []
    manager, ownership = open_session_manager(
        cwd,
        directory,
        session_file=_find_session_file(session_path, cwd, directory) if session_path and not no_session else None,
        continue_recent=continue_recent,
        skip_print_runs=skip_print_runs,
        no_session=no_session,
        if_locked=if_locked,
        warnings=lock_notes,
    )
    context = manager.build_session_context(include_ui=True, close_interrupted=True)
    is_new = not manager.get_entries()
    # skipped session lines and unusable config files are shown, not hidden
    warnings: list[str] = [*lock_notes, *manager.warnings, *access.errors]
    pending: PendingModel | None = None
    try:
        chosen, pattern_level = _resolve_model(
            access, provider, model, None if is_new else context.model, settings_manager, warnings
        )
    except SessionSetupError as exc:  # perhaps an extension's provider: resolved again once they load
        if not _extensions_may_load(cwd, agent_dir, extension_paths, no_extensions, settings_manager):
            raise
        pending = PendingModel(provider, model, str(exc), thinking=thinking)
        chosen, pattern_level = _resolve_model(
            access, None, None, None if is_new else context.model, settings_manager, warnings
        )
    scope = _model_scope(access, models, settings_manager, warnings)
    if scope and not (provider or model) and is_new:  # pi main.ts: the saved default if in scope, else the first
        saved = (settings_manager.default_provider, settings_manager.default_model)
        first = next((s for s in scope if (s.model.provider, s.model.id) == saved), scope[0])
        chosen, pattern_level = first.model, first.thinking_level
    if api_key and chosen is not None and not provider:
        access.set_runtime_api_key(chosen.provider, api_key)
    offline = False
    if chosen is None and api_key:
        raise SessionSetupError("--api-key needs --provider (or --model) to know which provider the key is for")
    if chosen is None and (pending is not None or not (provider or model)) and not access.configured_anything() \
            and not model_config_broken(access):
        chosen = offline_model()
        offline = True
        access.allow(OFFLINE_PROVIDER, OFFLINE_MODEL_ID, chosen)
    elif chosen is None and not strict_config:  # no usable model (e.g. a broken models.json): /model offers the
        access.offer(offline_model())  # demo, not chosen, to go on with (issue 9)
        warnings.append("No model selected: fix the file above and run /reload, or pick the built-in offline "
                        "demo model (offline-demo) in /model to go on.")
    has_session_level = any(e.type == "thinking_level_change" for e in manager.get_entries())
    level = thinking or pattern_level or (context.thinking_level if has_session_level else None)
    level = level or session_settings.default_thinking_level
    if pending is not None:
        pending.default_level, pending.record_initial = level, is_new
    level = clamp_thinking_level(chosen, level) if chosen is not None else "off"

    # read's non-vision warning follows the model in use (pi: ctx.model); ``agent`` is bound below
    all_tools = _build_tools(cwd, settings_manager, lambda: _takes_images(agent), lambda: _model_id(agent))
    active = _select_tools(all_tools, split_tool_names(tools)[0])  # `mcp__…` entries filter MCP tools (mcp/)
    resources = ResourceLoader(
        cwd,
        agent_dir,
        settings=settings_manager,
        options=ResourceOptions(
            skill_paths=list(skill_paths or []),
            prompt_template_paths=list(prompt_template_paths or []),
            no_skills=no_skills,
            no_prompt_templates=no_prompt_templates,
            system_prompt=system_prompt,
            append_system_prompt=append_system_prompt,
        ),
        project_trusted=project_trusted,
    )
    prompt_text = resources.build_system_prompt(active)
    agent = SessionAgent(
        {
            "system_prompt": prompt_text,
            "model": chosen,
            "thinking_level": level,
            "tools": active,
            "messages": list(context.messages),
        },
        steering_mode=session_settings.steering_mode,  # type: ignore[arg-type]
        follow_up_mode=session_settings.follow_up_mode,  # type: ignore[arg-type]
        thinking_budgets=settings_manager.thinking_budgets,
        max_retry_delay_ms=session_settings.retry.max_delay_ms,
    )
    session = AgentSession(
        agent=agent,
        session_manager=manager,
        models=access,
        settings=session_settings,
        cwd=cwd,
        offline=offline,
        commands=CommandRegistry(),
        tools=list(all_tools.values()),  # the built-in tools, through the session's tool registry
        rebuild_system_prompt=resources.build_system_prompt,
        resources=resources,
        settings_manager=settings_manager if persist_settings else None,
        last_assistant=next((m for m in reversed(context.messages) if getattr(m, "role", None) == "assistant"), None),
    )
    session.set_scoped_models(scope)
    if ownership is not None:  # a write refused (another writer, a take-over) is said once, in the transcript
        ownership.on_problem = lambda text: session.notify("warning", text, persist=False)
        session.ownership = ownership
    session.pending_model = pending
    if is_new and pending is None:  # else once the pending --model is resolved (pending_model.py)
        session.record_initial_settings()
    elif not has_session_level:
        manager.append_thinking_level_change(level)
    warnings += [*trust_status.errors, *resources.warnings()]  # trust.json, bad skill/template files, clashes
    warnings += attach_resources(session, resources)  # /template and /skill:name in session.commands
    mcp = attach_mcp(session, tools=tools, no_mcp=no_mcp)  # session.mcp: its servers are started by the front end
    for warning in dict.fromkeys([*warnings, *settings_manager.drain_errors()]):  # settings.json problems too
        session.startup_warnings.append(warning)
    hooks = attach_extensions(  # loaded by session.start() (each mode calls it once its UI is bound)
        session, agent_dir=agent_dir, settings_manager=settings_manager, extension_paths=extension_paths or [],
        no_extensions=no_extensions, project_trusted=None, allowed_tools=tools,
        flag_args=extension_flags or [],
    )
    hooks.runtime.reload_hooks.append(reload_hook(session, settings_manager))  # /reload: settings, models.json
    hooks.runtime.reload_hooks.append(mcp.reload)  # /reload: mcp.json (servers added/removed/changed)
    return session


def _takes_images(agent: SessionAgent) -> bool:
    """True when the agent's model accepts images (or no model is set: pi adds the note only for a model)."""
    model = agent.state.model
    return model is None or "image" in model.input


def _model_id(agent: SessionAgent) -> str | None:
    """The id of the agent's model (read names it when it takes no images), None without a model."""
    model = agent.state.model
    return None if model is None else model.id


def _build_tools(cwd: str, settings_manager: SettingsManager,
                 supports_images: Callable[[], bool] | None = None,
                 model_id: Callable[[], str | None] | None = None) -> dict[str, AgentTool]:
    from pi_tui.coding.tools import create_coding_tools

    return create_coding_tools(
        cwd,
        {
            "shellPath": settings_manager.shell_path,
            "shellCommandPrefix": settings_manager.shell_command_prefix,
            "autoResizeImages": settings_manager.image_auto_resize,
        },
        supports_images=supports_images,
        model_id=model_id,
    )


def list_available_models(search: str | None = None) -> list[tuple[str, str]]:
    """``(provider/id, name)`` rows of models with auth (``--list-models``), filtered by ``search``."""
    access = RegistryModelAccess.create(get_agent_dir())
    rows = []
    for model in access.available_models():  # models with a key, a local server or --api-key
        label = f"{model.provider}/{model.id}"
        if search and search.lower() not in label.lower() and search.lower() not in model.name.lower():
            continue
        rows.append((label, model.name))
    return rows
