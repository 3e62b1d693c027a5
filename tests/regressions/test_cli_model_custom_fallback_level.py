"""``--model <provider>/<new-id>:<level>`` keeps the level for a custom model id (pi 0.79.2, earendil-works/pi#5560).

A model not (yet) in the catalogue is used as a custom id built from the provider's default model. The thinking
suffix stayed part of the id (``new-model:high`` was sent as the model name, a 404) and no level was applied;
when the template model does not reason, the level was lost too. Now the suffix is the level, the id is the
rest, and a level other than ``off`` makes the custom model a reasoning one. Colons that are not a level
(Ollama's ``qwen3:32b``) stay in the id.
"""

from __future__ import annotations

import pytest

from pi_tui.ai.types import Model
from pi_tui.coding.config.model_resolver import resolve_cli_model

MODELS = [Model(id="base-chat", api="openai-completions", provider="local", base_url="http://127.0.0.1:8080/v1")]


@pytest.mark.parametrize(
    ("provider", "pattern", "model_id", "level", "reasoning"),
    [
        ("local", "new-model:high", "new-model", "high", True),
        (None, "local/new-model:high", "new-model", "high", True),
        ("local", "qwen3:32b:low", "qwen3:32b", "low", True),
        ("local", "new-model:off", "new-model", "off", False),
        ("local", "qwen3:32b", "qwen3:32b", None, False),
        ("local", "new-model:turbo", "new-model:turbo", None, False),
    ],
)
def test_custom_fallback_keeps_the_requested_level(
    provider: str | None, pattern: str, model_id: str, level: str | None, reasoning: bool
) -> None:
    result = resolve_cli_model(provider, pattern, MODELS)
    assert result.error is None
    assert result.model is not None
    assert (result.model.id, result.model.provider, result.thinking_level) == (model_id, "local", level)
    assert result.model.reasoning is reasoning
    assert result.warning == f'Model "{model_id}" not found for provider "local". Using custom model id.'
    assert MODELS[0].reasoning is False and MODELS[0].id == "base-chat"  # the template is not changed
