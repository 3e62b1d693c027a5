"""Model patterns (pi-reference §3.7 "CLI model patterns")."""

from __future__ import annotations

from pi_tui.ai.types import Model
from pi_tui.coding.config.model_resolver import (
    find_exact_model_reference,
    is_alias,
    parse_model_pattern,
    pick_default_model,
    resolve_cli_model,
    resolve_model_scope,
)


def _m(provider: str, model_id: str, name: str = "") -> Model:
    return Model(id=model_id, name=name or model_id, api="openai-completions", provider=provider)


MODELS = [
    _m("anthropic", "claude-sonnet-4-5-20250929", "Claude Sonnet 4.5"),
    _m("anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5"),
    _m("anthropic", "claude-sonnet-4-20250514", "Claude Sonnet 4"),
    _m("anthropic", "claude-opus-4-7", "Claude Opus 4.7"),
    _m("openai", "gpt-5.4"),
    _m("openrouter", "openai/gpt-5.4"),
    _m("openrouter", "qwen/qwen3-coder:exacto"),
    _m("zai", "glm-5.1"),
    _m("vercel-ai-gateway", "zai/glm-5.1"),
    _m("dated", "model-20240101"),
    _m("dated", "model-20250101"),
]


def test_alias_detection() -> None:
    assert is_alias("claude-sonnet-4-5") and is_alias("claude-3-5-haiku-latest")
    assert not is_alias("claude-sonnet-4-5-20250929")


def test_exact_reference_and_ambiguous_bare_id() -> None:
    assert find_exact_model_reference("OpenAI/GPT-5.4", MODELS).provider == "openai"  # type: ignore[union-attr]
    assert find_exact_model_reference("gpt-5.4", MODELS).provider == "openai"  # type: ignore[union-attr]
    assert find_exact_model_reference("glm-5.1", MODELS).provider == "zai"  # type: ignore[union-attr]
    assert find_exact_model_reference("", MODELS) is None


def test_substring_prefers_alias_then_newest_dated() -> None:
    assert parse_model_pattern("sonnet", MODELS).model.id == "claude-sonnet-4-5"  # type: ignore[union-attr]
    assert parse_model_pattern("Opus 4.7", MODELS).model.id == "claude-opus-4-7"  # type: ignore[union-attr]
    assert parse_model_pattern("model-2", MODELS).model.id == "model-20250101"  # type: ignore[union-attr]
    assert parse_model_pattern("nothing-like-it", MODELS).model is None


def test_thinking_suffix_and_colon_ids() -> None:
    result = parse_model_pattern("sonnet:high", MODELS)
    assert result.model.id == "claude-sonnet-4-5" and result.thinking_level == "high"  # type: ignore[union-attr]
    exacto = parse_model_pattern("qwen3-coder:exacto", MODELS)
    assert exacto.model.id == "qwen/qwen3-coder:exacto" and exacto.thinking_level is None  # type: ignore[union-attr]
    both = parse_model_pattern("qwen3-coder:exacto:low", MODELS)
    assert both.model.id == "qwen/qwen3-coder:exacto" and both.thinking_level == "low"  # type: ignore[union-attr]
    invalid = parse_model_pattern("sonnet:turbo", MODELS)
    assert invalid.model.id == "claude-sonnet-4-5" and invalid.thinking_level is None  # type: ignore[union-attr]
    assert (
        invalid.warning == 'Invalid thinking level "turbo" in pattern "sonnet:turbo". Using default instead.'
    )
    assert parse_model_pattern("sonnet:turbo", MODELS, allow_invalid_level=False).model is None


def test_resolve_cli_model() -> None:
    assert resolve_cli_model(None, "zai/glm-5.1", MODELS).model.provider == "zai"  # type: ignore[union-attr]
    result = resolve_cli_model("anthropic", "sonnet:medium", MODELS)
    assert result.model.id == "claude-sonnet-4-5" and result.thinking_level == "medium"  # type: ignore[union-attr]
    assert resolve_cli_model("anthropic", "anthropic/claude-opus-4-7", MODELS).model.id == "claude-opus-4-7"  # type: ignore[union-attr]
    assert resolve_cli_model(None, "openai/gpt-5.4", MODELS).model.provider == "openai"  # type: ignore[union-attr]
    unknown = resolve_cli_model("nope", "x", MODELS)
    assert unknown.error == 'Unknown provider "nope". Use --list-models to see available providers/models.'
    custom = resolve_cli_model("anthropic", "claude-future-9", MODELS)
    assert custom.model.id == "claude-future-9" and custom.model.provider == "anthropic"  # type: ignore[union-attr]
    assert (
        custom.warning == 'Model "claude-future-9" not found for provider "anthropic". Using custom model id.'
    )
    missing = resolve_cli_model(None, "totally-unknown", MODELS)
    assert missing.error == 'Model "totally-unknown" not found. Use --list-models to see available models.'
    assert resolve_cli_model(None, "x", []).error is not None
    assert resolve_cli_model(None, None, MODELS).model is None


def test_model_scope_with_globs_and_levels() -> None:
    scope, warnings = resolve_model_scope(["anthropic/*sonnet*:high", "gpt-5.4", "glm*", "nomatch*"], MODELS)
    assert [(s.model.provider, s.model.id, s.thinking_level) for s in scope] == [
        ("anthropic", "claude-sonnet-4-5-20250929", "high"),
        ("anthropic", "claude-sonnet-4-5", "high"),
        ("anthropic", "claude-sonnet-4-20250514", "high"),
        ("openai", "gpt-5.4", None),
        ("zai", "glm-5.1", None),
    ]
    assert warnings == ['No models match pattern "nomatch*"']


def test_pick_default_model() -> None:
    assert pick_default_model(MODELS).id == "claude-opus-4-7"  # type: ignore[union-attr]
    assert pick_default_model([MODELS[-1]]) == MODELS[-1]
    assert pick_default_model([]) is None
