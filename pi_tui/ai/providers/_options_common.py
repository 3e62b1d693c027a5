"""Option helpers shared by the H2 providers (pi-reference §1.8, §1.9)."""

from __future__ import annotations

import os

from ..types import Model


def resolve_cache_retention(value: str | None) -> str:
    """``value`` when set, else ``long`` if env ``PI_CACHE_RETENTION=long``, else ``short`` (pi-reference §1.8)."""
    if value:
        return value
    return "long" if os.environ.get("PI_CACHE_RETENTION") == "long" else "short"


def compat_flag(model: Model, name: str, default: bool = True) -> bool:
    """A boolean ``model.compat`` flag (camelCase key, pi-reference §1.9); ``default`` when unset."""
    value = (model.compat or {}).get(name)
    return default if value is None else bool(value)
