"""Package re-exports that load their submodule on first use (PEP 562), so importing one light module of a
package does not import the whole package (issue 15: the first paint).

``import pi_tui.ai.secret_redaction`` runs ``pi_tui/ai/__init__.py`` first; when that file imported every
submodule to re-export their names, the app's first paint paid for pydantic models, the agent loop and
``jsonschema`` it does not use. A package built with :func:`lazy_package` keeps its public names
(``from pi_tui.ai import Model`` still works, and ``mypy`` reads the ``TYPE_CHECKING`` imports the package keeps
beside the table) and imports the submodule that defines a name the first time the name is looked up.

A re-exported name must not be the name of one of the package's own submodules: once that submodule is imported,
the import system binds the package attribute to the module, and the name would stop meaning the re-export.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_package(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the package named ``package`` (its ``__name__``).

    ``exports`` maps each public name to the relative module that defines it (``"Model": ".types"``). The first
    lookup of a name imports that module, stores the value on the package (later lookups are plain attribute
    reads) and returns it; an unknown name raises ``AttributeError`` as a module without ``__getattr__`` does.
    Raises ``ValueError`` for a name that is also its module's name (module docstring).
    """
    clashes = sorted(name for name, where in exports.items() if where.rsplit(".", 1)[-1] == name)
    if clashes:
        raise ValueError(f"{package}: re-exported names that are submodule names: {clashes}")

    def __getattr__(name: str) -> Any:
        where = exports.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *exports})

    return __getattr__, __dir__
