"""Known secrets (API keys, auth header values) and their redaction in text that is written out.

Secrets never reach session files, exports or JSON/RPC output (DESIGN "Secrets"), even when they end up
inside message text: a provider error that echoes the key (``Incorrect API key provided: sk-…``), a tool
result of ``env``, or a user's ``!echo $OPENAI_API_KEY``. The writers (session JSONL, ``/export``, JSON lines)
pass their final text through :func:`redact_text`; the values come from :func:`register_secret`, called where
keys are resolved (credentials for a request, ``--api-key``, auth.json, provider env vars).

Only values that look like keys are registered: at least :data:`MIN_SECRET_LENGTH` characters, no whitespace,
with both a letter and a digit. Placeholder keys of local servers (``none``, ``ollama``, ``lm-studio``,
``sk-no-key-required``) are therefore never treated as secrets, so ordinary words are not rewritten.
The registry lives for the process (keys are not written anywhere by it).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Mapping

REDACTED = "[REDACTED]"
MIN_SECRET_LENGTH = 16

_lock = threading.Lock()
_secrets: set[str] = set()
_forms: tuple[str, ...] = ()  # every secret and its JSON-escaped form, longest first


def looks_like_secret(value: object) -> bool:
    """True for a string that could be a key (see the module docstring for the rule)."""
    if not isinstance(value, str) or len(value) < MIN_SECRET_LENGTH:
        return False
    if any(ch.isspace() for ch in value):
        return False
    return any(ch.isdigit() for ch in value) and any(ch.isalpha() for ch in value)


def register_secret(value: object) -> None:
    """Remember ``value`` as a secret if it looks like one (else do nothing). ``Bearer <key>`` registers the key."""
    global _forms
    if isinstance(value, str) and value[:7].lower() == "bearer ":
        value = value[7:].strip()
    if not looks_like_secret(value):
        return
    assert isinstance(value, str)
    with _lock:
        if value in _secrets:
            return
        _secrets.add(value)
        forms = set(_secrets)
        forms.update(json.dumps(s, ensure_ascii=False)[1:-1] for s in _secrets)
        forms.update(json.dumps(s, ensure_ascii=True)[1:-1] for s in _secrets)
        _forms = tuple(sorted(forms, key=len, reverse=True))


def register_secrets(values: Iterable[object]) -> None:
    """:func:`register_secret` for each value."""
    for value in values:
        register_secret(value)


def register_env_secrets(env: Mapping[str, str] | None = None) -> None:
    """Register the values of every provider key variable (pi-reference §1.13) and the AWS secrets that are set,
    so that a tool printing the environment cannot copy them into a session file."""
    from pi_tui.ai.env_keys import ENV_API_KEYS

    environ = os.environ if env is None else env
    names = {name for group in ENV_API_KEYS.values() for name in group}
    names.update(("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK"))
    register_secrets(environ.get(name) for name in sorted(names))


def redact_text(text: str) -> str:
    """``text`` with every registered secret (raw or JSON-escaped) replaced by :data:`REDACTED`."""
    forms = _forms
    if not forms:
        return text
    for form in forms:
        if form in text:
            text = text.replace(form, REDACTED)
    return text


def clear_secrets() -> None:
    """Forget every registered secret (tests)."""
    global _forms
    with _lock:
        _secrets.clear()
        _forms = ()
