"""auth.json credentials and API-key resolution (pi-reference §3.16 "Other files", "API-key resolution order").

``auth.json`` maps a provider to ``{"type": "api_key", "key": <value>}`` (or pi's OAuth record
``{"type": "oauth", "access", "refresh", "expires", ...}``). A key value is resolved by
:func:`resolve_config_value`: ``"!cmd"`` runs ``cmd`` in the shell and uses its trimmed stdout (cached for the
process, 10 s timeout, failure → no key); a value with ``$`` in it uses pi 1.x's explicit references
(``$NAME``, ``${NAME}``; ``$$`` and ``$!`` for a literal ``$`` and ``!``; an unset name → no key); otherwise, if
an environment variable of that name is set, its value (pi 0.73's documented rule, kept: DIFFERENCES PF13);
otherwise the literal string.

Order in :meth:`AuthStorage.get_api_key`: runtime override (CLI ``--api-key``) > auth.json api key >
auth.json OAuth access token (used while not expired; pi-tui does not refresh OAuth tokens — deviation: log
in with pi to refresh) > environment variable (:func:`pi_tui.ai.env_keys.get_env_api_key`) > the fallback
resolver (models.json provider keys, set by the model registry).

The file is written with mode 0600 (directory 0700) under an exclusive lock, re-read before each change so
concurrent edits are kept. Before each lookup the file is stat'ed and re-read when it changed (modification
time, size or inode), so a long-running session uses credentials another process (``/login`` in a second
window, a script) wrote since (pi 0.84.0, #7319); a changed file that does not parse keeps the last good
credentials. Keys never appear in ``repr``, errors or logs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pi_tui.ai.env_keys import find_env_keys, get_env_api_key
from pi_tui.ai.secret_redaction import register_secret, register_secrets
from pi_tui.coding.config.jsonc import loads_jsonc
from pi_tui.coding.config.paths import get_auth_path
from pi_tui.coding.config.settings import _locked, write_json_atomic

COMMAND_TIMEOUT_S = 10.0
_command_cache: dict[str, str | None] = {}
_command_failures: dict[str, str] = {}  # command -> why it gave no key (shown; never the key itself)
STDERR_SHOWN = 160  # characters of a failed command's first stderr line that the error names


def _run_command(command: str) -> str | None:
    """``command``'s trimmed stdout, or None; why it gave none is kept for :func:`command_failure`."""
    try:
        completed = subprocess.run(
            command,
            shell=True,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        _command_failures[command] = f"timed out after {COMMAND_TIMEOUT_S:g} s"
        return None
    except (OSError, subprocess.SubprocessError) as exc:
        _command_failures[command] = f"could not run ({exc.__class__.__name__})"
        return None
    if completed.returncode != 0:
        lines = completed.stderr.decode("utf-8", errors="replace").strip().splitlines()
        first = lines[0][:STDERR_SHOWN] if lines else ""
        _command_failures[command] = f"exit {completed.returncode}" + (f": {first}" if first else "")
        return None
    value = completed.stdout.decode("utf-8", errors="replace").strip()
    if not value:
        _command_failures[command] = "it printed nothing"
        return None
    _command_failures.pop(command, None)
    return value


def command_failure(value: str) -> str | None:
    """Why the ``!command`` config value ``value`` gave no key (``exit 3: <first stderr line>``, ``timed out
    after 10 s``, ``it printed nothing``), or None when it is no command or did not fail (tester2 #12)."""
    return _command_failures.get(value[1:]) if value.startswith("!") else None


def resolve_config_value(value: str, env: Mapping[str, str] | None = None, cached: bool = True) -> str | None:
    """Resolve a key/header config value: ``!command`` → its stdout, ``$NAME``/``${NAME}`` references →
    :func:`interpolate_env`, an env var name → its value, else the literal.

    Returns ``None`` only when a command fails or prints nothing, or a ``$NAME`` is not set. Command results are cached per process
    when ``cached`` (pi caches API-key commands; header values are resolved uncached).
    """
    if value.startswith("!"):
        if cached and value in _command_cache:
            return _command_cache[value]
        result = _run_command(value[1:])
        if cached:
            _command_cache[value] = result
        return result
    environ = os.environ if env is None else env
    if "$" in value:
        return interpolate_env(value, environ)
    return environ.get(value) or value


_ENV_REFERENCE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*)|([$!]))")


def interpolate_env(value: str, env: Mapping[str, str]) -> str | None:
    """pi 1.x's explicit syntax (pi 0.77.0/0.79.4, pi docs/models.md): ``$NAME`` and ``${NAME}`` are replaced by
    the variable's value, ``$$`` and ``$!`` give a literal ``$`` and ``!``; any other ``$`` stays as it is.
    Returns ``None`` when a named variable is not set (the value cannot be resolved)."""
    missing = False

    def replace(match: re.Match[str]) -> str:
        nonlocal missing
        name = match.group(1) or match.group(2)
        if name is None:
            return match.group(3)
        found = env.get(name)
        if found is None:
            missing = True
            return ""
        return found

    result = _ENV_REFERENCE.sub(replace, value)
    return None if missing else result


def clear_command_cache() -> None:
    """Forget cached ``!command`` results (tests, ``/reload``)."""
    _command_cache.clear()
    _command_failures.clear()


FallbackResolver = Callable[[str], str | None]


def _valid_entries(data: dict[str, Any], path: Path, errors: list[str]) -> dict[str, Any]:
    """The usable credential records of ``data``; each other entry is named in ``errors`` (without its value,
    which may be a key) and left out, so it neither counts as configured auth nor breaks model selection.
    The file keeps it: saves re-read the file (:meth:`AuthStorage._persist`)."""
    valid: dict[str, Any] = {}
    for provider, record in data.items():
        kind = record.get("type") if isinstance(record, dict) else None
        if kind == "api_key" and isinstance(record.get("key"), str) and record["key"]:
            valid[provider] = record
        elif kind == "oauth" and isinstance(record.get("access"), str):
            valid[provider] = record
        else:
            errors.append(
                f'{path}: entry "{provider}" ignored: expected {{"type": "api_key", "key": "..."}} '
                f"or an OAuth record, got {_shape(record)}"
            )
    return valid


def _shape(value: Any) -> str:
    if isinstance(value, dict):
        kind = value.get("type")
        return f"an object with type {json.dumps(kind)}" if kind is not None else 'an object without "type"'
    return {str: "a string", bool: "a boolean", int: "a number", float: "a number", list: "a list"}.get(
        type(value), "null" if value is None else type(value).__name__
    )


class AuthStorage:
    """Credentials from auth.json plus runtime overrides; see the module docstring for the resolution order."""

    def __init__(self, path: Path | None, data: dict[str, Any] | None = None) -> None:
        self.path = path
        self.errors: list[str] = []
        self._data: dict[str, Any] = {}
        self._load_failed = False
        self._runtime: dict[str, str] = {}
        self._fallback: FallbackResolver | None = None
        self._key_failures: dict[str, str] = {}  # provider -> why its auth.json key command gave no key
        self._stamp: tuple[int, int, int] | None = None  # the file as last read: (mtime_ns, size, inode)
        if data is not None:
            self._data = json.loads(json.dumps(data))
            self._stamp = self._file_stamp()  # given data wins until the file changes
        else:
            self.reload()

    def __repr__(self) -> str:
        return f"AuthStorage(path={self.path!s}, providers={sorted(self._data)})"

    @classmethod
    def create(cls, path: Path | None = None) -> AuthStorage:
        """Load ``<agentDir>/auth.json`` (or ``path``)."""
        return cls(path or get_auth_path())

    @classmethod
    def in_memory(cls, data: dict[str, Any] | None = None) -> AuthStorage:
        """Credentials that are never read from or written to disk."""
        return cls(None, data or {})

    def _file_stamp(self) -> tuple[int, int, int] | None:
        if self.path is None:
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def _refresh(self) -> None:
        """Re-read the file when another process changed it since it was read (module docstring)."""
        if self.path is not None and self._file_stamp() != self._stamp:
            self.reload()

    def reload(self) -> None:
        """Re-read auth.json; a bad file is reported in ``errors`` and then never overwritten."""
        if self.path is None:
            return
        self._stamp = self._file_stamp()
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self._data, self._load_failed = {}, False
            return
        except OSError as error:
            self._load_failed = True
            self.errors.append(f"{self.path}: cannot read credentials: {error.strerror}")
            return
        try:
            data = loads_jsonc(text) if text.strip() else {}
        except ValueError as error:
            self._load_failed = True
            self.errors.append(
                f"{self.path}: invalid JSON at line {getattr(error, 'lineno', '?')}; file ignored"
            )
            return
        if not isinstance(data, dict):
            self._load_failed = True
            self.errors.append(f"{self.path}: credentials must be a JSON object; file ignored")
            return
        self._data, self._load_failed = _valid_entries(data, self.path, self.errors), False
        for record in self._data.values():  # literal / env-var keys (commands run only when a key is needed)
            if record.get("type") == "api_key" and not record["key"].startswith("!"):
                register_secret(resolve_config_value(record["key"]))
            elif record.get("type") == "oauth":
                register_secrets((record.get("access"), record.get("refresh")))

    # ------------------------------------------------------------------ stored credentials

    def get(self, provider: str) -> dict[str, Any] | None:
        """The stored credential record of ``provider`` (a copy), or ``None``."""
        self._refresh()
        record = self._data.get(provider)
        return dict(record) if isinstance(record, dict) else None

    def list(self) -> list[str]:
        """Providers with a stored credential."""
        self._refresh()
        return list(self._data)

    def has(self, provider: str) -> bool:
        self._refresh()
        return provider in self._data

    def set(self, provider: str, credential: dict[str, Any]) -> None:
        """Store a credential (e.g. ``{"type": "api_key", "key": "sk-..."}``) and persist it."""
        self._data[provider] = dict(credential)
        self._persist(provider, dict(credential))

    def set_api_key(self, provider: str, key: str) -> None:
        """Shorthand for ``set(provider, {"type": "api_key", "key": key})``."""
        self.set(provider, {"type": "api_key", "key": key})

    def remove(self, provider: str) -> None:
        """Delete a stored credential and persist."""
        self._data.pop(provider, None)
        self._persist(provider, None)

    def _persist(self, provider: str, credential: dict[str, Any] | None) -> None:
        if self.path is None or self._load_failed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with _locked(self.path):
                current: dict[str, Any] = {}
                if self.path.exists():
                    text = self.path.read_text(encoding="utf-8")
                    loaded = loads_jsonc(text) if text.strip() else {}
                    current = loaded if isinstance(loaded, dict) else {}
                if credential is None:
                    current.pop(provider, None)
                else:
                    current[provider] = credential
                write_json_atomic(self.path, current, mode=0o600)
        except (OSError, ValueError) as error:
            self.errors.append(f"{self.path}: cannot save credentials: {type(error).__name__}")

    # ------------------------------------------------------------------ runtime overrides and fallback

    def set_runtime_api_key(self, provider: str, key: str) -> None:
        """CLI ``--api-key``: highest priority, never persisted."""
        register_secret(key)
        self._runtime[provider] = key

    def remove_runtime_api_key(self, provider: str) -> None:
        self._runtime.pop(provider, None)

    def set_fallback_resolver(self, resolver: FallbackResolver | None) -> None:
        """Last-resort key source (the model registry passes models.json provider keys)."""
        self._fallback = resolver

    # ------------------------------------------------------------------ resolution

    def has_auth(self, provider: str) -> bool:
        """True if any key source is configured (commands are not run; OAuth tokens not checked)."""
        self._refresh()
        return bool(
            provider in self._runtime
            or self._data.get(provider)
            or get_env_api_key(provider)
            or (self._fallback is not None and self._fallback(provider))
        )

    def key_failure(self, provider: str) -> str | None:
        """Why ``provider``'s auth.json ``!command`` key gave no key at the last lookup (exit code and first
        stderr line, a timeout), or None: the request is then refused with it instead of going out with no key
        (tester2 #12: the only message was the server's 401)."""
        return self._key_failures.get(provider)

    def get_api_key(self, provider: str, include_fallback: bool = True) -> str | None:
        """Resolve the key of ``provider`` (may run a ``!command``: call from a worker thread in async code)."""
        runtime = self._runtime.get(provider)
        if runtime:
            return runtime
        self._refresh()
        self._key_failures.pop(provider, None)  # what key_failure says is about this lookup only
        record = self._data.get(provider)
        if isinstance(record, dict):
            if record.get("type") == "api_key" and isinstance(record.get("key"), str):
                resolved = resolve_config_value(record["key"])
                if resolved:
                    return resolved
                failure = command_failure(record["key"])
                if failure is not None:
                    self._key_failures[provider] = f'The API key command for "{provider}" in auth.json failed ({failure})'
            elif record.get("type") == "oauth":
                access, expires = record.get("access"), record.get("expires")
                if (
                    isinstance(access, str)
                    and access
                    and (not isinstance(expires, int | float) or expires > time.time() * 1000)
                ):
                    return access
        env_key = get_env_api_key(provider)
        if env_key:
            return env_key
        if include_fallback and self._fallback is not None:
            return self._fallback(provider)
        return None

    def get_auth_status(self, provider: str) -> dict[str, Any]:
        """Where auth would come from, without values: ``{configured, source?, label?}`` (pi's shape)."""
        self._refresh()
        if self._data.get(provider):
            return {"configured": True, "source": "stored"}
        if provider in self._runtime:
            return {"configured": False, "source": "runtime", "label": "--api-key"}
        env_names = find_env_keys(provider)
        if env_names:
            return {"configured": False, "source": "environment", "label": env_names[0]}
        if self._fallback is not None and self._fallback(provider):
            return {"configured": False, "source": "fallback", "label": "custom provider config"}
        return {"configured": False}
