"""Configuration problems found at start-up, and where a connection failure went (issue 9 item 12).

:func:`config_errors` lists every configuration file that could not be used, each message naming its file:
``settings.json`` (global and project) that cannot be read or parsed, every ``models.json`` and ``auth.json``
problem (they decide which model runs), and a ``keybindings.json`` that cannot be parsed. The interactive app
shows them as warnings; print, JSON and RPC mode refuse to run (exit 1, the messages on stderr), because an
answer from the wrong model (or the offline demo's canned one) with exit code 0 looks like success.

:func:`connection_hint` names the provider and base URL of a request that never reached its server, so "All
connection attempts failed" after the retries says which server was down.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pi_tui.coding.config.paths import get_keybindings_path

_KEYBINDINGS_FILE_ERROR = ("cannot read key bindings", "default key bindings used")
_CONNECTION_FAILURE = re.compile(
    r"connection (error|refused|reset|closed)|connect(ion)? attempts failed|request timed out|"
    r"name or service not known|getaddrinfo|network is unreachable|no route to host",
    re.IGNORECASE,
)


_NOT_IGNORED = re.compile(r"; (file ignored|default key bindings used)$")


class ConfigError(ValueError):
    """Configuration files that cannot be used; ``str()`` is one message per line, each naming its file."""

    def __init__(self, errors: list[str]) -> None:
        self.errors = [_NOT_IGNORED.sub("", e) for e in errors]  # nothing is "ignored": the run stops
        super().__init__("\n".join(self.errors))


def keybindings_file_errors(agent_dir: Path) -> list[str]:
    """Problems with ``<agent_dir>/keybindings.json`` as a whole (unreadable, not JSON, not an object);
    single bad entries are only warnings of the interactive app."""
    from pi_tui.coding.config.keybindings import load_keybindings

    path = get_keybindings_path(agent_dir)
    if not path.exists():
        return []
    return [e for e in load_keybindings(path).errors if any(t in e for t in _KEYBINDINGS_FILE_ERROR)]


def config_errors(settings_manager: Any, access: Any, agent_dir: Path) -> list[str]:
    """Every configuration problem that makes a file (or a models.json/auth.json entry) unusable."""
    errors = [*getattr(settings_manager, "file_errors", []), *getattr(access, "errors", [])]
    errors.extend(keybindings_file_errors(agent_dir))
    return list(dict.fromkeys(str(e) for e in errors))


def model_config_broken(access: Any) -> bool:
    """True when models.json or auth.json had a problem: then something *is* configured, and the offline demo
    model must not answer in its place."""
    return bool(getattr(access, "errors", None))


def connection_hint(error_message: str | None, model: Any) -> str:
    """`` (provider "<p>" at <baseUrl>)`` when ``error_message`` says the server could not be reached, else ""."""
    if not error_message or model is None or not _CONNECTION_FAILURE.search(error_message):
        return ""
    provider = getattr(model, "provider", None) or "?"
    base_url = getattr(model, "base_url", None) or getattr(model, "baseUrl", None)
    if base_url and str(base_url) in error_message:
        return ""
    return f' (provider "{provider}"' + (f" at {base_url})" if base_url else ")")
