"""API keys from environment variables (pi-reference §1.13, §6 "Env keys").

``ENV_API_KEYS`` maps a provider to the env vars that may hold its key, in order of preference; the first one
that is set (non-empty) wins. Google Vertex and Amazon Bedrock can also authenticate from ambient credentials;
then :func:`get_env_api_key` returns the marker :data:`AUTHENTICATED` (``"<authenticated>"``) instead of a key.
OAuth-only providers (``openai-codex``) have no env var and never get a key from here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

AUTHENTICATED = "<authenticated>"
"""Marker returned when a provider authenticates from ambient credentials (ADC / AWS)."""

ENV_API_KEYS: dict[str, tuple[str, ...]] = {
    "anthropic": ("ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"),
    "openai": ("OPENAI_API_KEY",),
    "azure-openai-responses": ("AZURE_OPENAI_API_KEY",),
    "github-copilot": ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"),
    "google": ("GEMINI_API_KEY",),
    "google-vertex": ("GOOGLE_CLOUD_API_KEY",),
    "deepseek": ("DEEPSEEK_API_KEY",),
    "groq": ("GROQ_API_KEY",),
    "cerebras": ("CEREBRAS_API_KEY",),
    "xai": ("XAI_API_KEY",),
    "openrouter": ("OPENROUTER_API_KEY",),
    "vercel-ai-gateway": ("AI_GATEWAY_API_KEY",),
    "zai": ("ZAI_API_KEY",),
    "mistral": ("MISTRAL_API_KEY",),
    "minimax": ("MINIMAX_API_KEY",),
    "minimax-cn": ("MINIMAX_CN_API_KEY",),
    "moonshotai": ("MOONSHOT_API_KEY",),
    "moonshotai-cn": ("MOONSHOT_API_KEY",),
    "huggingface": ("HF_TOKEN",),
    "fireworks": ("FIREWORKS_API_KEY",),
    "opencode": ("OPENCODE_API_KEY",),
    "opencode-go": ("OPENCODE_API_KEY",),
    "kimi-coding": ("KIMI_API_KEY",),
    "cloudflare-workers-ai": ("CLOUDFLARE_API_KEY",),
    "cloudflare-ai-gateway": ("CLOUDFLARE_API_KEY",),
    "xiaomi": ("XIAOMI_API_KEY",),
    "xiaomi-token-plan-cn": ("XIAOMI_TOKEN_PLAN_CN_API_KEY",),
    "xiaomi-token-plan-ams": ("XIAOMI_TOKEN_PLAN_AMS_API_KEY",),
    "xiaomi-token-plan-sgp": ("XIAOMI_TOKEN_PLAN_SGP_API_KEY",),
}

_AWS_SINGLE_VARS = (
    "AWS_PROFILE",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
)


def find_env_keys(provider: str, env: Mapping[str, str] | None = None) -> list[str]:
    """Names of the env vars for ``provider`` that are set and non-empty, in preference order.

    Ambient credentials (AWS, Google ADC) are not listed. Unknown provider → ``[]``.
    ``env`` defaults to ``os.environ``.
    """
    environ = os.environ if env is None else env
    return [name for name in ENV_API_KEYS.get(provider, ()) if environ.get(name)]


def _has_vertex_adc(environ: Mapping[str, str]) -> bool:
    path = environ.get("GOOGLE_APPLICATION_CREDENTIALS")
    if path:
        return Path(path).exists()
    return (Path.home() / ".config" / "gcloud" / "application_default_credentials.json").exists()


def _has_aws_credentials(environ: Mapping[str, str]) -> bool:
    if any(environ.get(name) for name in _AWS_SINGLE_VARS):
        return True
    return bool(environ.get("AWS_ACCESS_KEY_ID") and environ.get("AWS_SECRET_ACCESS_KEY"))


def get_env_api_key(provider: str, env: Mapping[str, str] | None = None) -> str | None:
    """The API key for ``provider`` from the environment, or ``None``.

    First set var of :data:`ENV_API_KEYS` wins. Otherwise ``google-vertex`` returns ``"<authenticated>"`` when
    ADC credentials exist (``GOOGLE_APPLICATION_CREDENTIALS`` file or ``~/.config/gcloud/application_default_
    credentials.json``) and ``GOOGLE_CLOUD_PROJECT``/``GCLOUD_PROJECT`` and ``GOOGLE_CLOUD_LOCATION`` are set;
    ``amazon-bedrock`` returns it when any AWS credential source is configured (pi-reference §1.13).
    """
    environ = os.environ if env is None else env
    found = find_env_keys(provider, environ)
    if found:
        return environ[found[0]]
    if provider == "google-vertex":
        has_project = bool(environ.get("GOOGLE_CLOUD_PROJECT") or environ.get("GCLOUD_PROJECT"))
        has_location = bool(environ.get("GOOGLE_CLOUD_LOCATION"))
        if has_project and has_location and _has_vertex_adc(environ):
            return AUTHENTICATED
    if provider == "amazon-bedrock" and _has_aws_credentials(environ):
        return AUTHENTICATED
    return None
