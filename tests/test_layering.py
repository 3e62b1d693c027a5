"""The layers only import downward: tui -> coding -> agent -> ai; nothing below tui imports Textual.

Checked two ways: statically (every import statement in every module, via ``ast``) and at run time (importing
every module of the lower layers in a fresh interpreter leaves ``textual`` out of ``sys.modules``).
Also: ``import pi_tui.ai`` imports no provider module (pi-reference §4.2 lazy-module-load).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "pi_tui"
ORDER = ["ai", "agent", "coding", "tui"]


def _modules(layer: str) -> list[Path]:
    return sorted((PKG / layer).rglob("*.py"))


def _imported_names(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    package = ".".join(path.relative_to(PKG.parent).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                names.append(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.append(node.module)
    return names


@pytest.mark.parametrize("layer", ["ai", "agent", "coding"])
def test_lower_layers_never_import_upward_or_textual(layer: str) -> None:
    forbidden = [f"pi_tui.{higher}" for higher in ORDER[ORDER.index(layer) + 1 :]] + ["textual"]
    offenders = []
    for path in _modules(layer):
        for name in _imported_names(path):
            if any(name == f or name.startswith(f + ".") for f in forbidden):
                offenders.append(f"{path.relative_to(PKG.parent)} imports {name}")
    assert offenders == []


def _run(code: str) -> dict[str, object]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_importing_every_lower_module_loads_no_textual() -> None:
    mods = []
    for layer in ["ai", "agent", "coding"]:
        for path in _modules(layer):
            parts = path.relative_to(PKG.parent).with_suffix("").parts
            mods.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    code = (
        "import importlib, json, sys\n"
        f"for m in {mods!r}: importlib.import_module(m)\n"
        "print(json.dumps({'textual': any(k == 'textual' or k.startswith('textual.') for k in sys.modules)}))"
    )
    assert _run(code) == {"textual": False}


def test_import_pi_tui_ai_loads_no_provider_module() -> None:
    code = (
        "import json, sys, pi_tui.ai\n"
        "print(json.dumps({'providers': sorted(k for k in sys.modules if k.startswith('pi_tui.ai.providers.'))}))"
    )
    assert _run(code) == {"providers": []}
