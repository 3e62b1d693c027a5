"""Extension autocomplete providers in the editor (pi 0.73 docs/extensions.md "Autocomplete Providers":
``ctx.ui.addAutocompleteProvider``): :class:`ProviderStack`, which the editor's completion driver
(``controllers/editor_completion.py``) asks instead of its own rules while any provider is registered.

Each ``factory(current)`` returns a provider stacked on ``current``: the provider below it, and at the bottom
:class:`BuiltinProvider`, the editor's own completion (``/`` commands, command arguments, ``@`` files and MCP
resources) with pi's provider methods. So extension completions go through the same list, keys and insertion
as the built-in ones, and a provider that does not recognise the text delegates to ``current``.

Provider methods (sync or async): ``get_suggestions(lines, line, col, options)`` → ``{"prefix": str,
"items": [{"value", "label"?, "description"?}]}`` or None; ``apply_completion(lines, line, col, item,
prefix)`` → ``{"lines", "cursor_line", "cursor_col"}`` (optional: without it the item's value replaces the
prefix). ``options`` is ``{"force": bool}`` (True after Tab). The list opens as the user types anything while
a provider is registered (the providers decide what completes).

A provider whose factory or method raises, or returns something else, is reported once naming the extension
(``ui.autocomplete``) and taken out of the stack; the others and the built-in completion go on.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from pi_tui.coding.autocomplete import (
    CompletionItem,
    Suggestions,
    apply_completion,
    argument_context,
    argument_suggestions,
    command_prefix,
    command_suggestions,
    extract_at_prefix,
    parse_path_prefix,
)
from pi_tui.coding.extensions.ui_slots import SlotSpec

if TYPE_CHECKING:
    from pi_tui.tui.controllers.editor_completion import EditorCompletion


def _item_dict(item: CompletionItem) -> dict[str, str]:
    return {"value": item.value, "label": item.label, "description": item.description}


def _item(value: Any) -> CompletionItem:
    """A list item from a provider's ``{"value", "label", "description"}`` (or an object with them)."""
    get = value.get if isinstance(value, dict) else lambda key, default="": getattr(value, key, default)
    item_value = get("value", "")
    if not isinstance(item_value, str) or not item_value:
        raise TypeError(f"a completion item needs a non-empty str value, got {value!r}")
    return CompletionItem(item_value, str(get("label", "") or ""), str(get("description", "") or ""))


class ProviderSuggestions(Suggestions):
    """Suggestions an extension provider returned: inserted by the stack, current while the text before the
    cursor still ends with their ``prefix``."""

    from_provider = True


class BuiltinSuggestions(dict[str, Any]):
    """The built-in provider's result (``{"prefix", "items"}``), keeping the :class:`Suggestions` it came from
    so the built-in insertion rules (``/name ``, ``@file ``) apply when it reaches the top unchanged."""

    def __init__(self, suggestions: Suggestions) -> None:
        super().__init__(prefix=suggestions.prefix, items=[_item_dict(i) for i in suggestions.items])
        self.suggestions = suggestions


class BuiltinProvider:
    """The editor's own completion as a provider (module docstring)."""

    def __init__(self, completion: EditorCompletion) -> None:
        self._completion = completion
        self.last: Suggestions | None = None

    async def get_suggestions(self, lines: Sequence[str], line: int, col: int,
                              options: dict[str, Any] | None = None) -> BuiltinSuggestions | None:
        """The built-in suggestions at ``(line, col)``, or None."""
        c = self._completion
        before = (lines[line] if line < len(lines) else "")[:col]
        found: Suggestions | None = None
        prefix = command_prefix(before, line)
        at_prefix = extract_at_prefix(before)
        context = argument_context(before, line)
        if prefix is not None:
            found = command_suggestions(prefix, c._commands())
        elif at_prefix is not None:
            resources, only = c._resource_items(parse_path_prefix(at_prefix)[0])
            items = list(resources)
            index = c._file_index()
            if not only and index.ready:
                query, quoted = parse_path_prefix(at_prefix)
                from pi_tui.tui.controllers.editor_completion import file_items

                items = file_items(await asyncio.to_thread(index.query, query), quoted) + items
            found = Suggestions(items, at_prefix, "file") if items else None
        elif context is not None:
            try:
                found = await argument_suggestions(context[0], context[1], c._commands())
            except Exception as exc:
                c._report(f"argument completions of /{context[0]}", exc)
        self.last = found
        return BuiltinSuggestions(found) if found is not None else None

    def apply_completion(self, lines: Sequence[str], line: int, col: int, item: Any, prefix: str) -> dict[str, Any]:
        """Insert ``item`` for ``prefix``: the built-in rules for its own suggestions, else ``value`` replaces
        ``prefix``."""
        last = self.last
        kind = last.kind if last is not None and last.prefix == prefix else "argument"
        chosen = _item(item)
        new_lines, row, new_col = apply_completion(list(lines), line, col, chosen, Suggestions([chosen], prefix, kind))
        return {"lines": new_lines, "cursor_line": row, "cursor_col": new_col}

    def should_trigger_file_completion(self, lines: Sequence[str], line: int, col: int) -> bool:
        """True (pi's default)."""
        return True


def _field(value: Any, key: str) -> Any:
    """``value[key]`` of a dict, else the attribute ``key`` (None when missing)."""
    return value.get(key) if isinstance(value, dict) else getattr(value, key, None)


async def _resolve(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class ProviderStack:
    """The registered providers over the built-in one (module docstring)."""

    def __init__(self, completion: EditorCompletion) -> None:
        self.builtin = BuiltinProvider(completion)
        self.specs: list[SlotSpec] = []
        self.top: Any = self.builtin
        self._owners: dict[int, SlotSpec] = {}  # id(provider) -> its spec

    @property
    def active(self) -> bool:
        """At least one extension provider is registered."""
        return bool(self.specs)

    def add(self, spec: SlotSpec) -> None:
        """Stack ``spec``'s provider on the current top."""
        self.specs.append(spec)
        self._build()

    def clear(self) -> None:
        """Only the built-in completion again (the extensions unloaded)."""
        self.specs = []
        self._build()

    def _build(self) -> None:
        top: Any = self.builtin
        self._owners = {}
        for spec in list(self.specs):
            try:
                provider = spec.factory(top)
                if provider is None or not callable(getattr(provider, "get_suggestions", None)):
                    raise TypeError("the factory must return a provider with get_suggestions(lines, line, col, options)")
            except Exception as exc:
                self.specs.remove(spec)
                spec.fail(exc)
                continue
            self._owners[id(provider)] = spec
            top = provider
        self.top = top

    def _drop(self, exc: BaseException) -> None:
        spec = self._owners.get(id(self.top))
        if spec is not None and spec in self.specs:
            self.specs.remove(spec)
            spec.fail(exc)
            self._build()

    async def suggestions(self, lines: list[str], line: int, col: int, force: bool = False) -> Suggestions | None:
        """The top provider's suggestions as the list shows them, or None."""
        for _ in range(len(self.specs) + 1):  # a failing provider is dropped and the next one asked
            try:
                result = await _resolve(self.top.get_suggestions(lines, line, col, {"force": force}))
                if result is None:
                    return None
                if isinstance(result, BuiltinSuggestions):
                    return result.suggestions
                prefix, items = _field(result, "prefix"), _field(result, "items")
                if not isinstance(prefix, str) or not isinstance(items, list | tuple):
                    raise TypeError(f"get_suggestions must return {{'prefix': str, 'items': [...]}}, got {result!r}")
                shown = [_item(i) for i in items]
                return ProviderSuggestions(shown, prefix, "argument") if shown else None
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.top is self.builtin:
                    raise
                self._drop(exc)
        return None

    def apply(self, lines: list[str], line: int, col: int, item: CompletionItem,
              suggestions: Suggestions) -> tuple[list[str], int, int]:
        """Lines and cursor after choosing ``item`` (the top provider's ``apply_completion``, else the built-in
        insertion); a provider that fails is dropped and the built-in insertion used."""
        top = self.top
        method: Callable[..., Any] | None = getattr(top, "apply_completion", None)
        if top is self.builtin or not callable(method):
            return apply_completion(lines, line, col, item, suggestions)
        try:
            result = method(list(lines), line, col, _item_dict(item), suggestions.prefix)
            new_lines, row, new_col = (_field(result, "lines"), _field(result, "cursor_line"),
                                       _field(result, "cursor_col"))
            if not (isinstance(new_lines, list) and all(isinstance(x, str) for x in new_lines)
                    and isinstance(row, int) and isinstance(new_col, int)):
                raise TypeError(f"apply_completion must return {{'lines', 'cursor_line', 'cursor_col'}}, got {result!r}")
            return new_lines, row, new_col
        except Exception as exc:
            self._drop(exc)
            return apply_completion(lines, line, col, item, suggestions)

    async def request(self, completion: EditorCompletion, token: int, force: bool = False) -> None:
        """Ask the stack for the cursor's suggestions and show them (or close the list) unless a newer request
        started meanwhile."""
        editor = completion.editor
        row, col = editor.cursor_location
        lines = [editor.document[i] for i in range(editor.document.line_count)]
        try:
            found = await self.suggestions(lines, row, col, force)
        except Exception as exc:  # the built-in completion itself failed: as before, reported once
            completion._report("completion", exc)
            found = None
        if completion._current(token):
            completion._show(found)
