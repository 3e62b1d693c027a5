"""Keys of ``keybindings.json`` that another action of the same screen already uses (issue 9's class: a user's
binding silently lost to a default one, e.g. ``"app.tools.expand": "ctrl+p"`` never expanded anything because
Ctrl+P still cycled models).

pi's rule (pi CHANGELOG 0.61.0, "custom keybindings.json overrides shadow conflicting default shortcuts"): a key
the user binds to an action is taken from every *default* binding of another action that acts in the same place;
two actions the user bound to the same key are pi's ``getConflicts()``, and here the one written first in the
file keeps the key (deterministic; pi leaves it to the order its handlers run in). Every clash is reported once,
naming the key, the action that gets it and the one that loses it: as a start-up warning and in /hotkeys.

Places (``SCOPES``): the main screen (every ``DEFAULT_KEYS`` action), and each screen with keys of its own
(``SCREEN_KEYS``): /tree, /settings, /scoped-models, the session picker. The same key in two places is no clash
(Ctrl+D quits on the main screen and is the tree's default filter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pi_tui.tui.keymap import DEFAULT_KEYS, SCREEN_KEYS, Keymap, pretty_key

_SELECT = ("tui.select.confirm", "tui.select.cancel")
SCOPES: dict[str, tuple[str, ...]] = {
    "the main screen": tuple(DEFAULT_KEYS),
    "/tree": tuple(a for a in SCREEN_KEYS if a.startswith("app.tree.")),
    "/settings": _SELECT,
    "/scoped-models": (*_SELECT, *(a for a in SCREEN_KEYS if a.startswith("app.models."))),
    "the session picker": ("tui.input.tab", *(a for a in SCREEN_KEYS if a.startswith("app.session."))),
}
"""Where each action acts: keys clash only within one of these."""


@dataclass(frozen=True)
class KeyConflict:
    """``key`` (Textual name) is bound in ``scope`` to ``winner`` (keeps it) and ``losers`` (lose it)."""

    key: str
    scope: str
    winner: str
    losers: tuple[str, ...]

    def message(self, where: str = "keybindings.json") -> str:
        """One line for the user, naming the file (``where``), the key and both actions."""
        lost = ", ".join(self.losers)
        return (f"{where}: {pretty_key(self.key)} is bound to both {self.winner} and {lost} "
                f"({self.scope}); {self.winner} gets it, {lost} no longer answers to it")


def resolve_conflicts(keymap: Keymap, user_order: Sequence[str]) -> list[KeyConflict]:
    """Apply the module's rule to ``keymap`` in place (keys removed from the losing actions, in ``keys`` and
    ``screen_keys``) and return the clashes. ``user_order``: the action ids ``keybindings.json`` sets, in file
    order."""
    user = [a for a in user_order if a in keymap.keys]
    rank = {action: n for n, action in enumerate(user)}
    found: list[KeyConflict] = []
    seen: set[tuple[str, str]] = set()
    for scope, actions in SCOPES.items():
        owners: dict[str, list[str]] = {}
        for action in actions:
            for key in keymap.keys.get(action) or []:
                owners.setdefault(key, []).append(action)
        for key, bound in owners.items():
            claimed = sorted((a for a in bound if a in rank), key=rank.__getitem__)
            if len(bound) < 2 or not claimed:
                continue  # pi's own defaults never clash; only a user's binding can
            winner = claimed[0]
            losers = tuple(a for a in bound if a != winner)
            for action in losers:
                for table in (keymap.keys, keymap.screen_keys):
                    if action in table and key in table[action]:
                        table[action] = [k for k in table[action] if k != key]
            if (key, winner) not in seen:  # tui.select.* sit in two scopes: one report
                seen.add((key, winner))
                found.append(KeyConflict(key, scope, winner, losers))
    return found
