"""Slash commands (pi-reference §3.14 "Slash commands") and the command-palette provider exposing them.

Each command is ``/name [argument]``. The app's commands are one list: the session's ``CommandRegistry``
(``pi_tui.coding.extensions.registries``), where the TUI registers its built-ins (``BUILTIN_COMMANDS``, handled
by ``controllers.slash_commands``) next to extension commands, prompt templates, skills and MCP prompts.
Dispatch (``parse_slash``/``classify_submit``), Tab completion (``complete_slash``), the palette (F1) and
``/hotkeys`` all read that list, passed to them as ``commands`` (any sequence of objects with ``name``,
``description`` and ``usage``); without one they read the built-ins alone.

``classify_submit`` decides what submitted text starting with a slash is: a known command, an unknown one
(refused with the nearest command suggested: a typo like ``/exprot`` is not sent to the model), or a literal
message (``//text`` sends ``/text``; a leading space sends the text as typed, e.g. `` /etc/hosts is wrong``).
A first word that cannot be a command name (``/etc/hosts``, ``/3``) is a message too. pi 0.73 sends every
unknown ``/word`` to the model (DIFFERENCES.md).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal, Protocol

from textual.command import DiscoveryHit, Hit, Hits, Provider


class CommandInfo(Protocol):
    """What the lookups read of a command (``CommandSpec`` and ``SlashCommand`` both have it)."""

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def usage(self) -> str: ...


@dataclass(frozen=True)
class SlashCommand:
    """A built-in command's declaration: ``name`` without the slash, one-line ``description``, ``usage`` the
    argument hint (``"[search]"``) shown by /hotkeys."""

    name: str
    description: str
    usage: str = ""


BUILTIN_COMMANDS: tuple[SlashCommand, ...] = (
    SlashCommand("model", "Select a model (fuzzy filter)", "[search]"),
    SlashCommand("new", "Start a new session"),
    SlashCommand("resume", "Resume a previous session"),
    SlashCommand("fork", "Fork a new session from an earlier message"),
    SlashCommand("clone", "Copy the current branch into a new session"),
    SlashCommand("name", "Set or show the session name", "[name]"),
    SlashCommand("session", "Show session info and stats"),
    SlashCommand("compact", "Compact the context now", "[instructions]"),
    SlashCommand("tree", "Navigate the session tree: jump to any point, label entries"),
    SlashCommand("export", "Export the session to HTML (Markdown for a .md path)", "[path]"),
    SlashCommand("copy", "Copy the last answer to the clipboard"),
    SlashCommand("theme", "Switch theme", "[name]"),
    SlashCommand("tools", "Show/hide the tool-call panel"),
    SlashCommand("mcp", "MCP servers: state, tools, reconnect, enable/disable"),
    SlashCommand("settings", "Open settings menu"),
    SlashCommand("scoped-models", "Enable/disable models for Ctrl+P cycling"),
    SlashCommand("changelog", "Show pi-tui's changelog"),
    SlashCommand("hotkeys", "Show key bindings"),
    SlashCommand("quit", "Quit pi-tui"),
)


def usage_line(command: CommandInfo) -> str:
    """``/name usage`` (``/model [search]``), as /hotkeys lists it."""
    return f"/{command.name} {command.usage}".rstrip()


def parse_slash(text: str, commands: Sequence[CommandInfo] = BUILTIN_COMMANDS) -> tuple[CommandInfo, str] | None:
    """``(command, argument)`` when ``text`` is ``/name [argument]`` for a command in ``commands``, else
    ``None`` (sent as a prompt)."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        return None
    name, _, arg = stripped[1:].partition(" ")
    name = name.strip()
    cmd = next((c for c in commands if c.name == name), None)
    return (cmd, arg.strip()) if cmd is not None else None


_COMMAND_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_:-]*")


@dataclass(frozen=True)
class SubmitKind:
    """What submitted text is: ``command`` (``command``/``arg`` set), ``unknown`` (``name``, ``suggestion``
    or ``None``) or ``message`` (``text`` is what to send)."""

    kind: Literal["command", "unknown", "message"]
    text: str = ""
    command: CommandInfo | None = None
    arg: str = ""
    name: str = ""
    suggestion: str | None = None


def nearest_command(name: str, commands: Sequence[CommandInfo] = BUILTIN_COMMANDS) -> str | None:
    """The command of ``commands`` closest to ``name`` (a unique prefix match first, then spelling), or
    ``None``."""
    names = [c.name for c in commands]
    prefixed = [n for n in names if n.startswith(name.lower())]
    if len(prefixed) == 1:
        return prefixed[0]
    close = difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.5)
    return close[0] if close else None


def classify_submit(raw: str, commands: Sequence[CommandInfo] = BUILTIN_COMMANDS) -> SubmitKind:
    """Classify submitted editor text ``raw`` (as typed, not stripped) against ``commands``; see the module
    docstring."""
    text = raw.strip()
    if not raw.startswith("/"):
        return SubmitKind("message", text)
    if raw.startswith("//"):
        return SubmitKind("message", raw[1:].strip())
    parsed = parse_slash(text, commands)
    if parsed is not None:
        return SubmitKind("command", text, command=parsed[0], arg=parsed[1])
    name = text[1:].split(None, 1)[0] if len(text) > 1 else ""
    if name and not _COMMAND_WORD.fullmatch(name):
        return SubmitKind("message", text)  # a path or a number, not a misspelt command
    return SubmitKind("unknown", text, name=name, suggestion=nearest_command(name, commands) if name else None)


def complete_slash(prefix: str, commands: Sequence[CommandInfo] = BUILTIN_COMMANDS) -> list[CommandInfo]:
    """Commands of ``commands`` whose ``/name`` starts with ``prefix`` (for autocompletion)."""
    p = prefix.strip().lstrip("/")
    return [c for c in commands if c.name.startswith(p)]


# App actions offered in the palette besides the slash commands (editor-only keys such as submit, newline,
# history or Escape are left out: they mean nothing once the palette has closed).
PALETTE_ACTIONS: tuple[str, ...] = (
    "app.tools.panel", "app.tools.expand", "app.thinking.toggle", "app.thinking.cycle", "app.model.select",
    "app.model.cycleForward", "app.model.cycleBackward", "app.message.dequeue", "app.scroll.top",
    "app.scroll.bottom", "app.editor.external",
)


class SlashCommandProvider(Provider):
    """The command palette (F1): every slash command of the app's list (``app.slash_commands()``, run through
    the app's ``run_slash``) and the app's key actions (``PALETTE_ACTIONS``, then the extensions' shortcuts:
    ``Keymap.added``; shown with their keys from the keymap). It is the palette's only provider: Textual's own system commands (Keys, Screenshot, its theme
    picker) are not the app's and are not listed."""

    def _entries(self) -> list[tuple[str, str, Any]]:
        from pi_tui.tui.keymap import DESCRIPTIONS

        app: Any = self.app
        entries: list[tuple[str, str, Any]] = [
            (f"/{cmd.name}", cmd.description, partial(app.run_slash, f"/{cmd.name}"))
            for cmd in app.slash_commands()]
        for action in PALETTE_ACTIONS:
            entries.append((DESCRIPTIONS[action], app.keymap.display(action), partial(app.dispatch_action, action)))
        for action, description in app.keymap.added.items():  # extension shortcuts (tester2 #20)
            entries.append((description, app.keymap.display(action), partial(app.dispatch_action, action)))
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
