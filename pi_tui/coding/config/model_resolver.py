"""Model patterns and initial model choice (pi-reference §3.7 "CLI model patterns", §3.2 "Model selection").

Pattern rules (``--model``, ``--models``, ``/model <term>``):
1. exact ``provider/id`` or a bare id that is unique across providers (case-insensitive);
2. else substring of id or name (case-insensitive), preferring alias ids (no ``-YYYYMMDD`` suffix, or
   ``-latest``) sorted descending, else the newest dated id;
3. ``pattern:<level>`` sets the thinking level (``sonnet:high``); ids containing ``:`` (OpenRouter's
   ``:exacto``) are tried whole first;
4. for ``--model``: a ``provider/`` prefix naming a known provider (the longest one: provider ids may contain
   ``/``) restricts the search to it; an unknown id for a known provider becomes a custom model id based on that
   provider's default model (with a warning);
5. ``--models`` accepts globs (``*``, ``?``, ``[..]``) matched against ``provider/id`` or the id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pi_tui.ai.models import DEFAULT_MODEL_PER_PROVIDER
from pi_tui.ai.types import THINKING_LEVELS, Model

DEFAULT_THINKING_LEVEL = "medium"

_DATED = re.compile(r"-\d{8}$")


def is_valid_thinking_level(value: str) -> bool:
    """``off|minimal|low|medium|high|xhigh``."""
    return value in THINKING_LEVELS


def is_alias(model_id: str) -> bool:
    """True for ids without a ``-YYYYMMDD`` suffix, or ending in ``-latest``."""
    return model_id.endswith("-latest") or not _DATED.search(model_id)


@dataclass
class PatternMatch:
    """``model`` (or ``None``), the ``thinking_level`` parsed from a ``:level`` suffix, and a ``warning``."""

    model: Model | None = None
    thinking_level: str | None = None
    warning: str | None = None


def find_exact_model_reference(reference: str, models: Sequence[Model]) -> Model | None:
    """Exact ``provider/id`` (case-insensitive) or a bare id matching exactly one model; else ``None``."""
    ref = reference.strip()
    if not ref:
        return None
    lower = ref.lower()
    canonical = [m for m in models if f"{m.provider}/{m.id}".lower() == lower]
    if canonical:
        return canonical[0] if len(canonical) == 1 else None
    if "/" in ref:
        provider, _, model_id = ref.partition("/")
        provider, model_id = provider.strip().lower(), model_id.strip().lower()
        if provider and model_id:
            matches = [m for m in models if m.provider.lower() == provider and m.id.lower() == model_id]
            if matches:
                return matches[0] if len(matches) == 1 else None
    by_id = [m for m in models if m.id.lower() == lower]
    return by_id[0] if len(by_id) == 1 else None


def match_model(pattern: str, models: Sequence[Model]) -> Model | None:
    """Exact reference first, then the best substring match of id or name (rule 2); ``None`` if nothing fits."""
    exact = find_exact_model_reference(pattern, models)
    if exact is not None:
        return exact
    needle = pattern.lower()
    matches = [m for m in models if needle in m.id.lower() or needle in (m.name or "").lower()]
    if not matches:
        return None
    aliases = [m for m in matches if is_alias(m.id)]
    pool = aliases or matches
    return sorted(pool, key=lambda m: m.id, reverse=True)[0]


def parse_model_pattern(
    pattern: str, models: Sequence[Model], allow_invalid_level: bool = True
) -> PatternMatch:
    """Resolve ``pattern`` with an optional ``:level`` suffix (rule 3).

    An invalid suffix: with ``allow_invalid_level`` the prefix is used and a warning returned
    (``Invalid thinking level "<x>" in pattern "<p>". Using default instead.``); without it, no match.
    """
    found = match_model(pattern, models)
    if found is not None:
        return PatternMatch(found)
    if ":" not in pattern:
        return PatternMatch()
    prefix, _, suffix = pattern.rpartition(":")
    if is_valid_thinking_level(suffix):
        inner = parse_model_pattern(prefix, models, allow_invalid_level)
        if inner.model is not None:
            return PatternMatch(inner.model, None if inner.warning else suffix, inner.warning)
        return inner
    if not allow_invalid_level:
        return PatternMatch()
    inner = parse_model_pattern(prefix, models, allow_invalid_level)
    if inner.model is not None:
        return PatternMatch(
            inner.model,
            None,
            f'Invalid thinking level "{suffix}" in pattern "{pattern}". Using default instead.',
        )
    return inner


@dataclass
class CliModelResult:
    """Outcome of :func:`resolve_cli_model`: ``model`` + ``thinking_level`` + ``warning``, or ``error``."""

    model: Model | None = None
    thinking_level: str | None = None
    warning: str | None = None
    error: str | None = None


def _fallback_model(provider: str, model_id: str, models: Sequence[Model]) -> Model | None:
    own = [m for m in models if m.provider == provider]
    if not own:
        return None
    default_id = DEFAULT_MODEL_PER_PROVIDER.get(provider)
    base = next((m for m in own if m.id == default_id), own[0])
    return base.model_copy(update={"id": model_id, "name": model_id})


def resolve_cli_model(
    cli_provider: str | None, cli_model: str | None, models: Sequence[Model]
) -> CliModelResult:
    """``--provider``/``--model`` → a model among ``models`` (use *all* models: ``--api-key`` may supply auth).

    Errors: ``No models available. Check your installation or add models to models.json.``,
    ``Unknown provider "<p>". Use --list-models to see available providers/models.``,
    ``Model "<m>" not found. Use --list-models to see available models.``
    """
    if not cli_model:
        return CliModelResult()
    if not models:
        return CliModelResult(
            error="No models available. Check your installation or add models to models.json."
        )
    providers = {m.provider.lower(): m.provider for m in models}
    provider = providers.get(cli_provider.lower()) if cli_provider else None
    if cli_provider and provider is None:
        return CliModelResult(
            error=f'Unknown provider "{cli_provider}". Use --list-models to see available providers/models.'
        )
    pattern = cli_model
    inferred = False
    lower = cli_model.lower()

    def exact_anywhere() -> Model | None:
        return next(
            (m for m in models if m.id.lower() == lower or f"{m.provider}/{m.id}".lower() == lower), None
        )

    if provider is None and "/" in cli_model:
        # the longest known provider id before a "/": provider ids may hold slashes themselves (pi 1.5.0:
        # URL-derived llama.cpp providers such as "llama.cpp/127.0.0.1:8080")
        prefixes = [p for p in providers if lower.startswith(p + "/") and len(lower) > len(p) + 1]
        if prefixes:
            maybe = max(prefixes, key=len)
            provider, pattern, inferred = providers[maybe], cli_model[len(maybe) + 1 :], True
    if provider is None:
        exact = exact_anywhere()
        if exact is not None:
            return CliModelResult(exact)
    if cli_provider and provider and lower.startswith(f"{provider}/".lower()):
        pattern = cli_model[len(provider) + 1 :]
    candidates = [m for m in models if m.provider == provider] if provider else list(models)
    result = parse_model_pattern(pattern, candidates, allow_invalid_level=False)
    if result.model is not None:
        return CliModelResult(result.model, result.thinking_level, result.warning)
    if inferred:
        exact = exact_anywhere()
        if exact is not None:
            return CliModelResult(exact)
        fallback = parse_model_pattern(cli_model, models, allow_invalid_level=False)
        if fallback.model is not None:
            return CliModelResult(fallback.model, fallback.thinking_level, fallback.warning)
    if provider:
        # ``id:<level>`` keeps the level for the custom id, and a requested level makes the model a reasoning
        # one even when the provider's template model is not (pi 0.79.2, #5560)
        custom_id, _, suffix = pattern.rpartition(":")
        level = suffix if custom_id and is_valid_thinking_level(suffix) else None
        custom_id = custom_id if level else pattern
        custom = _fallback_model(provider, custom_id, models)
        if custom is not None:
            if level and level != "off":
                custom.reasoning = True
            note = f'Model "{custom_id}" not found for provider "{provider}". Using custom model id.'
            return CliModelResult(custom, level, f"{result.warning} {note}" if result.warning else note)
    display = f"{provider}/{pattern}" if provider else cli_model
    return CliModelResult(error=f'Model "{display}" not found. Use --list-models to see available models.')


def _glob_to_regex(glob: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(glob):
        char = glob[i]
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[":
            end = glob.find("]", i + 1)
            if end == -1:
                out.append(re.escape(char))
            else:
                body = glob[i + 1 : end].replace("\\", "\\\\")
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = end
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("^" + "".join(out) + "$", re.IGNORECASE)


@dataclass
class ScopedModel:
    """A model of the ``--models`` / ``enabledModels`` scope with its explicit thinking level, if any."""

    model: Model
    thinking_level: str | None = None


def resolve_model_scope(
    patterns: Sequence[str], available: Sequence[Model]
) -> tuple[list[ScopedModel], list[str]]:
    """Scoped models for ``patterns`` (globs or patterns) among ``available``; returns (scope, warnings).

    Warnings: ``No models match pattern "<p>"`` and invalid-level notes. Duplicates are dropped.
    """
    scoped: list[ScopedModel] = []
    warnings: list[str] = []

    def add(model: Model, level: str | None) -> None:
        if not any(s.model.provider == model.provider and s.model.id == model.id for s in scoped):
            scoped.append(ScopedModel(model, level))

    for pattern in patterns:
        if any(char in pattern for char in "*?["):
            glob, level = pattern, None
            head, sep, tail = pattern.rpartition(":")
            if sep and is_valid_thinking_level(tail):
                glob, level = head, tail
            regex = _glob_to_regex(glob)
            matching = [m for m in available if regex.match(f"{m.provider}/{m.id}") or regex.match(m.id)]
            if not matching:
                warnings.append(f'No models match pattern "{pattern}"')
            for model in matching:
                add(model, level)
            continue
        result = parse_model_pattern(pattern, available)
        if result.warning:
            warnings.append(result.warning)
        if result.model is None:
            warnings.append(f'No models match pattern "{pattern}"')
            continue
        add(result.model, result.thinking_level)
    return scoped, warnings


def pick_default_model(available: Sequence[Model]) -> Model | None:
    """First provider default (in :data:`DEFAULT_MODEL_PER_PROVIDER` order) that is available, else the first."""
    for provider, model_id in DEFAULT_MODEL_PER_PROVIDER.items():
        match = next((m for m in available if m.provider == provider and m.id == model_id), None)
        if match is not None:
            return match
    return available[0] if available else None
