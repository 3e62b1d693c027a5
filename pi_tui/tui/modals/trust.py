"""Trust this folder? Asked on the first start in an untrusted folder that has project resources (pi 1.x
docs/security.md "Understand project trust"; ``pi_tui/coding/resources/trust.py``).

Shown before the session is built. Lists what the folder would load and dismisses with a
:class:`~pi_tui.coding.resources.trust.TrustChoice` value: ``"trust"`` (remembered), ``"once"`` (this time only)
or ``"deny"`` (don't load, remembered). Escape is the choice that runs nothing of the folder's, for this time only
(``None``: the caller loads nothing and saves nothing, so the question comes again next start).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from textual.binding import Binding

from pi_tui.coding.resources import trust
from pi_tui.tui.modals import arrival_guard
from pi_tui.tui.modals.choice_dialog import ChoiceDialog

CHOICES = (
    ("trust", "Trust this folder", "load its settings, extensions, skills, templates; remembered"),
    ("once", "Trust this time only", "load them now; ask again next time"),
    ("deny", "Don't load them", "start without them; remembered (AGENTS.md/CLAUDE.md still load)"),
)
MAX_LISTED = 6


class TrustChoiceModal(ChoiceDialog):
    """Modal naming the folder and its protected resources; the option list has the three choices."""

    BINDINGS = [Binding("escape", "skip", "Don't load this time", show=False)]

    def __init__(self, cwd: str, resources: Sequence[str]) -> None:
        self.cwd = os.path.abspath(cwd)
        self.resources = list(resources)
        super().__init__(
            name="trust",
            title="Trust this project folder?",
            body=[
                ("message", f"{self.cwd}\nIt has files that change what pi-tui does or run code in this process:"),
                ("resources-muted", self._resource_lines()),
            ],
            choices=CHOICES,
            hint="↑/↓ choose · Enter confirm · Esc don't load this time",
        )

    def _resource_lines(self) -> str:
        shown = [os.path.relpath(r, self.cwd) for r in self.resources[:MAX_LISTED]]
        more = len(self.resources) - MAX_LISTED
        lines = [f"  {r}" for r in shown] + ([f"  … and {more} more"] if more > 0 else [])
        return "\n".join(lines)

    def action_skip(self) -> None:
        """Escape: load nothing of the folder's now and save nothing."""
        self.dismiss(None)


async def ask_project_trust(app: Any, cwd: str, *, flagged: bool = False) -> bool:
    """Before the session is built: show :class:`TrustChoiceModal` when ``cwd`` needs a decision (resources
    present, nothing decided, ``defaultProjectTrust`` is ``ask``) and apply the answer. ``flagged``:
    ``--trust-project`` was given (no question). Returns whether the folder's resources may load.
    ``app``: the running Textual app (``push_screen_wait`` needs a worker, as the session factory runs in)."""
    if flagged:
        return True
    status = trust.resolve(cwd)
    if not status.needs_decision:
        return status.trusted
    modal = TrustChoiceModal(cwd, status.resources)
    arrival_guard.register(modal)  # an Enter typed for a prompt as it appears never answers it (tester2 #4)
    choice = await app.push_screen_wait(modal)
    return trust.decide(cwd, choice or trust.TrustChoice.SKIP)
