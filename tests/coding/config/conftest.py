"""Config tests never see the machine's API keys or ambient cloud credentials."""

from __future__ import annotations

import pytest

from pi_tui.ai.env_keys import ENV_API_KEYS

_AMBIENT = (
    "AWS_PROFILE",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "GOOGLE_CLOUD_PROJECT",
    "GCLOUD_PROJECT",
    "GOOGLE_CLOUD_LOCATION",
)


@pytest.fixture(autouse=True)
def _no_ambient_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for names in ENV_API_KEYS.values():
        for name in names:
            monkeypatch.delenv(name, raising=False)
    for name in _AMBIENT:
        monkeypatch.delenv(name, raising=False)
