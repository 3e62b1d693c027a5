"""Finding and importing extensions (pi docs/extensions.md "Extension Locations"; pi's resource loader).

Where, in this order (a path found twice loads once, at its first place):

1. ``-e/--extension PATH`` (repeatable): a ``.py`` file, a package folder (``__init__.py``) or a folder
   of extensions; a path that does not exist is an error naming it;
2. the project's ``<cwd>/.pi-tui/extensions/``, only when the project is trusted (project code runs only
   after the user trusted the folder: issue 11 "Project trust");
3. ``<agent dir>/extensions/`` (``~/.pi-tui/agent/extensions/``, ``$PI_TUI_DIR/extensions/``);
4. the ``extensions`` list of settings.json (files or folders, ``~`` expanded, relative to cwd).

``--no-extensions`` turns 2–4 off; ``-e`` paths still load (pi). In a folder, each ``*.py`` file and each
sub-folder with an ``__init__.py`` is one extension, in name order; names starting with ``_`` or ``.``
are skipped.

Each extension is imported under its own unique module name (``pi_tui_ext_<n>_<stem>``), so two files
named alike never clash; a package's own relative imports work. Its ``activate(pi)`` (sync or async) is
then called. A failing import, a missing ``activate`` or an ``activate`` that raises leaves the app
running without that extension (anything it registered is taken back) and gives one
:class:`~pi_tui.coding.extensions.runner.ExtensionError` naming the file.
"""

from __future__ import annotations

import importlib.util
import inspect
import itertools
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from pi_tui.coding.config.paths import APP_DIR_NAME

_COUNTER = itertools.count(1)


@dataclass
class ExtensionSources:
    """Where to look (module docstring). ``agent_dir``: the resolved agent dir; ``project_trusted``: the
    project folder is trusted; None asks ``pi_tui.coding.resources.trust.is_trusted`` when the extensions
    are discovered (the app's trust modal may have answered since start-up; untrusted when that module is
    missing); ``cli_paths``: ``-e`` values; ``settings_paths``: the global settings' ``extensions``;
    ``project_settings_paths``: the project settings' (trusted projects only); ``no_extensions``:
    ``--no-extensions``."""

    cwd: str
    agent_dir: Path
    project_trusted: bool | None = False
    cli_paths: Sequence[str] = ()
    settings_paths: Sequence[str] = ()
    project_settings_paths: Sequence[str] = ()
    no_extensions: bool = False

    def trusted(self) -> bool:
        """Whether the project's own extensions may load (see ``project_trusted``)."""
        if self.project_trusted is not None:
            return self.project_trusted
        try:
            from pi_tui.coding.resources import trust  # type: ignore[attr-defined,unused-ignore]
        except ImportError:
            return False
        return bool(trust.is_trusted(self.cwd, self.agent_dir))


@dataclass
class Discovery:
    """The extension entry files found, in load order, and the problems met (``(path, message)``)."""

    paths: list[Path] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)


def _entries_in_dir(folder: Path) -> list[Path]:
    """The extensions in ``folder``: ``*.py`` files and packages, in name order."""
    found: list[Path] = []
    try:
        children = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError:
        return []
    for child in children:
        if child.name.startswith((".", "_")):
            continue
        if child.is_file() and child.suffix == ".py":
            found.append(child)
        elif child.is_dir() and (child / "__init__.py").is_file():
            found.append(child / "__init__.py")
    return found


def _resolve(path: str, cwd: str) -> Path:
    expanded = Path(os.path.expanduser(path))
    return expanded if expanded.is_absolute() else Path(cwd) / expanded


def _entries_at(path: Path) -> list[Path] | None:
    """Entry files for an explicit path (file, package or folder of extensions); None when it is missing."""
    if path.is_file():
        return [path]
    if path.is_dir():
        if (path / "__init__.py").is_file():
            return [path / "__init__.py"]
        return _entries_in_dir(path)
    return None


def discover_extensions(sources: ExtensionSources) -> Discovery:
    """The entry files to load, in order (module docstring)."""
    result = Discovery()
    seen: set[str] = set()

    def add(paths: Sequence[Path]) -> None:
        for path in paths:
            key = os.path.realpath(path)
            if key not in seen:
                seen.add(key)
                result.paths.append(path)

    def explicit(raw: str, what: str) -> None:
        entries = _entries_at(_resolve(raw, sources.cwd))
        if entries is None:
            result.problems.append((raw, f"Extension path does not exist: {raw} ({what})"))
        else:
            add(entries)

    for raw in sources.cli_paths:
        explicit(raw, "-e")
    if sources.no_extensions:
        return result
    trusted = sources.trusted()
    if trusted:
        add(_entries_in_dir(Path(sources.cwd) / APP_DIR_NAME / "extensions"))
    add(_entries_in_dir(sources.agent_dir / "extensions"))
    for raw in sources.settings_paths:
        explicit(raw, "settings 'extensions'")
    for raw in sources.project_settings_paths if trusted else ():
        explicit(raw, "project settings 'extensions'")
    return result


def extension_name(entry: Path) -> str:
    """The display name: the file stem, or the package folder's name."""
    return entry.parent.name if entry.name == "__init__.py" else entry.stem


def import_extension(entry: Path) -> ModuleType:
    """Import ``entry`` under a fresh unique module name (module docstring); raises what the import raises
    (``SyntaxError``, ``ImportError``, any exception of the module's top level)."""
    stem = "".join(ch if ch.isalnum() else "_" for ch in extension_name(entry))
    module_name = f"pi_tui_ext_{next(_COUNTER)}_{stem}"
    is_package = entry.name == "__init__.py"
    spec = importlib.util.spec_from_file_location(
        module_name, entry, submodule_search_locations=[str(entry.parent)] if is_package else None
    )
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {entry}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        forget_module(module_name)
        raise
    return module


def forget_module(module_name: str) -> None:
    """Drop ``module_name`` and its submodules from ``sys.modules`` (a reload imports them afresh)."""
    for name in [n for n in sys.modules if n == module_name or n.startswith(module_name + ".")]:
        del sys.modules[name]


def activate_function(module: ModuleType) -> object:
    """The module's ``activate``; raises ``AttributeError`` when it has none that is callable."""
    activate = getattr(module, "activate", None)
    if not callable(activate):
        raise AttributeError("no activate(pi) function")
    return activate


def is_async(fn: object) -> bool:
    """True when ``fn`` is a coroutine function."""
    return inspect.iscoroutinefunction(fn)
