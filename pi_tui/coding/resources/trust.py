"""Project trust: what a project folder may make pi-tui load (pi 1.x ``docs/security.md``, "Understand project trust").

A folder's own code and instructions that change pi-tui's behaviour load only once the user trusts that folder:
``<cwd>/.pi-tui/`` ``settings.json``, ``mcp.json``, ``extensions/``, ``skills/``, ``prompts/``, ``themes/``,
``SYSTEM.md``, ``APPEND_SYSTEM.md``, pi's ``<cwd>/.pi/themes/`` (read by the theme loader), and ``.agents/skills`` in the cwd or an ancestor (up to the git root, the
same folders skill discovery reads; ``~/.agents/skills`` is the user's own and never counts). Context files
(``AGENTS.md``/``CLAUDE.md``) are not gated. A bare ``.pi-tui`` folder needs no decision.

API for the other loaders (extensions, MCP, settings, skills, templates)::

    from pi_tui.coding.resources import trust
    if trust.is_trusted(cwd):          # cheap: a few stat calls and one small JSON read
        load_project_extensions(...)

How the decision is made (:func:`resolve`), first match wins:

1. a decision for this process: ``--trust-project`` (:func:`set_override`) or a "this time only" answer
   (:func:`decide` with :attr:`TrustChoice.ONCE`);
2. no protected resource present: trusted, unless a saved decision says no (pi 1.x does the same);
3. the saved decision for the cwd or its closest ancestor in ``<agent dir>/trust.json``
   (``{"/canonical/path": true|false}``, paths canonical: absolute, symlinks resolved);
4. the global setting ``defaultProjectTrust``: ``"always"`` trusts, ``"never"`` and ``"ask"`` (the default) do
   not. Only the global ``settings.json`` is read for it: a project cannot trust itself.

Only the app asks (:func:`needs_decision` says when: resources present and nothing above decided, setting
``"ask"``); print, JSON and RPC modes never prompt and skip untrusted project resources
(:func:`skipped_notice` is the one stderr line they print). :class:`TrustChoice` has the three answers of the
app's modal: trust (remembered), this time only (not saved), don't load (remembered as ``false``); its Escape
is :attr:`TrustChoice.SKIP` (don't load, not saved).

A trust file that cannot be read is reported in :attr:`TrustStore.errors`, counts as "no saved decision" and is
never overwritten. Writes are atomic (temp file + rename) under a ``trust.json.lock`` file lock.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from pathlib import Path

from pi_tui.coding.config.jsonc import loads_jsonc
from pi_tui.coding.config.paths import APP_DIR_NAME, get_agent_dir, get_settings_path
from pi_tui.coding.config.settings import _locked

TRUST_FILE_NAME = "trust.json"
PROJECT_TRUST_ENTRIES: tuple[str, ...] = (
    "settings.json",
    "mcp.json",
    "extensions",
    "skills",
    "prompts",
    "themes",
    "SYSTEM.md",
    "APPEND_SYSTEM.md",
)
"""Entries of ``<cwd>/.pi-tui/`` whose presence asks for a trust decision (pi 1.x's list, ``.pi`` → ``.pi-tui``)."""
PI_PROJECT_TRUST_ENTRIES: tuple[str, ...] = (".pi/themes",)
"""Entries of ``<cwd>`` in pi's own project folder that pi-tui also reads (project themes, as pi does), so they
ask for a trust decision too."""
DEFAULT_PROJECT_TRUST_KEY = "defaultProjectTrust"
DEFAULT_PROJECT_TRUST_VALUES = ("ask", "always", "never")


class TrustChoice(enum.StrEnum):
    """The user's answer in the trust modal."""

    TRUST = "trust"
    """Load the project's resources and remember the folder as trusted."""
    ONCE = "once"
    """Load them for this process only; nothing is saved."""
    DENY = "deny"
    """Do not load them; remembered (``false``) so the app does not ask again."""
    SKIP = "skip"
    """Do not load them this time; nothing is saved (the modal's Escape), so the app asks again next start."""


@dataclass(frozen=True)
class TrustStatus:
    """Outcome of :func:`resolve` for one cwd.

    ``source``: ``"override"`` (``--trust-project`` or a this-time-only answer), ``"no-resources"``,
    ``"saved"`` (``saved_path`` is the trust.json key that applied), ``"setting"`` (``defaultProjectTrust``).
    ``resources``: the protected project resources present (absolute paths).
    """

    trusted: bool
    source: str
    resources: tuple[str, ...] = ()
    saved_path: str | None = None
    setting: str = "ask"
    errors: tuple[str, ...] = ()
    """Problems with ``trust.json`` (unreadable, invalid): shown as warnings; the file counts as empty."""

    @property
    def needs_decision(self) -> bool:
        """True when the app should ask: resources present, nothing decided, ``defaultProjectTrust`` is ``ask``."""
        return self.source == "setting" and self.setting == "ask" and bool(self.resources)


def canonical_path(path: str | os.PathLike[str]) -> str:
    """Absolute path with ``~`` expanded and symlinks resolved (the key of a trust decision)."""
    return os.path.realpath(os.path.abspath(os.path.expanduser(os.fspath(path))))


def find_git_root(start: str | os.PathLike[str]) -> Path | None:
    """The closest directory at or above ``start`` that contains ``.git``, or ``None``."""
    current = Path(os.path.abspath(start))
    while True:
        if (current / ".git").exists():
            return current
        if current.parent == current:
            return None
        current = current.parent


def ancestor_agents_skill_dirs(cwd: str | os.PathLike[str], home: str | os.PathLike[str] | None = None) -> list[Path]:
    """``<dir>/.agents/skills`` for the cwd and each ancestor up to the git root (the filesystem root outside a
    repository), closest first, without the user's own ``~/.agents/skills`` (pi docs/skills.md "Locations")."""
    user_dir = Path(os.path.abspath(home if home is not None else Path.home())) / ".agents" / "skills"
    start = Path(os.path.abspath(cwd))
    git_root = find_git_root(start)
    dirs: list[Path] = []
    current = start
    while True:
        candidate = current / ".agents" / "skills"
        if candidate != user_dir:
            dirs.append(candidate)
        if (git_root is not None and current == git_root) or current.parent == current:
            return dirs
        current = current.parent


def project_resources(cwd: str | os.PathLike[str], home: str | os.PathLike[str] | None = None) -> list[str]:
    """The protected project resources that exist for ``cwd`` (absolute paths, in the module docstring's order).

    An empty list means the folder supplies nothing that needs trust (context files do not count).
    """
    base = Path(os.path.abspath(cwd)) / APP_DIR_NAME
    found = [str(base / entry) for entry in PROJECT_TRUST_ENTRIES if (base / entry).exists()]
    root = Path(os.path.abspath(cwd))
    found.extend(str(root / entry) for entry in PI_PROJECT_TRUST_ENTRIES if (root / entry).exists())
    found.extend(str(d) for d in ancestor_agents_skill_dirs(cwd, home) if d.exists())
    return found


def has_project_resources(cwd: str | os.PathLike[str], home: str | os.PathLike[str] | None = None) -> bool:
    """True when ``cwd`` has at least one protected project resource (:func:`project_resources`)."""
    return bool(project_resources(cwd, home))


class TrustStore:
    """Saved per-folder decisions in ``<agent_dir>/trust.json`` (``{canonical path: true | false}``).

    :meth:`get` returns the decision of the cwd or its closest ancestor. An unreadable or invalid file gives no
    decision, an entry in :attr:`errors`, and is never overwritten by :meth:`set`.
    """

    def __init__(self, agent_dir: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(agent_dir if agent_dir is not None else get_agent_dir()) / TRUST_FILE_NAME
        self.errors: list[str] = []

    def _read(self) -> dict[str, bool] | None:
        """The saved decisions, ``{}`` when there is no file, ``None`` (and an error) when it is unusable."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as error:
            self._error(f"{self.path}: cannot read trust decisions: {error}")
            return None
        if not text.strip():
            return {}
        try:
            data = loads_jsonc(text)
        except ValueError as error:
            self._error(f"{self.path}: invalid JSON ({error}); no folder is trusted from it")
            return None
        if not isinstance(data, dict) or not all(isinstance(v, bool) or v is None for v in data.values()):
            self._error(f"{self.path}: must be an object of folder paths to true/false; ignored")
            return None
        return {str(k): v for k, v in data.items() if isinstance(v, bool)}

    def _error(self, text: str) -> None:
        if text not in self.errors:
            self.errors.append(text)
        return None

    def get_entry(self, cwd: str | os.PathLike[str]) -> tuple[str, bool] | None:
        """``(saved path, decision)`` for ``cwd`` or its closest ancestor, or ``None``."""
        data = self._read()
        if not data:
            return None
        current = canonical_path(cwd)
        while True:
            if current in data:
                return current, data[current]
            parent = os.path.dirname(current)
            if parent == current:
                return None
            current = parent

    def get(self, cwd: str | os.PathLike[str]) -> bool | None:
        """The saved decision that applies to ``cwd`` (closest folder wins), or ``None``."""
        entry = self.get_entry(cwd)
        return entry[1] if entry is not None else None

    def set(self, cwd: str | os.PathLike[str], decision: bool | None) -> bool:
        """Save ``decision`` for ``cwd`` (``None`` removes it). Returns False (and records an error) when the
        file is unusable or cannot be written; other folders' entries are kept."""
        key = canonical_path(cwd)
        try:
            with _locked(self.path):  # settings.json's cross-process lock
                data = self._read()
                if data is None:
                    return False
                if decision is None:
                    data.pop(key, None)
                else:
                    data[key] = decision
                _write_atomic(self.path, dict(sorted(data.items())))
        except OSError as error:
            self._error(f"{self.path}: cannot save trust decision: {error}")
            return False
        return True


def _write_atomic(path: Path, data: dict[str, bool]) -> None:
    from pi_tui.coding.config.settings import write_json_atomic

    write_json_atomic(path, data, mode=0o600)


def default_project_trust(agent_dir: str | os.PathLike[str] | None = None) -> str:
    """Global ``defaultProjectTrust`` (``ask`` | ``always`` | ``never``; anything else is ``ask``).

    Read from the global settings.json only, never the project's (a folder cannot vouch for itself).
    """
    path = get_settings_path(Path(agent_dir) if agent_dir is not None else None)
    try:
        data = loads_jsonc(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "ask"
    value = data.get(DEFAULT_PROJECT_TRUST_KEY) if isinstance(data, dict) else None
    return value if value in DEFAULT_PROJECT_TRUST_VALUES else "ask"


@dataclass
class _ProcessTrust:
    """Decisions that live only as long as this process (``--trust-project``, this-time-only answers)."""

    override: bool | None = None
    folders: dict[str, bool] = field(default_factory=dict)


_PROCESS = _ProcessTrust()


def set_override(trusted: bool | None) -> None:
    """``--trust-project`` (True), a forced "don't load" (False) or no override (None) for every folder, this
    process only."""
    _PROCESS.override = trusted


def reset_process_decisions() -> None:
    """Forget the override and every this-time-only decision (tests; a new process starts this way)."""
    _PROCESS.override = None
    _PROCESS.folders.clear()


def resolve(
    cwd: str | os.PathLike[str],
    agent_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
) -> TrustStatus:
    """The trust decision for ``cwd`` by the rules of the module docstring (never prompts)."""
    resources = tuple(project_resources(cwd, home))
    key = canonical_path(cwd)
    if _PROCESS.override is not None:
        return TrustStatus(_PROCESS.override, "override", resources)
    if key in _PROCESS.folders:
        return TrustStatus(_PROCESS.folders[key], "override", resources)
    store = TrustStore(agent_dir)
    entry = store.get_entry(cwd)
    errors = tuple(store.errors)
    if not resources:
        trusted = entry[1] if entry is not None else True
        return TrustStatus(trusted, "no-resources", resources, entry[0] if entry else None, errors=errors)
    if entry is not None:
        return TrustStatus(entry[1], "saved", resources, entry[0], errors=errors)
    setting = default_project_trust(agent_dir)
    return TrustStatus(setting == "always", "setting", resources, setting=setting, errors=errors)


def is_trusted(
    cwd: str | os.PathLike[str],
    agent_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
) -> bool:
    """Whether ``cwd``'s project resources (extensions, settings, skills, templates, mcp.json, themes,
    SYSTEM.md) may load in this process. Never prompts; see :func:`resolve` for the rules.

    ``agent_dir`` defaults to ``PI_TUI_DIR`` / ``~/.pi-tui/agent``; ``home`` (tests) to the user's home.
    """
    return resolve(cwd, agent_dir, home=home).trusted


def needs_decision(
    cwd: str | os.PathLike[str],
    agent_dir: str | os.PathLike[str] | None = None,
    *,
    home: str | os.PathLike[str] | None = None,
) -> bool:
    """True when the app should show the trust modal for ``cwd`` before it loads anything (see :class:`TrustStatus`)."""
    return resolve(cwd, agent_dir, home=home).needs_decision


def decide(cwd: str | os.PathLike[str], choice: TrustChoice | str, agent_dir: str | os.PathLike[str] | None = None) -> bool:
    """Apply the user's answer for ``cwd``; returns whether the folder is now trusted.

    Every answer also holds for the rest of this process, so a trust file that cannot be written still gives
    the answer the user chose (the failure is in :attr:`TrustStore.errors` of the store used).
    Raises ``ValueError`` for an unknown choice.
    """
    choice = TrustChoice(choice)
    trusted = choice in (TrustChoice.TRUST, TrustChoice.ONCE)
    _PROCESS.folders[canonical_path(cwd)] = trusted
    if choice in (TrustChoice.TRUST, TrustChoice.DENY):
        TrustStore(agent_dir).set(cwd, trusted)
    return trusted


def skipped_notice(status: TrustStatus, cwd: str | os.PathLike[str]) -> str | None:
    """The one line print/JSON/RPC modes write to stderr when untrusted project resources were not loaded,
    or ``None`` when nothing was skipped."""
    if status.trusted or not status.resources:
        return None
    base = os.path.abspath(cwd)
    names = ", ".join(os.path.relpath(r, base) for r in status.resources)
    why = "saved as not trusted" if status.source in ("saved", "override") else "folder not trusted"
    return (
        f"pi-tui: project resources not loaded ({why}): {names}. Trust the folder in the app, pass "
        "--trust-project, or set \"defaultProjectTrust\": \"always\" in the global settings.json"
    )
