"""Packages that re-export their modules' names lazily (``pi_tui.lazy_exports``, issue 15): every name of their
``__all__`` is there and is the object its module defines; importing the package alone loads none of them; a
re-exported name that is also a submodule's name is refused (the import system would rebind it)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

import pytest

from pi_tui.lazy_exports import lazy_package

LAZY = ["pi_tui.ai", "pi_tui.agent", "pi_tui.coding.session", "pi_tui.coding.agent_session",
        "pi_tui.coding.tools", "pi_tui.coding.compaction"]


@pytest.mark.parametrize("name", LAZY)
def test_every_public_name_resolves_to_its_modules_object(name: str) -> None:
    package = importlib.import_module(name)
    exports = package._EXPORTS
    for public in package.__all__:
        value = getattr(package, public)
        where = exports.get(public)
        if where is not None:
            assert value is getattr(importlib.import_module(where, name), public), public
    assert set(exports) <= set(package.__all__) | {"_SessionAgent"}
    assert set(exports) <= set(dir(package))
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018


def test_importing_the_packages_loads_none_of_their_modules() -> None:
    code = ("import json, sys\n"
            f"for n in {LAZY!r}: __import__(n)\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('pi_tui.') and m.count('.') >= 2"
            " and m.rsplit('.', 1)[0] in " + repr(LAZY) + ")))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_a_name_that_is_a_submodule_name_is_refused() -> None:
    with pytest.raises(ValueError, match="stream"):
        lazy_package("pi_tui.ai", {"stream": ".stream"})
