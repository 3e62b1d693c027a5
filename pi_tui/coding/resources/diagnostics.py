"""Problems found while loading skills and prompt templates (pi 0.73 ``ResourceDiagnostic``).

``warning``: the file loads (or is skipped) and the user should fix it; ``error``: a path given explicitly does
not exist; ``collision``: two resources have the same name, the first found wins and the other is skipped.
:func:`format_diagnostic` gives the one-line text the app shows and print mode writes to stderr.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DiagnosticType = Literal["warning", "error", "collision"]
ResourceKind = Literal["skill", "prompt"]


@dataclass(frozen=True)
class ResourceDiagnostic:
    """One problem. ``path``: the file concerned (for a collision, the skipped one); ``winner_path``: for a
    collision, the file that was kept."""

    type: DiagnosticType
    message: str
    path: str | None = None
    kind: ResourceKind = "skill"
    name: str | None = None
    winner_path: str | None = None


def format_diagnostic(diagnostic: ResourceDiagnostic) -> str:
    """One line naming the file(s): ``Skill "x" collision: keeping A, skipped B`` or ``Skill A: message``."""
    label = "Skill" if diagnostic.kind == "skill" else "Prompt template"
    if diagnostic.type == "collision":
        shown = diagnostic.name if diagnostic.kind == "skill" else f"/{diagnostic.name}"
        return f'{label} "{shown}" collision: keeping {diagnostic.winner_path}, skipped {diagnostic.path}'
    if diagnostic.path:
        return f"{label} {diagnostic.path}: {diagnostic.message}"
    return f"{label}: {diagnostic.message}"
