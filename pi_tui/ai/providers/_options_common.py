"""Option helpers shared by the H2 providers (pi-reference §1.8, §1.9)."""

from __future__ import annotations

import os

from ..types import Model

PROMPT_CACHE_KEY_LIMIT = 64


def prompt_cache_key(session_id: str) -> str:
    """OpenAI's ``prompt_cache_key`` for a session: its first 64 characters (the API rejects longer keys with
    HTTP 400; pi 0.75.4, #4720). Session ids of pi-tui are 36-character UUIDs; SDK callers and clients may
    pass longer ones."""
    return session_id[:PROMPT_CACHE_KEY_LIMIT]


def resolve_cache_retention(value: str | None) -> str:
    """``value`` when set, else ``long`` if env ``PI_CACHE_RETENTION=long``, else ``short`` (pi-reference §1.8)."""
    if value:
        return value
    return "long" if os.environ.get("PI_CACHE_RETENTION") == "long" else "short"


def compat_flag(model: Model, name: str, default: bool = True) -> bool:
    """A boolean ``model.compat`` flag (camelCase key, pi-reference §1.9); ``default`` when unset."""
    value = (model.compat or {}).get(name)
    return default if value is None else bool(value)
