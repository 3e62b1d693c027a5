"""settings.json on disk: reading one file (JSONC, pi's legacy-key migration), merging scopes, and writing
atomically under a cross-process lock (pi-reference §3.16). Shared by ``settings``, auth.json, trust.json and
mcp.json; :mod:`pi_tui.coding.config.settings` re-exports these names."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pi_tui.coding.config.jsonc import loads_jsonc

try:  # POSIX only; on other systems saving works without the cross-process lock
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]



def deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """New dict: ``override`` over ``base``; nested dicts merge recursively, other values (lists too) replace."""
    result = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = value
    return result


def migrate_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """Rewrite legacy keys in place (pi's ``migrateSettings``) and return the dict."""
    if "queueMode" in settings and "steeringMode" not in settings:
        settings["steeringMode"] = settings.pop("queueMode")
    if "transport" not in settings and isinstance(settings.get("websockets"), bool):
        settings["transport"] = "websocket" if settings.pop("websockets") else "sse"
    skills = settings.get("skills")
    if isinstance(skills, dict):
        if "enableSkillCommands" in skills and "enableSkillCommands" not in settings:
            settings["enableSkillCommands"] = skills["enableSkillCommands"]
        custom = skills.get("customDirectories")
        if isinstance(custom, list) and custom:
            settings["skills"] = custom
        else:
            del settings["skills"]
    retry = settings.get("retry")
    if isinstance(retry, dict) and "maxDelayMs" in retry:
        max_delay = retry.pop("maxDelayMs")
        existing = retry.get("provider")
        provider: dict[str, Any] = existing if isinstance(existing, dict) else {}
        if isinstance(max_delay, int | float) and provider.get("maxRetryDelayMs") is None:
            retry["provider"] = {**provider, "maxRetryDelayMs": max_delay}
    return settings


def _read_settings_file(path: Path) -> tuple[dict[str, Any], str | None]:
    """(settings, error). A missing/empty file is ``{}``; an unreadable or invalid one gives an error text."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except OSError as error:
        return {}, f"{path}: cannot read settings: {error}"
    if not text.strip():
        return {}, None
    try:
        data = loads_jsonc(text)
    except ValueError as error:
        return {}, f"{path}: invalid JSON ({error}); file ignored"
    if not isinstance(data, dict):
        return {}, f"{path}: settings must be a JSON object; file ignored"
    return migrate_settings(data), None


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    if fcntl is None:  # pragma: no cover
        yield
        return
    with open(path.with_name(path.name + ".lock"), "a+") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def write_json_atomic(path: Path, data: Any, mode: int = 0o644) -> None:
    """Write ``data`` as 2-space-indented JSON via temp file + fsync + rename (``mode`` applied to the file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=2, ensure_ascii=False)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
