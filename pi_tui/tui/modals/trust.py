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

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from pi_tui.coding.resources import trust

CHOICES = (
    ("trust", "Trust this folder", "load its settings, extensions, skills, templates; remembered"),
    ("once", "Trust this time only", "load them now; ask again next time"),
    ("deny", "Don't load them", "start without them; remembered (AGENTS.md/CLAUDE.md still load)"),
)
MAX_LISTED = 6


class TrustChoiceModal(ModalScreen[str | None]):
    """Modal naming the folder and its protected resources; the option list has the three choices."""

    DEFAULT_CSS = """
    TrustChoiceModal { align: center middle; }
    TrustChoiceModal > Vertical {
        width: 80%; max-width: 100; height: auto; border: round $warning; background: $surface; padding: 0 1;
    }
    TrustChoiceModal #trust-title { text-style: bold; }
    TrustChoiceModal #trust-resources { color: $text-muted; margin-bottom: 1; }
    TrustChoiceModal OptionList, TrustChoiceModal OptionList:focus { height: auto; border: none; }
    TrustChoiceModal #trust-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "skip", "Don't load this time", show=False)]

    def __init__(self, cwd: str, resources: Sequence[str]) -> None:
        super().__init__()
        self.cwd = os.path.abspath(cwd)
        self.resources = list(resources)

    def _resource_lines(self) -> str:
        shown = [os.path.relpath(r, self.cwd) for r in self.resources[:MAX_LISTED]]
        more = len(self.resources) - MAX_LISTED
        lines = [f"  {r}" for r in shown] + ([f"  … and {more} more"] if more > 0 else [])
        return "\n".join(lines)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Trust this project folder?", id="trust-title")
            yield Static(
                f"{self.cwd}\nIt has files that change what pi-tui does or run code in this process:",
                id="trust-message",
                markup=False,
            )
            yield Static(self._resource_lines(), id="trust-resources", markup=False)
            yield OptionList(*(Option(f"{label} — {detail}", id=value) for value, label, detail in CHOICES))
            yield Static("↑/↓ choose · Enter confirm · Esc don't load this time", id="trust-hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(str(event.option.id))

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
    choice = await app.push_screen_wait(TrustChoiceModal(cwd, status.resources))
    return trust.decide(cwd, choice or trust.TrustChoice.SKIP)
