"""Where pi-tui keeps its files (pi-reference §3.4 "Location", §3.16, §3.17 "Env").

pi-tui uses its own directory, not pi's: ``~/.pi-tui/agent`` (env ``PI_TUI_DIR`` overrides, like pi's
``PI_CODING_AGENT_DIR``), with ``settings.json``, ``auth.json``, ``models.json``, ``keybindings.json`` and
``sessions/--<cwd>--/<ts>_<uuid>.jsonl``. Project settings live in ``<cwd>/.pi-tui/settings.json``.
Session dir precedence: ``--session-dir`` > env ``PI_TUI_SESSION_DIR`` > settings ``sessionDir`` > default.
Paths are returned as-is (not created); writers create directories when they first write.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

APP_DIR_NAME = ".pi-tui"
"""Name of the per-user directory under ``~`` and of the per-project config directory."""
ENV_AGENT_DIR = "PI_TUI_DIR"
ENV_SESSION_DIR = "PI_TUI_SESSION_DIR"


def _expand(path: str) -> Path:
    return Path(os.path.expanduser(path))


def get_agent_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$PI_TUI_DIR`` (``~`` expanded) or ``~/.pi-tui/agent``."""
    environ = os.environ if env is None else env
    override = environ.get(ENV_AGENT_DIR)
    if override:
        return _expand(override)
    return Path.home() / APP_DIR_NAME / "agent"


def display_agent_path(name: str = "", agent_dir: Path | None = None) -> str:
    """``<agent dir>/<name>`` as the user is shown it: the real config dir (``$PI_TUI_DIR`` honoured), with the
    home directory written as ``~`` (issue 9: help text must name the files pi-tui really reads)."""
    path = (agent_dir or get_agent_dir()) / name if name else (agent_dir or get_agent_dir())
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return path.as_posix()


def get_settings_path(agent_dir: Path | None = None) -> Path:
    """Global ``settings.json``."""
    return (agent_dir or get_agent_dir()) / "settings.json"


def get_project_settings_path(cwd: str | os.PathLike[str]) -> Path:
    """Project ``<cwd>/.pi-tui/settings.json``."""
    return Path(cwd) / APP_DIR_NAME / "settings.json"


def get_auth_path(agent_dir: Path | None = None) -> Path:
    """``auth.json`` (API keys; written with mode 0600)."""
    return (agent_dir or get_agent_dir()) / "auth.json"


def get_models_path(agent_dir: Path | None = None) -> Path:
    """``models.json`` (custom providers and models, JSONC allowed)."""
    return (agent_dir or get_agent_dir()) / "models.json"


def get_keybindings_path(agent_dir: Path | None = None) -> Path:
    """``keybindings.json`` (action id → key or keys)."""
    return (agent_dir or get_agent_dir()) / "keybindings.json"


def get_sessions_dir(agent_dir: Path | None = None) -> Path:
    """Root of all session directories: ``<agentDir>/sessions``."""
    return (agent_dir or get_agent_dir()) / "sessions"


_SEPARATORS = re.compile(r"[/\\:]")


def encode_cwd(cwd: str) -> str:
    """``--<cwd>--`` with the leading ``/`` or ``\\`` removed and every ``/``, ``\\``, ``:`` → ``-``."""
    trimmed = cwd[1:] if cwd[:1] in ("/", "\\") else cwd
    return f"--{_SEPARATORS.sub('-', trimmed)}--"


def get_default_session_dir(cwd: str, agent_dir: Path | None = None) -> Path:
    """``<agentDir>/sessions/--<cwd>--`` (pi-reference §3.4)."""
    return get_sessions_dir(agent_dir) / encode_cwd(cwd)


def resolve_session_dir(
    cwd: str,
    cli_session_dir: str | None = None,
    settings_session_dir: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Path:
    """Session dir by precedence: CLI > ``$PI_TUI_SESSION_DIR`` > settings ``sessionDir`` > default for ``cwd``."""
    environ = os.environ if env is None else env
    for candidate in (cli_session_dir, environ.get(ENV_SESSION_DIR), settings_session_dir):
        if candidate:
            return _expand(candidate)
    return get_default_session_dir(cwd, get_agent_dir(environ))
