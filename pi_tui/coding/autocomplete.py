"""What the editor's completion list offers and how a chosen item is inserted (pi-tui's
``CombinedAutocompleteProvider`` and ``Editor`` autocomplete, 0.73.1; pi docs/tui.md, README "Editor").

Three contexts, read from the text before the cursor:

* ``command``: the first line starts with ``/`` and has no space yet: every command of the registry, fuzzy
  filtered by the name typed so far (:func:`pi_tui.coding.fuzzy.fuzzy_filter`); the description shown is
  ``"<argument hint> — <description>"`` when the command has an argument hint, as pi's;
* ``argument``: ``/name <text>`` where the command offers argument completions (pi's
  ``getArgumentCompletions``; ``CommandSpec.get_argument_completions``): what it returns for ``<text>``;
* ``file``: a token starting with ``@`` (``@src/ma``, ``@"my fi``): the project's files, found by
  ``pi_tui.coding.file_index``. Paths with a space are quoted (``@"my file.txt"``), as pi's
  ``buildCompletionValue``.

Inserting (:func:`apply_completion`, pi's ``applyCompletion``): a command becomes ``/name `` (a space after it);
a file ``@path `` (no space after a directory, so completion can go on); an argument replaces the argument text.
A ``"`` right after the cursor that closes no quotation (left by a quoted completion whose opening ``@"`` was
deleted) is dropped by an unquoted file completion (pi keeps it; new-user run #30).
Nothing here imports Textual: the TUI's ``controllers.editor_completion`` drives it.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pi_tui.coding.fuzzy import fuzzy_filter

PATH_DELIMITERS = frozenset(' \t"\'=')
SuggestionKind = Literal["command", "argument", "file"]


@dataclass(frozen=True)
class CompletionItem:
    """One entry of the list: ``value`` is inserted, ``label`` shown (the value when empty), ``description``
    shown dimmed beside it (pi's ``AutocompleteItem``)."""

    value: str
    label: str = ""
    description: str = ""

    @property
    def shown(self) -> str:
        """What the list shows in its first column."""
        return self.label or self.value


@dataclass(frozen=True)
class Suggestions:
    """``items`` for the text ``prefix`` (what a chosen item replaces, ending at the cursor); ``kind`` the
    context they came from."""

    items: list[CompletionItem]
    prefix: str
    kind: SuggestionKind


class CommandLike(Protocol):
    """What completion reads of a command (``CommandSpec``; the built-ins' ``SlashCommand``)."""

    @property
    def name(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def usage(self) -> str: ...


# ------------------------------------------------------------------ contexts
def command_prefix(text_before_cursor: str, row: int) -> str | None:
    """The command name typed so far when the cursor is in a ``/name`` on the first line with no space yet,
    else None (pi: the slash menu is only offered on the editor's first line)."""
    if row != 0 or not text_before_cursor.startswith("/") or " " in text_before_cursor:
        return None
    return text_before_cursor[1:]


def argument_context(text_before_cursor: str, row: int) -> tuple[str, str] | None:
    """``(command name, argument text)`` when the cursor is after ``/name `` on the first line, else None."""
    if row != 0 or not text_before_cursor.startswith("/") or " " not in text_before_cursor:
        return None
    name, _, argument = text_before_cursor[1:].partition(" ")
    return name, argument


def has_open_quote(text: str) -> bool:
    """True when ``text`` has a ``"`` that no later ``"`` closes (the cursor is inside a quotation)."""
    return _unclosed_quote_start(text) is not None


def _unclosed_quote_start(text: str) -> int | None:
    start = -1
    inside = False
    for i, ch in enumerate(text):
        if ch == '"':
            inside = not inside
            if inside:
                start = i
    return start if inside else None


def _token_start(text: str, index: int) -> bool:
    return index == 0 or text[index - 1] in PATH_DELIMITERS


def extract_at_prefix(text_before_cursor: str) -> str | None:
    """The ``@…`` token ending at the cursor (``@src/ma``, ``@"my fi``), or None (pi's ``extractAtPrefix``)."""
    quote = _unclosed_quote_start(text_before_cursor)
    if quote is not None and quote > 0 and text_before_cursor[quote - 1] == "@" and _token_start(
            text_before_cursor, quote - 1):
        return text_before_cursor[quote - 1:]
    last = max((i for i, ch in enumerate(text_before_cursor) if ch in PATH_DELIMITERS), default=-1)
    start = last + 1
    if text_before_cursor[start:start + 1] == "@":
        return text_before_cursor[start:]
    return None


def parse_path_prefix(prefix: str) -> tuple[str, bool]:
    """``(query, quoted)`` of an ``@`` token: ``@"my fi`` is ``("my fi", True)``, ``@src`` ``("src", False)``."""
    if prefix.startswith('@"'):
        return prefix[2:], True
    return prefix[1:] if prefix.startswith("@") else prefix, False


def build_completion_value(path: str, quoted: bool) -> str:
    """``@path``, or ``@"path"`` when the token was quoted or the path has a space (pi's
    ``buildCompletionValue``)."""
    if quoted or " " in path:
        return f'@"{path}"'
    return f"@{path}"


# ------------------------------------------------------------------ commands and arguments
def command_suggestions(prefix: str, commands: Sequence[CommandLike]) -> Suggestions | None:
    """Every command whose name fuzzy-matches ``prefix`` (best first; all in registry order for ``""``), or
    None when none does."""
    items = []
    for command in commands:
        hint, description = command.usage, command.description or ""
        shown = f"{hint} — {description}" if hint and description else (hint or description)
        items.append(CompletionItem(command.name, command.name, shown))
    filtered = fuzzy_filter(items, prefix, lambda item: item.value)
    return Suggestions(filtered, "/" + prefix, "command") if filtered else None


def normalise_items(raw: Any) -> list[CompletionItem]:
    """Argument completions as a command returns them: a list of strings, of pi's ``{value, label?,
    description?}`` dicts or of objects with those attributes; anything else is dropped. Raises ``TypeError``
    when ``raw`` is not a list/tuple (or None, which is no completions)."""
    if raw is None:
        return []
    if not isinstance(raw, list | tuple):
        raise TypeError(f"argument completions must be a list, not {type(raw).__name__}")
    items = []
    for entry in raw:
        if isinstance(entry, str):
            items.append(CompletionItem(entry, entry))
            continue
        get = entry.get if isinstance(entry, dict) else (lambda key, e=entry: getattr(e, key, None))
        value = get("value")
        if isinstance(value, str) and value:
            label, description = get("label"), get("description")
            items.append(CompletionItem(value, label if isinstance(label, str) else "",
                                        description if isinstance(description, str) else ""))
    return items


async def argument_suggestions(name: str, argument: str, commands: Sequence[Any]) -> Suggestions | None:
    """What ``/name``'s ``get_argument_completions(argument)`` offers (sync or async), or None when the
    command is unknown, offers none or returns nothing. Errors the command raises propagate (the caller
    reports them once)."""
    command = next((c for c in commands if c.name == name), None)
    complete = getattr(command, "get_argument_completions", None)
    if complete is None:
        return None
    raw = complete(argument)
    if inspect.isawaitable(raw):
        raw = await raw
    items = normalise_items(raw)
    return Suggestions(items, argument, "argument") if items else None


def best_match_index(items: Sequence[CompletionItem], prefix: str) -> int:
    """The item to select first: the one whose value is ``prefix``, else the first starting with it, else 0
    (pi's ``getBestAutocompleteMatchIndex``; case-sensitive, values only)."""
    if not prefix:
        return 0
    first = -1
    for i, item in enumerate(items):
        if item.value == prefix:
            return i
        if first == -1 and item.value.startswith(prefix):
            first = i
    return max(first, 0)


# ------------------------------------------------------------------ inserting
def apply_completion(lines: Sequence[str], row: int, col: int, item: CompletionItem,
                     suggestions: Suggestions) -> tuple[list[str], int, int]:
    """The editor's lines and cursor ``(lines, row, col)`` after choosing ``item`` (module docstring; pi's
    ``applyCompletion``). ``col`` is the cursor's column in ``lines[row]``; ``suggestions.prefix`` ends there."""
    line = lines[row] if row < len(lines) else ""
    prefix = suggestions.prefix
    before = line[: max(0, col - len(prefix))]
    after = line[col:]
    quoted = prefix.startswith('"') or prefix.startswith('@"')
    if quoted and item.value.endswith('"') and after.startswith('"'):
        after = after[1:]  # the closing quote is already there
    elif (suggestions.kind == "file" and not quoted and after.startswith('"') and not item.value.endswith('"')
          and not has_open_quote(before)):
        after = after[1:]  # an orphan: the closing quote of a quoted completion whose opening was deleted (#30)
    new_lines = list(lines)
    if suggestions.kind == "command":
        new_lines[row] = f"{before}/{item.value} {after}"
        return new_lines, row, len(before) + len(item.value) + 2
    is_dir = item.shown.endswith("/")
    offset = len(item.value) - 1 if is_dir and item.value.endswith('"') else len(item.value)
    if suggestions.kind == "file":
        suffix = "" if is_dir else " "
        new_lines[row] = before + item.value + suffix + after
        return new_lines, row, len(before) + offset + len(suffix)
    new_lines[row] = before + item.value + after
    return new_lines, row, len(before) + offset
