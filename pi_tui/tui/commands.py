"""Slash commands (pi-reference §3.14 "Slash commands") and the command-palette provider exposing them.

Each command is ``/name [argument]``; ``parse_slash`` splits the editor text, and the app runs
``cmd_<name>(argument)``. The same table feeds the palette (F1) and slash autocompletion.

``classify_submit`` decides what submitted text starting with a slash is: a known command, an unknown one
(refused with the nearest command suggested: a typo like ``/exprot`` is not sent to the model), or a literal
message (``//text`` sends ``/text``; a leading space sends the text as typed, e.g. `` /etc/hosts is wrong``).
A first word that cannot be a command name (``/etc/hosts``, ``/3``) is a message too. pi 0.73 sends every
unknown ``/word`` to the model (DIFFERENCES.md).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from textual.command import DiscoveryHit, Hit, Hits, Provider


@dataclass(frozen=True)
class SlashCommand:
    """``name`` without the slash, one-line ``description``, ``usage`` for /hotkeys."""

    name: str
    description: str
    usage: str = ""


COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("model", "Select a model (fuzzy filter)", "/model [search]"),
    SlashCommand("new", "Start a new session", "/new"),
    SlashCommand("resume", "Resume a previous session", "/resume"),
    SlashCommand("name", "Set or show the session name", "/name [name]"),
    SlashCommand("session", "Show session info and stats", "/session"),
    SlashCommand("compact", "Compact the context now", "/compact [instructions]"),
    SlashCommand("export", "Export the session to HTML (Markdown for a .md path)", "/export [path]"),
    SlashCommand("copy", "Copy the last answer to the clipboard", "/copy"),
    SlashCommand("theme", "Switch theme", "/theme [name]"),
    SlashCommand("tools", "Show/hide the tool-call panel", "/tools"),
    SlashCommand("hotkeys", "Show key bindings", "/hotkeys"),
    SlashCommand("quit", "Quit pi-tui", "/quit"),
)

_BY_NAME = {c.name: c for c in COMMANDS}


def parse_slash(text: str) -> tuple[SlashCommand, str] | None:
    """``(command, argument)`` when ``text`` is a known slash command, else ``None`` (sent as a prompt)."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        return None
    name, _, arg = stripped[1:].partition(" ")
    cmd = _BY_NAME.get(name.strip())
    return (cmd, arg.strip()) if cmd else None


_COMMAND_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_:-]*")


@dataclass(frozen=True)
class SubmitKind:
    """What submitted text is: ``command`` (``command``/``arg`` set), ``unknown`` (``name``, ``suggestion``
    or ``None``) or ``message`` (``text`` is what to send)."""

    kind: Literal["command", "unknown", "message"]
    text: str = ""
    command: SlashCommand | None = None
    arg: str = ""
    name: str = ""
    suggestion: str | None = None


def nearest_command(name: str) -> str | None:
    """The command closest to ``name`` (a unique prefix match first, then spelling), or ``None``."""
    prefixed = [c.name for c in COMMANDS if c.name.startswith(name.lower())]
    if len(prefixed) == 1:
        return prefixed[0]
    close = difflib.get_close_matches(name.lower(), [c.name for c in COMMANDS], n=1, cutoff=0.5)
    return close[0] if close else None


def classify_submit(raw: str) -> SubmitKind:
    """Classify submitted editor text ``raw`` (as typed, not stripped); see the module docstring."""
    text = raw.strip()
    if not raw.startswith("/"):
        return SubmitKind("message", text)
    if raw.startswith("//"):
        return SubmitKind("message", raw[1:].strip())
    parsed = parse_slash(text)
    if parsed is not None:
        return SubmitKind("command", text, command=parsed[0], arg=parsed[1])
    name = text[1:].split(None, 1)[0] if len(text) > 1 else ""
    if name and not _COMMAND_WORD.fullmatch(name):
        return SubmitKind("message", text)  # a path or a number, not a misspelt command
    return SubmitKind("unknown", text, name=name, suggestion=nearest_command(name) if name else None)


def complete_slash(prefix: str) -> list[SlashCommand]:
    """Commands whose ``/name`` starts with ``prefix`` (for autocompletion)."""
    p = prefix.strip().lstrip("/")
    return [c for c in COMMANDS if c.name.startswith(p)]


# App actions offered in the palette besides the slash commands (editor-only keys such as submit, newline,
# history or Escape are left out: they mean nothing once the palette has closed).
PALETTE_ACTIONS: tuple[str, ...] = (
    "app.tools.panel", "app.tools.expand", "app.thinking.toggle", "app.thinking.cycle", "app.model.select",
    "app.model.cycleForward", "app.model.cycleBackward", "app.message.dequeue", "app.scroll.top",
    "app.scroll.bottom",
)


class SlashCommandProvider(Provider):
    """The command palette (F1): every slash command (run through the app's ``run_slash``) and the app's key
    actions (``PALETTE_ACTIONS``, shown with their keys from the keymap). It is the palette's only provider:
    Textual's own system commands (Keys, Screenshot, its theme picker) are not the app's and are not listed."""

    def _entries(self) -> list[tuple[str, str, Any]]:
        from pi_tui.tui.keymap import DESCRIPTIONS

        app: Any = self.app
        entries: list[tuple[str, str, Any]] = [
            (f"/{cmd.name}", cmd.description, partial(app.run_slash, f"/{cmd.name}")) for cmd in COMMANDS]
        for action in PALETTE_ACTIONS:
            entries.append((DESCRIPTIONS[action], app.keymap.display(action), partial(app.dispatch_action, action)))
        return entries

    async def discover(self) -> Hits:
        for title, help_text, callback in self._entries():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._entries():
            score = matcher.match(f"{title} {help_text}")
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)
